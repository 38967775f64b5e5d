import type { ErrorDetail } from '../errors/app-error.js';
import type { ProfileChanges, ProfileField, UpdateCompanyInput } from '../schemas/company.js';
import type { ProfileProblem } from './company-profile.js';

// PATCH /company's body is shaped like GET /company's answer (address, contact, bankAccount,
// electronicAddress as objects); the seller profile takes flat fields. This turns one into the
// other, and the profile's problems back into the body's field names. The values themselves are
// checked by the profile (company-profile.ts), as for the panel and the CLI.

/** Where each profile field is in the API's body. */
const API_FIELD: Record<ProfileField, string> = {
  legalName: 'legalName',
  line1: 'address.line1',
  line2: 'address.line2',
  city: 'address.city',
  postalCode: 'address.postalCode',
  countryCode: 'address.countryCode',
  vatId: 'vatId',
  taxNumber: 'taxNumber',
  legalRegistrationId: 'legalRegistrationId',
  electronicAddress: 'electronicAddress.scheme',
  contactName: 'contact.name',
  contactPhone: 'contact.phone',
  contactEmail: 'contact.email',
  iban: 'bankAccount.iban',
  bic: 'bankAccount.bic',
  accountName: 'bankAccount.accountName',
  paymentTerms: 'paymentTerms',
  creditorId: 'creditorId',
};

export type ReadCompanyChanges = { ok: true; changes: ProfileChanges } | { ok: false; details: ErrorDetail[] };

/**
 * The profile change a body asks for. The address and the contact are merged field by field; the
 * bank account is replaced as a whole (a BIC kept from another IBAN would name the wrong bank).
 */
export function profileChangesOf(body: UpdateCompanyInput): ReadCompanyChanges {
  const changes: ProfileChanges = {};
  const set = (field: ProfileField, value: string | null | undefined) => {
    if (value !== undefined) changes[field] = value;
  };
  set('legalName', body.legalName);
  set('line1', body.address?.line1);
  set('line2', body.address?.line2);
  set('city', body.address?.city);
  set('postalCode', body.address?.postalCode);
  set('countryCode', body.address?.countryCode);
  set('vatId', body.vatId);
  set('taxNumber', body.taxNumber);
  set('legalRegistrationId', body.legalRegistrationId);
  set('contactName', body.contact?.name);
  set('contactPhone', body.contact?.phone);
  set('contactEmail', body.contact?.email);
  set('paymentTerms', body.paymentTerms);
  set('creditorId', body.creditorId);
  if (body.bankAccount !== undefined) {
    changes.iban = body.bankAccount?.iban ?? null;
    changes.bic = body.bankAccount?.bic ?? null;
    changes.accountName = body.bankAccount?.accountName ?? null;
  }
  if (body.electronicAddress === null) changes.electronicAddress = null;
  else if (body.electronicAddress !== undefined) {
    const { scheme, identifier } = body.electronicAddress;
    const details: ErrorDetail[] = [];
    if (scheme.trim() === '' || scheme.includes(':'))
      details.push({
        field: 'electronicAddress.scheme',
        code: 'required',
        message: 'Give the EAS scheme of the identifier, e.g. 0088 or 9930.',
      });
    if (identifier.trim() === '')
      details.push({ field: 'electronicAddress.identifier', code: 'required', message: 'Give the identifier.' });
    if (details.length > 0) return { ok: false, details };
    changes.electronicAddress = `${scheme.trim()}:${identifier.trim()}`;
  }
  return { ok: true, changes };
}

/** The profile's problems under the body's field names. */
export function detailsOf(problems: ProfileProblem[]): ErrorDetail[] {
  return problems.map((p) =>
    p.field === 'electronicAddress'
      ? {
          field: API_FIELD.electronicAddress,
          code: 'invalid_scheme',
          message: 'Must be a scheme of the EAS code list, e.g. 0088 (GLN) or 9930 (German VAT id).',
        }
      : { field: API_FIELD[p.field], code: p.code, message: p.message },
  );
}
