import type { Static } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import type { OrganizationRepository, OrganizationRow } from '../repositories/organization-repository.js';
import type { CreateOrganizationInput, OrganizationSchema } from '../schemas/organization.js';
import { organizationNameKey } from './organization-rules.js';

export type Organization = Static<typeof OrganizationSchema>;

export type CreateOrganizationResult = { ok: true; value: Organization } | { ok: false; code: 'NAME_CONFLICT' };

function optional(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export function organizationFromRow(row: OrganizationRow): Organization {
  const hasAddress = [
    row.address_line1,
    row.address_line2,
    row.address_city,
    row.address_postal_code,
    row.address_country_code,
  ].some((v) => v !== null);
  return {
    id: row.id,
    name: row.name,
    typeCode: row.type_code as 'F' | 'P',
    firstName: row.first_name,
    lastName: row.last_name,
    isCustomer: row.is_customer === 1,
    isSupplier: row.is_supplier === 1,
    email: row.email,
    phone: row.phone,
    vatId: row.vat_id,
    taxNumber: row.tax_number,
    address: hasAddress
      ? {
          line1: row.address_line1,
          line2: row.address_line2,
          city: row.address_city,
          postalCode: row.address_postal_code,
          countryCode: row.address_country_code,
        }
      : null,
    createdAt: row.created_at,
  };
}

export class OrganizationService {
  constructor(private readonly organizations: OrganizationRepository) {}

  /**
   * Expects input that passed the spec rules and the schema; uniqueness is left to the database.
   * With `trx` the insert is part of the caller's transaction (an idempotent request's).
   */
  async create(
    companyId: string,
    input: CreateOrganizationInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<CreateOrganizationResult> {
    const name = input.name.trim().normalize('NFC');
    const address = input.address ?? null;
    const row: OrganizationRow = {
      id: newId('org'),
      company_id: companyId,
      name,
      name_key: organizationNameKey(name),
      type_code: input.typeCode ?? 'P',
      first_name: optional(input.firstName),
      last_name: optional(input.lastName),
      is_customer: input.isCustomer === true ? 1 : 0,
      is_supplier: input.isSupplier === true ? 1 : 0,
      email: optional(input.email),
      phone: optional(input.phone),
      vat_id: optional(input.vatId),
      tax_number: optional(input.taxNumber),
      address_line1: optional(address?.line1),
      address_line2: optional(address?.line2),
      address_city: optional(address?.city),
      address_postal_code: optional(address?.postalCode),
      address_country_code: optional(address?.countryCode),
      created_at: now.toISOString(),
    };
    const inserted = await this.organizations.insert(row, trx);
    if (!inserted.ok) return { ok: false, code: 'NAME_CONFLICT' };
    return { ok: true, value: organizationFromRow(row) };
  }
}
