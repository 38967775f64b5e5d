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

type CompanyInput = Pick<CreateCompanyInput, 'name' | 'currency' | 'countryCode' | 'vatId'>;

/** A new company's name, currency, country and VAT id as stored, or every rule they break under its field. */
function readCompanyInput(input: CompanyInput) {
  const problems: CreateCompanyProblem[] = [];
  const name = input.name.trim();
  if (name === '' || name.length > MAX_COMPANY_NAME_LENGTH)
    problems.push({
      field: 'name',
      code: 'invalid_name',
      message: `The company name must be 1 to ${MAX_COMPANY_NAME_LENGTH} characters.`,
    });
  const currency = (input.currency ?? 'EUR').trim().toUpperCase();
  if (!isCurrencyCode(currency))
    problems.push({
      field: 'currency',
      code: 'unknown_currency',
      message: `Unknown ISO 4217 currency code: "${input.currency}". Use one such as EUR.`,
    });
  // The VAT id and the country pass the seller profile's own checks (each EU state's VAT id
  // format, the ISO 3166-1 list), with its messages: a company starts as `company update`,
  // the panel and PATCH /company would leave it.
  const profile = readProfileChanges({ countryCode: input.countryCode ?? null, vatId: input.vatId ?? null });
  if (!profile.ok)
    problems.push(
      ...profile.problems.map((p) => ({ field: p.field as 'vatId' | 'countryCode', code: p.code, message: p.message })),
    );
  if (!profile.ok || problems.length > 0) return { ok: false as const, problems };
  return {
    ok: true as const,
    name,
    currency,
    vatId: profile.columns.vat_id ?? null,
    countryCode: profile.columns.country_code ?? null,
  };
}

/**
 * Every rule a new company's name, currency, country and VAT id must meet, each broken one under
 * its field; empty when all hold. `create` holds a company to them, and the first-run setup form
 * shows these words next to its fields.
 */
export function companyInputProblems(input: CompanyInput): CreateCompanyProblem[] {
  const read = readCompanyInput(input);
  return read.ok ? [] : read.problems;
}

export class CompanyService {
  constructor(private readonly companies: CompanyRepository) {}

  async create(input: CreateCompanyInput, now: Date = new Date()): Promise<CreateCompanyResult> {
    const read = readCompanyInput(input);
    if (!read.ok) return { ok: false, problems: read.problems };
    const row: CompanyRow = {
      id: newId('cmp'),
      name: read.name,
      currency: read.currency,
      vat_id: read.vatId,
      country_code: read.countryCode,
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
