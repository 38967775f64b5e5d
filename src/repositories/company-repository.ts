import type { Kysely } from 'kysely';
import type { CompaniesTable, Database } from '../db/schema.js';

export type CompanyRow = CompaniesTable;

export class CompanyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: CompanyRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('companies').values(row).execute();
  }

  async findById(id: string, trx: Kysely<Database> = this.db): Promise<CompanyRow | undefined> {
    return trx.selectFrom('companies').selectAll().where('id', '=', id).executeTakeFirst();
  }
}
