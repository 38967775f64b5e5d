import { sql, type Kysely } from 'kysely';
import { prepareQuery } from '../db/prepared-query.js';
import type { CompaniesTable, CompanyEventsTable, Database } from '../db/schema.js';

export type CompanyRow = CompaniesTable;
export type CompanyEventRow = CompanyEventsTable;

export class CompanyRepository {
  private readonly selectById;

  constructor(private readonly db: Kysely<Database>) {
    this.selectById = prepareQuery<{ id: string }, CompanyRow>(db, (d, param) =>
      d.selectFrom('companies').selectAll().where('id', '=', param('id')),
    );
  }

  async insert(row: CompanyRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('companies').values(row).execute();
  }

  async findById(id: string, trx: Kysely<Database> = this.db): Promise<CompanyRow | undefined> {
    return (await this.selectById({ id }, trx)).rows[0];
  }

  /** Writes profile columns and when they changed. */
  async updateProfile(
    id: string,
    columns: Partial<Omit<CompanyRow, 'id' | 'created_at'>>,
    trx: Kysely<Database> = this.db,
  ): Promise<void> {
    await trx.updateTable('companies').set(columns).where('id', '=', id).execute();
  }

  /** Records a profile change: which fields, before and after, who, when. */
  async insertProfileEvent(row: CompanyEventRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('company_events').values(row).execute();
  }

  /** The profile's latest changes, newest first. */
  async profileEvents(companyId: string, limit: number, trx: Kysely<Database> = this.db): Promise<CompanyEventRow[]> {
    return trx
      .selectFrom('company_events')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Makes changes of one company's users take turns until `trx` ends: a transaction alone does
   * not serialize a count on PostgreSQL (READ COMMITTED). A no-op write locks the company's row,
   * the same on SQLite.
   */
  async lock(id: string, trx: Kysely<Database>): Promise<void> {
    await trx
      .updateTable('companies')
      .set({ name: sql<string>`name` })
      .where('id', '=', id)
      .execute();
  }

  /** Every company of the instance, oldest first: for the operator (`invoicing company list`). */
  async listAll(): Promise<CompanyRow[]> {
    return this.db.selectFrom('companies').selectAll().orderBy('created_at').orderBy('id').execute();
  }
}
