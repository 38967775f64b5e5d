import type { Kysely } from 'kysely';
import { prepareQuery } from '../db/prepared-query.js';
import type { CompaniesTable, Database } from '../db/schema.js';

export type CompanyRow = CompaniesTable;

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

  /** Every company of the instance, oldest first: for the operator (`invoicing company list`). */
  async listAll(): Promise<CompanyRow[]> {
    return this.db.selectFrom('companies').selectAll().orderBy('created_at').orderBy('id').execute();
  }
}
