import { newId } from '../lib/ids.js';
import { isKnownCurrency } from '../money/currency.js';
import type { CompanyRepository, CompanyRow } from '../repositories/company-repository.js';
import { readProfileChanges } from './company-profile.js';

export interface Company {
  id: string;
  name: string;
  currency: string;
  vatId: string | null;
  countryCode: string | null;
  createdAt: string;
}

export interface CreateCompanyInput {
  name: string;
  currency?: string;
  vatId?: string | null;
  countryCode?: string | null;
}

export interface CreateCompanyProblem {
  field: 'name' | 'currency' | 'vatId' | 'countryCode';
  code: string;
  message: string;
}

export type CreateCompanyResult = { ok: true; value: Company } | { ok: false; problems: CreateCompanyProblem[] };

/** ISO 4217 codes as the platform (Intl) knows them: the one check, shared with invoices. */
export const isCurrencyCode = isKnownCurrency;

function companyFromRow(row: CompanyRow): Company {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    vatId: row.vat_id,
    countryCode: row.country_code,
    createdAt: row.created_at,
  };
}

/** The longest company name, once trimmed. */
export const MAX_COMPANY_NAME_LENGTH = 200;

/** A company name is 1 to MAX_COMPANY_NAME_LENGTH characters once trimmed; null when it is fine. */
export function companyNameProblem(name: string): string | null {
  const trimmed = name.trim();
  return trimmed === '' || trimmed.length > MAX_COMPANY_NAME_LENGTH ? `The company name must be 1 to ${MAX_COMPANY_NAME_LENGTH} characters.` : null;
}

export class CompanyService {
  constructor(private readonly companies: CompanyRepository) {}

  async create(input: CreateCompanyInput, now: Date = new Date()): Promise<CreateCompanyResult> {
    const problems: CreateCompanyProblem[] = [];
    const name = input.name.trim();
    const nameProblem = companyNameProblem(name);
    if (nameProblem !== null) problems.push({ field: 'name', code: 'invalid_name', message: nameProblem });
    const currency = (input.currency ?? 'EUR').trim().toUpperCase();
    if (!isCurrencyCode(currency)) problems.push({ field: 'currency', code: 'unknown_currency', message: `Unknown ISO 4217 currency code: ${input.currency}` });
    // The VAT id and the country pass the seller profile's own checks (each EU state's VAT id
    // format, the ISO 3166-1 list), with its messages: a company starts as `company update`,
    // the panel and PATCH /company would leave it.
    const profile = readProfileChanges({ countryCode: input.countryCode ?? null, vatId: input.vatId ?? null });
    if (!profile.ok) problems.push(...profile.problems.map((p) => ({ field: p.field as 'vatId' | 'countryCode', code: p.code, message: p.message })));
    if (!profile.ok || problems.length > 0) return { ok: false, problems };
    const row: CompanyRow = {
      id: newId('cmp'),
      name,
      currency,
      vat_id: profile.columns.vat_id ?? null,
      country_code: profile.columns.country_code ?? null,
      created_at: now.toISOString(),
    };
    await this.companies.insert(row);
    return { ok: true, value: companyFromRow(row) };
  }

  async find(id: string): Promise<Company | undefined> {
    const row = await this.companies.findById(id);
    return row ? companyFromRow(row) : undefined;
  }

  async listAll(): Promise<Company[]> {
    return (await this.companies.listAll()).map(companyFromRow);
  }
}
