import type { Company, ProfileChanges } from '../schemas/company.js';
import { readProfileChanges, type ProfileProblem } from '../services/company-profile.js';
import { groupedIban } from './iban.js';
import type { FieldErrors } from './views/forms.js';

// The Company page's form, apart from its markup: the profile as form values, form values as a
// profile change, and every problem of a submission, the panel's own and the service's, under
// the field it concerns. The electronic address is one profile field ("scheme:identifier") but
// two form fields (a select and a text), so its halves are checked here.

/** The form's fields in the order the page shows them, so the first error is the first invalid field. */
export const COMPANY_FIELDS = [
  'legalName',
  'vatId',
  'taxNumber',
  'legalRegistrationId',
  'line1',
  'line2',
  'postalCode',
  'city',
  'countryCode',
  'easScheme',
  'easIdentifier',
  'contactName',
  'contactPhone',
  'contactEmail',
  'iban',
  'bic',
  'accountName',
  'paymentTerms',
  'creditorId',
] as const;

export type CompanyFormField = (typeof COMPANY_FIELDS)[number];
export type CompanyFormValues = Partial<Record<CompanyFormField, string>>;

type DirectField = Exclude<CompanyFormField, 'easScheme' | 'easIdentifier'>;
const DIRECT = COMPANY_FIELDS.filter((f): f is DirectField => f !== 'easScheme' && f !== 'easIdentifier');

export function formValuesOf(company: Company): CompanyFormValues {
  const v = (value: string | null | undefined) => value ?? '';
  return {
    legalName: v(company.legalName),
    line1: v(company.address.line1),
    line2: v(company.address.line2),
    postalCode: v(company.address.postalCode),
    city: v(company.address.city),
    countryCode: v(company.address.countryCode),
    vatId: v(company.vatId),
    taxNumber: v(company.taxNumber),
    legalRegistrationId: v(company.legalRegistrationId),
    easScheme: v(company.electronicAddress?.scheme),
    easIdentifier: v(company.electronicAddress?.identifier),
    contactName: v(company.contact.name),
    contactPhone: v(company.contact.phone),
    contactEmail: v(company.contact.email),
    iban: company.bankAccount ? groupedIban(company.bankAccount.iban) : '',
    bic: v(company.bankAccount?.bic),
    accountName: v(company.bankAccount?.accountName),
    paymentTerms: v(company.paymentTerms),
    creditorId: v(company.creditorId),
  };
}

/** The service's problems under the form's fields, in the form's order. */
export function formErrorsOf(
  problems: ProfileProblem[],
  own: Partial<Record<CompanyFormField, string>> = {},
): FieldErrors {
  const found: Partial<Record<CompanyFormField, string>> = { ...own };
  for (const p of problems) {
    // The panel has checked both halves are there, so the service can only object to the scheme.
    if (p.field === 'electronicAddress') found.easScheme ??= 'Choose a scheme from the EAS code list.';
    else found[p.field] ??= p.message;
  }
  const errors: FieldErrors = {};
  for (const f of COMPANY_FIELDS) if (found[f] !== undefined) errors[f] = found[f];
  return errors;
}

export type ReadCompanyForm = { ok: true; changes: ProfileChanges } | { ok: false; errors: FieldErrors };

/**
 * A submitted form as a profile change, or every problem it has. Fields the form did not send are
 * left as they are; empty ones clear the stored value.
 */
export function readCompanyForm(values: CompanyFormValues): ReadCompanyForm {
  const changes: ProfileChanges = {};
  for (const f of DIRECT) if (values[f] !== undefined) changes[f] = values[f];
  const own: Partial<Record<CompanyFormField, string>> = {};

  if (values.easScheme !== undefined || values.easIdentifier !== undefined) {
    const scheme = (values.easScheme ?? '').trim();
    const identifier = (values.easIdentifier ?? '').trim();
    if (scheme === '' && identifier === '') changes.electronicAddress = null;
    else if (scheme === '') own.easScheme = 'Choose the scheme of this identifier.';
    else if (identifier === '') own.easIdentifier = 'Enter the identifier, or choose no scheme.';
    else changes.electronicAddress = `${scheme}:${identifier}`;
  }
  // The API shows a bank account only with its IBAN: a BIC or name alone would seem to vanish.
  const filled = (v: string | undefined) => v !== undefined && v.trim() !== '';
  if (values.iban !== undefined && !filled(values.iban) && (filled(values.bic) || filled(values.accountName))) {
    own.iban = 'Enter the IBAN: a BIC or account name belongs to a bank account.';
  }

  const read = readProfileChanges(changes);
  const errors = formErrorsOf(read.ok ? [] : read.problems, own);
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, changes };
}
