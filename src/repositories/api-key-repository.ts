import type { Kysely } from 'kysely';
import type { ApiKeyEventsTable, ApiKeysTable, Database } from '../db/schema.js';

export type ApiKeyRow = ApiKeysTable;
export type ApiKeyEventRow = ApiKeyEventsTable;

// Every write takes an optional transaction, so that a change and its event commit together.
export class ApiKeyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: ApiKeyRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('api_keys').values(row).execute();
  }

  async findByLookupPrefix(lookupPrefix: string): Promise<ApiKeyRow | undefined> {
    return this.db.selectFrom('api_keys').selectAll().where('lookup_prefix', '=', lookupPrefix).executeTakeFirst();
  }

  async findById(id: string, trx: Kysely<Database> = this.db): Promise<ApiKeyRow | undefined> {
    return trx.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
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
  async revoke(id: string, at: string, trx: Kysely<Database> = this.db): Promise<boolean> {
    const result = await trx
      .updateTable('api_keys')
      .set({ revoked_at: at })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Marks a key as replaced by its successor and shortens its life to `expiresAt` (revoking it
   * too when `revokedAt` is given). Only a key that is neither revoked, expired at `now`, nor
   * rolled before is changed: false otherwise, so of two concurrent rolls one wins.
   */
  async markRolled(
    id: string,
    change: { successorId: string; expiresAt: string; revokedAt: string | null },
    now: string,
    trx: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('api_keys')
      .set({ replaced_by: change.successorId, expires_at: change.expiresAt, revoked_at: change.revokedAt })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('replaced_by', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async rename(id: string, name: string, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.updateTable('api_keys').set({ name }).where('id', '=', id).execute();
  }

  async touchLastUsed(id: string, at: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** The company's latest key events, newest first. */
  async recentEvents(companyId: string, limit: number): Promise<ApiKeyEventRow[]> {
    return this.db
      .selectFrom('api_key_events')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  async insertEvent(row: ApiKeyEventRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('api_key_events').values(row).execute();
  }
}
