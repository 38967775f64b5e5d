import type { Kysely } from 'kysely';
import type { ApiKeysTable, Database } from '../db/schema.js';

export type ApiKeyRow = ApiKeysTable;

export class ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ApiKeyRow): Promise<void> {
    await this.db.insertInto('api_keys').values(row).execute();
  }

  async findByLookupPrefix(lookupPrefix: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('lookup_prefix', '=', lookupPrefix).executeTakeFirst();
  }

  async findById(id: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async listByCompany(companyId: string): Promise<ApiKeyRow[]> {
    return this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /** Sets revoked_at once; returns false when the key does not exist or was already revoked. */
  async revoke(id: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async touchLastUsed(id: string, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }
}
