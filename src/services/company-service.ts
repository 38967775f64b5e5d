import { newId } from '../lib/ids.js';
import { isKnownCurrency } from '../money/currency.js';
import type { CompanyRepository, CompanyRow } from '../repositories/company-repository.js';

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

export type CreateCompanyResult = { ok: true; value: Company } | { ok: false; detail: string };

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

export class CompanyService {
  constructor(private readonly companies: CompanyRepository) {}

  async create(input: CreateCompanyInput, now: Date = new Date()): Promise<CreateCompanyResult> {
    const name = input.name.trim();
    if (name === '' || name.length > 200) return { ok: false, detail: 'The company name must be 1 to 200 characters.' };
    const currency = (input.currency ?? 'EUR').trim().toUpperCase();
    if (!isCurrencyCode(currency)) return { ok: false, detail: `Unknown ISO 4217 currency code: ${input.currency}` };
    const countryCode = input.countryCode?.trim().toUpperCase() || null;
    if (countryCode !== null && !/^[A-Z]{2}$/.test(countryCode)) {
      return { ok: false, detail: 'The country must be an ISO 3166-1 alpha-2 code such as DE.' };
    }
    const row: CompanyRow = {
      id: newId('cmp'),
      name,
      currency,
      vat_id: input.vatId?.trim() || null,
      country_code: countryCode,
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
