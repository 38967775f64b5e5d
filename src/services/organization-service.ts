import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { inTransaction, writeUnlessTaken } from '../db/transactions.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { newId } from '../lib/ids.js';
import type { OrganizationRepository, OrganizationRow } from '../repositories/organization-repository.js';
import type { CreateOrganizationInput, Organization, UpdateOrganizationInput } from '../schemas/organization.js';
import { organizationNameKey } from './organization-rules.js';
import { modeColumn, type Scope } from '../db/scope.js';

export type { Organization };

export type CreateOrganizationResult = { ok: true; value: Organization } | { ok: false; code: 'NAME_CONFLICT' };

export type UpdateOrganizationResult =
  { ok: true; value: Organization } | { ok: false; code: 'NAME_CONFLICT' | 'NOT_FOUND' };

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
    livemode: row.livemode === 1,
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
    electronicAddress:
      row.electronic_address_scheme && row.electronic_address_id
        ? { scheme: row.electronic_address_scheme, identifier: row.electronic_address_id }
        : null,
    legalRegistrationId: row.legal_registration_id ?? null,
    archived: row.archived_at !== null,
    createdAt: row.created_at,
  };
}

/**
 * The body an organization would have been created with: what a PATCH is merged into, so that
 * the spec's rules can be checked on the result.
 */
export function createBodyOf(row: OrganizationRow): CreateOrganizationInput {
  const organization = organizationFromRow(row);
  return {
    name: organization.name,
    typeCode: organization.typeCode,
    firstName: organization.firstName,
    lastName: organization.lastName,
    isCustomer: organization.isCustomer,
    isSupplier: organization.isSupplier,
    email: organization.email,
    phone: organization.phone,
    vatId: organization.vatId,
    taxNumber: organization.taxNumber,
    address: organization.address,
    electronicAddress: organization.electronicAddress,
    legalRegistrationId: organization.legalRegistrationId,
  };
}

/** A stored organization merged with a PATCH body: sent fields replace, null clears, the address merges field by field. */
export function mergeOrganization(row: OrganizationRow, patch: UpdateOrganizationInput): Record<string, unknown> {
  const stored = createBodyOf(row);
  const { archived: _archived, address, ...fields } = patch;
  const merged: Record<string, unknown> = { ...stored, ...fields };
  if (address !== undefined) merged.address = address === null ? null : { ...(stored.address ?? {}), ...address };
  return merged;
}

/** The columns of an organization's content, from a body that passed the rules and the schema. */
function columnsOf(input: CreateOrganizationInput) {
  const name = input.name.trim().normalize('NFC');
  const address = input.address ?? null;
  return {
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
    electronic_address_scheme: input.electronicAddress?.scheme ?? null,
    electronic_address_id: optional(input.electronicAddress?.identifier),
    legal_registration_id: optional(input.legalRegistrationId),
  };
}

export class OrganizationService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly organizations: OrganizationRepository,
    private readonly events: EventRecorder,
  ) {}

  /**
   * Expects input that passed the spec rules and the schema; uniqueness is left to the database.
   * With `trx` the insert is part of the caller's transaction (an idempotent request's).
   */
  async create(
    scope: Scope,
    input: CreateOrganizationInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<CreateOrganizationResult> {
    const row: OrganizationRow = {
      id: newId('org'),
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      ...columnsOf(input),
      archived_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const organization = organizationFromRow(row);
    // The row, its event and its outbox row together (on PostgreSQL one statement, one round trip).
    try {
      await this.events.recordWithInsert(
        trx ?? this.db,
        { table: 'organizations', row },
        scope,
        'organization.created',
        organization,
        now,
      );
    } catch (error) {
      // The unique index on (company_id, livemode, name_key) decides name conflicts.
      if (isUniqueViolation(error)) return { ok: false, code: 'NAME_CONFLICT' };
      throw error;
    }
    return { ok: true, value: organization };
  }

  /**
   * Creates inside the caller's transaction `t`, which stays usable when the name is taken (the
   * insert runs in a savepoint): for changes that go on after a NAME_CONFLICT (receiving a
   * document creates its supplier, and tries another name).
   */
  async createInTransaction(
    scope: Scope,
    input: CreateOrganizationInput,
    now: Date,
    t: Kysely<Database>,
  ): Promise<CreateOrganizationResult> {
    const row: OrganizationRow = {
      id: newId('org'),
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      ...columnsOf(input),
      archived_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    const organization = organizationFromRow(row);
    const written = await writeUnlessTaken(t, async () => {
      await this.events.recordWithInsert(
        t,
        { table: 'organizations', row },
        scope,
        'organization.created',
        organization,
        now,
      );
    });
    return written ? { ok: true, value: organization } : { ok: false, code: 'NAME_CONFLICT' };
  }

  /** Marks an organization as a supplier too (a customer that sent us an invoice), with its event. */
  async markSupplier(scope: Scope, row: OrganizationRow, now: Date, t: Kysely<Database>): Promise<OrganizationRow> {
    if (row.is_supplier === 1) return row;
    const next: OrganizationRow = { ...row, is_supplier: 1, updated_at: now.toISOString() };
    const updated = await this.organizations.update(next, t);
    if (!updated.ok) return row;
    await this.events.record(t, scope, 'organization.updated', organizationFromRow(next), now);
    return next;
  }

  /**
   * Applies a PATCH whose merged result passed the spec's rules and the schema: content, and
   * archiving. A rename onto another organization's name is refused by the unique index.
   */
  async update(
    scope: Scope,
    id: string,
    patch: UpdateOrganizationInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<UpdateOrganizationResult> {
    return inTransaction(this.db, trx, async (t) => {
      const row = await this.organizations.findById(scope, id, t);
      if (!row) return { ok: false, code: 'NOT_FOUND' };
      const merged = mergeOrganization(row, patch) as CreateOrganizationInput;
      const archivedAt =
        patch.archived === undefined ? row.archived_at : patch.archived ? (row.archived_at ?? now.toISOString()) : null;
      const next: OrganizationRow = {
        ...row,
        ...columnsOf(merged),
        archived_at: archivedAt,
        updated_at: now.toISOString(),
      };
      const updated = await this.organizations.update(next, t);
      if (!updated.ok) return { ok: false, code: updated.reason === 'name_conflict' ? 'NAME_CONFLICT' : 'NOT_FOUND' };
      const organization = organizationFromRow(next);
      await this.events.record(t, scope, 'organization.updated', organization, now);
      return { ok: true, value: organization };
    });
  }
}
