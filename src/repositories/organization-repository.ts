import { sql, type Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { prepareQuery } from '../db/prepared-query.js';
import { modeColumn, type Owner } from '../services/scope.js';

export type OrganizationRow = OrganizationsTable;

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

  // The identity lookups a received document's seller is matched by (migration 0016 indexes
  // each). Several organizations may share an identity: the one not archived, then the oldest.

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

  /** By electronic address (BT-49): its EAS scheme and identifier, each as any of the spellings given. */
  async findByElectronicAddress(owner: Owner, scheme: string, identifiers: string[], trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    if (identifiers.length === 0) return undefined;
    return this.identified(owner, trx).where('electronic_address_id', 'in', identifiers).where('electronic_address_scheme', '=', scheme).executeTakeFirst();
  }

  /** By name, as names are compared for uniqueness (organizationNameKey). */
  async findByNameKey(owner: Owner, nameKey: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx).where('name_key', '=', nameKey).executeTakeFirst();
  }

  /** By VAT id (BT-48), as any of the spellings given. */
  async findByVatId(owner: Owner, vatIds: string[], trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    if (vatIds.length === 0) return undefined;
    return this.identified(owner, trx).where('vat_id', 'in', vatIds).executeTakeFirst();
  }

  /** By legal registration id (BT-47), as any of the spellings given ("0106:12345678" and "12345678"). */
  async findByLegalRegistrationId(owner: Owner, ids: string[], trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    if (ids.length === 0) return undefined;
    return this.identified(owner, trx).where('legal_registration_id', 'in', ids).executeTakeFirst();
  }
}
