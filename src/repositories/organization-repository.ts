import type { Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';

export type OrganizationRow = OrganizationsTable;

export type InsertOrganizationResult = { ok: true } | { ok: false; reason: 'name_conflict' };

export class OrganizationRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the row; the unique index on (company_id, name_key) decides name conflicts. */
  async insert(row: OrganizationRow, trx: Kysely<Database> = this.db): Promise<InsertOrganizationResult> {
    try {
      await trx.insertInto('organizations').values(row).execute();
      return { ok: true };
    } catch (error) {
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_conflict' };
      throw error;
    }
  }

  async findById(companyId: string, id: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return trx
      .selectFrom('organizations')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .executeTakeFirst();
  }
}
