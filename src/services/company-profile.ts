import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import { isCountryCode } from '../documents/identifiers.js';
import { EAS } from '../documents/schemes.js';
import { checkVatId } from '../documents/vat-ids.js';
import { newId } from '../lib/ids.js';
import type { CompanyRepository, CompanyRow } from '../repositories/company-repository.js';
import { PROFILE_LIMITS, type Company, type ProfileChanges, type ProfileField } from '../schemas/company.js';
import { BIC, normalizeIban } from './invoice-input.js';

// The seller profile: what a company's invoices say about the seller (EN 16931 BG-4) and where
// they are paid. Set from the CLI, the panel and PATCH /company, all through `update`, which is
// the one validation of a change; every change is recorded with who made it and what each field
// was before, since a changed IBAN is the classic invoice-redirection fraud. Issued documents keep
// the snapshot taken when they were issued.

type Columns = Partial<Pick<CompanyRow, Exclude<keyof CompanyRow, 'id' | 'name' | 'currency' | 'created_at'>>>;

export interface ProfileProblem {
  field: ProfileField;
  /** too_long, invalid_vat_id, invalid_iban, …: the API's detail code. */
  code: string;
  message: string;
}

export type UpdateProfileResult =
  | { ok: true; value: Company }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'invalid'; problems: ProfileProblem[] };

export interface Actor {
  userId: string | null;
  /** Who, as the audit list shows it: an email, "cli", or "API key <prefix>". */
  label: string;
}

const COLUMN_OF: Record<Exclude<ProfileField, 'electronicAddress'>, keyof Columns> = {
  legalName: 'legal_name',
  line1: 'address_line1',
  line2: 'address_line2',
  city: 'address_city',
  postalCode: 'address_postal_code',
  countryCode: 'country_code',
  vatId: 'vat_id',
  taxNumber: 'tax_number',
  legalRegistrationId: 'legal_registration_id',
  contactName: 'contact_name',
  contactPhone: 'contact_phone',
  contactEmail: 'contact_email',
  iban: 'iban',
  bic: 'bic',
  accountName: 'account_name',
  paymentTerms: 'payment_terms',
  creditorId: 'creditor_id',
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function companyFromRow(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    legalName: row.legal_name ?? null,
    currency: row.currency,
    address: {
      line1: row.address_line1 ?? null,
      line2: row.address_line2 ?? null,
      city: row.address_city ?? null,
      postalCode: row.address_postal_code ?? null,
      countryCode: row.country_code,
    },
    vatId: row.vat_id,
    taxNumber: row.tax_number ?? null,
    legalRegistrationId: row.legal_registration_id ?? null,
    electronicAddress:
      row.electronic_address_scheme && row.electronic_address_id
        ? { scheme: row.electronic_address_scheme, identifier: row.electronic_address_id }
        : null,
    contact: { name: row.contact_name ?? null, phone: row.contact_phone ?? null, email: row.contact_email ?? null },
    bankAccount: row.iban ? { iban: row.iban, bic: row.bic ?? null, accountName: row.account_name ?? null } : null,
    paymentTerms: row.payment_terms ?? null,
    creditorId: row.creditor_id ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at ?? null,
  };
}

/** The columns a change sets, or every problem it has (IBAN checksum, country code, EAS scheme, …). */
export function readProfileChanges(
  changes: ProfileChanges,
): { ok: true; columns: Columns } | { ok: false; problems: ProfileProblem[] } {
  const problems: ProfileProblem[] = [];
  const columns: Columns = {};
  for (const [field, raw] of Object.entries(changes) as [ProfileField, string | null | undefined][]) {
    if (raw === undefined) continue;
    const value = raw === null ? null : raw.trim() === '' ? null : raw.trim();
    const limit = PROFILE_LIMITS[field];
    if (value !== null && limit !== undefined && value.length > limit) {
      problems.push({ field, code: 'too_long', message: `At most ${limit} characters.` });
      continue;
    }
    if (field === 'electronicAddress') {
      if (value === null) {
        Object.assign(columns, { electronic_address_scheme: null, electronic_address_id: null });
        continue;
      }
      const match = /^([^:]+):(.+)$/.exec(value);
      if (!match || !(match[1]! in EAS)) {
        problems.push({
          field,
          code: 'invalid_scheme',
          message:
            'Must be <scheme>:<identifier> with a scheme from the EAS code list, e.g. 0088:4000001123452 or 9930:DE123456789.',
        });
        continue;
      }
      Object.assign(columns, { electronic_address_scheme: match[1], electronic_address_id: match[2]!.trim() });
      continue;
    }
    let stored = value;
    if (value !== null) {
      if (field === 'countryCode') {
        stored = value.toUpperCase();
        if (!isCountryCode(stored))
          problems.push({
            field,
            code: 'invalid_country',
            message: 'Must be an ISO 3166-1 alpha-2 country code such as DE.',
          });
      } else if (field === 'vatId') {
        const checked = checkVatId(value);
        if (checked.ok) stored = checked.value;
        else problems.push({ field, code: 'invalid_vat_id', message: checked.message });
      } else if (field === 'iban') {
        stored = normalizeIban(value);
        if (stored === null)
          problems.push({ field, code: 'invalid_iban', message: 'Must be an IBAN with a valid checksum.' });
      } else if (field === 'bic') {
        stored = value.toUpperCase();
        if (!BIC.test(stored))
          problems.push({ field, code: 'invalid_bic', message: 'Must be a BIC of 8 or 11 characters.' });
      } else if (field === 'contactEmail' && !EMAIL.test(value)) {
        problems.push({ field, code: 'invalid_email', message: 'Must be an email address.' });
      }
    }
    columns[COLUMN_OF[field]] = stored;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, columns };
}

export class CompanyProfiles {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly companies: CompanyRepository,
  ) {}

  async get(companyId: string, trx: Kysely<Database> = this.db): Promise<Company | undefined> {
    const row = await this.companies.findById(companyId, trx);
    return row ? companyFromRow(row) : undefined;
  }

  /** Applies a validated change and records it (field, before, after, who, when) in one transaction. */
  async update(
    companyId: string,
    changes: ProfileChanges,
    actor: Actor,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<UpdateProfileResult> {
    const read = readProfileChanges(changes);
    if (!read.ok) return { ok: false, reason: 'invalid', problems: read.problems };
    return inTransaction(this.db, trx, async (t) => {
      const before = await this.companies.findById(companyId, t);
      if (!before) return { ok: false, reason: 'not_found' } as const;
      // The API shows a bank account only with its IBAN: a BIC or account name alone would vanish.
      const after = { ...before, ...read.columns };
      if (!after.iban && (after.bic || after.account_name)) {
        const problem: ProfileProblem = {
          field: 'iban',
          code: 'required',
          message: 'Set the IBAN: a BIC or account name belongs to a bank account.',
        };
        return { ok: false, reason: 'invalid', problems: [problem] } as const;
      }
      const changed = Object.fromEntries(
        Object.entries(read.columns)
          .filter(([column, value]) => (before[column as keyof CompanyRow] ?? null) !== value)
          .map(([column, value]) => [column, { from: before[column as keyof CompanyRow] ?? null, to: value }]),
      );
      if (Object.keys(changed).length === 0) return { ok: true, value: companyFromRow(before) } as const;
      const at = now.toISOString();
      await this.companies.updateProfile(companyId, { ...read.columns, updated_at: at }, t);
      await this.companies.insertProfileEvent(
        {
          id: newId('evt'),
          company_id: companyId,
          changes: JSON.stringify(changed),
          actor_user_id: actor.userId,
          actor_label: actor.label,
          at,
        },
        t,
      );
      return { ok: true, value: companyFromRow({ ...before, ...read.columns, updated_at: at }) } as const;
    });
  }

  /** The profile's change history, newest first. */
  async history(companyId: string, limit = 50, trx: Kysely<Database> = this.db) {
    const rows = await this.companies.profileEvents(companyId, limit, trx);
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor_label,
      changes: JSON.parse(row.changes) as Record<string, { from: string | null; to: string | null }>,
    }));
  }
}
