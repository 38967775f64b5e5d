import type { Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { prepareQuery, preparedInsert } from '../db/prepared-query.js';

export type OrganizationRow = OrganizationsTable;

export type InsertOrganizationResult = { ok: true } | { ok: false; reason: 'name_conflict' };

export class OrganizationRepository {
  private readonly insertRows;
  private readonly selectById;

  constructor(private readonly db: Kysely<Database>) {
    this.insertRows = preparedInsert(db, 'organizations');
    this.selectById = prepareQuery<{ companyId: string; id: string }, OrganizationRow>(db, (d, param) =>
      d.selectFrom('organizations').selectAll().where('company_id', '=', param('companyId')).where('id', '=', param('id')),
    );
  }

  /** Inserts the row; the unique index on (company_id, name_key) decides name conflicts. */
  async insert(row: OrganizationRow, trx: Kysely<Database> = this.db): Promise<InsertOrganizationResult> {
    try {
      await this.insertRows([row], trx);
      return { ok: true };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_conflict' };
      throw error;
    }
  }

  async findById(companyId: string, id: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return (await this.selectById({ companyId, id }, trx)).rows[0];
  }
}
