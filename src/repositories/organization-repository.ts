import { sql, type Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { prepareQuery } from '../db/prepared-query.js';
import { modeColumn, type Owner } from '../db/scope.js';

export type OrganizationRow = OrganizationsTable;

/** An identifier as it is compared: without spaces, dots, dashes and slashes, upper-cased ("de 811.907-980" → "DE811907980"). */
export function identityKey(identifier: string): string {
  return identifier.replace(/[ .\-/]/g, '').toUpperCase();
}

/**
 * The same key computed by the database, in exactly the form migration 0016 indexes (an
 * expression index is used only for the very expression it was made of). ASCII upper-casing is
 * the same on both databases; identifiers are ASCII.
 */
const keyOf = (column: 'vat_id' | 'electronic_address_id' | 'legal_registration_id') =>
  sql<string>`upper(replace(replace(replace(replace(${sql.ref(column)}, ' ', ''), '.', ''), '-', ''), '/', ''))`;

export type UpdateOrganizationResult = { ok: true } | { ok: false; reason: 'name_conflict' | 'not_found' };

export class OrganizationRepository {
  private readonly selectById;

  constructor(private readonly db: Kysely<Database>) {
    this.selectById = prepareQuery<{ companyId: string; livemode: number; id: string }, OrganizationRow>(db, (d, param) =>
      d
        .selectFrom('organizations')
        .selectAll()
        .where('company_id', '=', param('companyId'))
        .where('livemode', '=', param('livemode'))
        .where('id', '=', param('id')),
    );
  }

  /** Writes the row's content; the unique index on (company_id, livemode, name_key) decides a rename's conflict. */
  async update(row: OrganizationRow, trx: Kysely<Database> = this.db): Promise<UpdateOrganizationResult> {
    const { id, company_id: companyId, livemode, created_at: _created, ...columns } = row;
    try {
      const result = await trx
        .updateTable('organizations')
        .set(columns)
        .where('company_id', '=', companyId)
        .where('livemode', '=', livemode)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? { ok: true } : { ok: false, reason: 'not_found' };
    } catch (error) {
      // On PostgreSQL the transaction is now aborted: the caller answers 409 and rolls it back.
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_conflict' };
      throw error;
    }
  }

  async findById(owner: Owner, id: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return (await this.selectById({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx)).rows[0];
  }

  // The identity lookups a received document's seller is matched by. Identifiers are compared as
  // keys (identityKey): migration 0016 indexes exactly these expressions. Several organizations
  // may share an identity: the one not archived, then the oldest.

  private identified(owner: Owner, trx: Kysely<Database>) {
    return trx
      .selectFrom('organizations')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .orderBy(sql`case when archived_at is null then 0 else 1 end`)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1);
  }

  /** By electronic address (BT-49): its EAS scheme, and its identifier as a key. */
  async findByElectronicAddress(owner: Owner, scheme: string, identifier: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx).where('electronic_address_scheme', '=', scheme).where(keyOf('electronic_address_id'), '=', identityKey(identifier)).executeTakeFirst();
  }

  /** By name, as names are compared for uniqueness (organizationNameKey). */
  async findByNameKey(owner: Owner, nameKey: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx).where('name_key', '=', nameKey).executeTakeFirst();
  }

  /** By VAT id (BT-48), as a key. */
  async findByVatId(owner: Owner, vatId: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx).where(keyOf('vat_id'), '=', identityKey(vatId)).executeTakeFirst();
  }

  /** By legal registration id (BT-47), as keys: any of the forms given ("0106:12345678" and "12345678"). */
  async findByLegalRegistrationId(owner: Owner, ids: string[], trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    if (ids.length === 0) return undefined;
    return this.identified(owner, trx).where(keyOf('legal_registration_id'), 'in', ids.map(identityKey)).executeTakeFirst();
  }
}
