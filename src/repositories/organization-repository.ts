import type { Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { prepareQuery } from '../db/prepared-query.js';
import { modeColumn, type Owner } from '../db/scope.js';

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
}
