import type { ProfileChanges, ProfileField } from '../services/company-profile.js';
import { FirstRunSetup, setupLinkMessage, setupPath } from '../panel/setup.js';
import { isRole, UserService } from '../panel/users.js';
import { resetTestData } from '../services/test-data.js';
import { existingCompany, required, type CliCommand, type OptionName } from './command.js';
import { CommandError, UsageError } from './errors.js';

// `invoicing company …`, `user create`, `setup-link` and `migrate`.

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

export const ADMIN_COMMANDS: CliCommand[] = [
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
      if (!result.ok) throw new CommandError(result.detail);
      const c = result.value;
      context.print(c, `Created company ${c.id} (${c.name}, currency ${c.currency})`);
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
      if (Object.keys(changes).length === 0) throw new UsageError('Give at least one field to change, e.g. --iban DE89370400440532013000.', 'company');
      const result = await context.container.companyProfiles.update(companyId, changes, { userId: null, label: 'cli' });
      if (!result.ok) {
        throw new CommandError(
          result.reason === 'not_found'
            ? `No company with id ${companyId}.`
            : result.problems.map((p) => `--${PROFILE_OPTIONS.find(([, f]) => f === p.field)![0]}: ${p.message}`).join('; '),
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
      const deleted = await resetTestData(context.storage.db, companyId);
      context.print(
        { companyId, deleted },
        `Deleted the test data of ${companyId}: ${deleted.organizations} organizations, ${deleted.invoices} invoices, ${deleted.creditNotes} credit notes, ${deleted.payments} payments, ${deleted.events} events. Test numbers start again at 00001; live data is untouched.`,
      );
    },
  },
  {
    group: 'user',
    verb: 'create',
    positionals: [],
    options: ['company', 'email', 'role', 'password-stdin'],
    async run(context) {
      const { values, io } = context;
      const role = required(context, 'user create', 'role');
      if (!isRole(role)) throw new UsageError(`--role must be owner, admin or member, got "${role}".`, 'user');
      const email = required(context, 'user create', 'email');
      // Passwords never travel in argv, where ps and shell history would show them.
      if (!values['password-stdin'] || !io.readStdin) throw new UsageError('Give the password on standard input with --password-stdin.', 'user');
      const companyId = await existingCompany(context, required(context, 'user create', 'company'), 'user');
      const password = (await io.readStdin()).replace(/\r?\n$/, '');
      const result = await new UserService(context.storage.db).create({ companyId, email, role, password });
      if (!result.ok) throw new CommandError(result.field === 'password' ? `Password: ${result.detail}` : result.detail);
      const u = result.value;
      context.print({ id: u.id, companyId: u.companyId, email: u.email, role: u.role }, `Created ${u.role} ${u.email} (${u.id}) in company ${u.companyId}.`);
    },
  },
  {
    group: 'setup-link',
    verb: null,
    positionals: [],
    options: ['base-url'],
    async run(context) {
      // For operators who missed the link the server printed at start (or run it in a container).
      const token = await new FirstRunSetup(context.storage.db).issueToken();
      if (token === null) throw new CommandError('This instance already has panel users: sign in at /panel, or ask an owner to add you.');
      const baseUrl = (context.values['base-url'] ?? `http://${context.config.host}:${context.config.port}`).replace(/\/+$/, '');
      const url = `${baseUrl}${setupPath(token)}`;
      context.print({ url }, setupLinkMessage(url).trim());
    },
  },
  {
    group: 'migrate',
    verb: null,
    positionals: [],
    options: [],
    async run(context) {
      context.print({ applied: context.applied }, context.applied.length ? `Applied: ${context.applied.join(', ')}` : 'The database is up to date.');
    },
  },
];
