import type { ProfileChanges, ProfileField } from '../schemas/company.js';
import type { CreateCompanyProblem } from '../services/company-service.js';
import { existingCompany, required, textTable, type CliCommand, type OptionName } from './command.js';
import { CommandError, UsageError } from './errors.js';

// `invoicing company …`: create, list, update (the seller profile), reset-test-data.

/** `company update` options and the profile field each one sets ('' clears a field). */
const PROFILE_OPTIONS: [OptionName, ProfileField][] = [
  ['legal-name', 'legalName'],
  ['line1', 'line1'],
  ['line2', 'line2'],
  ['city', 'city'],
  ['postal-code', 'postalCode'],
  ['country', 'countryCode'],
  ['vat-id', 'vatId'],
  ['tax-number', 'taxNumber'],
  ['legal-registration-id', 'legalRegistrationId'],
  ['electronic-address', 'electronicAddress'],
  ['contact-name', 'contactName'],
  ['contact-phone', 'contactPhone'],
  ['contact-email', 'contactEmail'],
  ['iban', 'iban'],
  ['bic', 'bic'],
  ['account-name', 'accountName'],
  ['payment-terms', 'paymentTerms'],
  ['creditor-id', 'creditorId'],
];

/** `company create` options by the field each one sets, to name them in a refusal. */
const CREATE_OPTION: Record<CreateCompanyProblem['field'], OptionName> = {
  name: 'name',
  currency: 'currency',
  vatId: 'vat-id',
  countryCode: 'country',
};

export const COMPANY_COMMANDS: CliCommand[] = [
  {
    group: 'company',
    verb: 'create',
    positionals: [],
    options: ['name', 'currency', 'vat-id', 'country'],
    async run(context) {
      const { values } = context;
      const result = await context.container.companies.create({
        name: required(context, 'company create', 'name'),
        currency: values.currency,
        vatId: values['vat-id'] ?? null,
        countryCode: values.country ?? null,
      });
      if (!result.ok)
        throw new CommandError(result.problems.map((p) => `--${CREATE_OPTION[p.field]}: ${p.message}`).join('; '));
      const c = result.value;
      context.print(c, `Created company ${c.id} (${c.name}, currency ${c.currency})`);
    },
  },
  {
    group: 'company',
    verb: 'list',
    positionals: [],
    options: [],
    async run(context) {
      const companies = await context.container.companies.listAll();
      const rows = companies.map((c) => [c.id, c.name, c.currency, c.countryCode ?? '-', c.vatId ?? '-', c.createdAt]);
      context.print(
        { companies },
        textTable(['ID', 'NAME', 'CURRENCY', 'COUNTRY', 'VAT ID', 'CREATED'], rows, 'No companies yet.'),
      );
    },
  },
  {
    group: 'company',
    verb: 'update',
    positionals: ['companyId'],
    options: PROFILE_OPTIONS.map(([option]) => option),
    async run(context) {
      const companyId = await existingCompany(context, context.args[0]!, 'company');
      const changes: ProfileChanges = {};
      for (const [option, field] of PROFILE_OPTIONS) {
        const value = context.values[option];
        if (typeof value === 'string') changes[field] = value;
      }
      if (Object.keys(changes).length === 0)
        throw new UsageError('Give at least one field to change, e.g. --iban DE89370400440532013000.', 'company');
      const result = await context.container.companyProfiles.update(companyId, changes, { userId: null, label: 'cli' });
      if (!result.ok) {
        throw new CommandError(
          result.reason === 'not_found'
            ? `No company with id ${companyId}.`
            : result.problems
                .map((p) => `--${PROFILE_OPTIONS.find(([, f]) => f === p.field)![0]}: ${p.message}`)
                .join('; '),
        );
      }
      context.print(result.value, `Updated company ${companyId}. The change is in the company's audit list.`);
    },
  },
  {
    group: 'company',
    verb: 'reset-test-data',
    positionals: ['companyId'],
    options: [],
    async run(context) {
      const companyId = await existingCompany(context, context.args[0]!, 'company');
      const { resetTestData } = await import('../services/test-data.js');
      const deleted = await resetTestData(context.container.repositories.testData, companyId);
      context.print(
        { companyId, deleted },
        `Deleted the test data of ${companyId}: ${deleted.organizations} organizations, ${deleted.invoices} invoices, ${deleted.creditNotes} credit notes, ${deleted.payments} payments, ${deleted.events} events, ${deleted.purchaseInvoices} received purchase invoices. Test numbers start again at 00001; live data is untouched.`,
      );
    },
  },
];
