import type { Kysely } from 'kysely';
import type { Database, IdempotencyKeysTable } from '../db/schema.js';

export type IdempotencyRow = IdempotencyKeysTable;

/** The idempotency records; every statement names the company. */
export class IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts the running marker unless the company already has a record for the key. */
  async claim(row: IdempotencyRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('idempotency_keys')
      .values(row)
      .onConflict((oc) => oc.columns(['company_id', 'idempotency_key']).doNothing())
      .returning('owner_token')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async find(companyId: string, key: string): Promise<IdempotencyRow | undefined> {
    return this.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }

  /** Takes a stale running marker over from its (crashed) owner; false when someone else was quicker. */
  async takeOver(companyId: string, key: string, fromToken: string, toToken: string, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('idempotency_keys')
      .set({ owner_token: toToken, locked_at: at })
      .where('company_id', '=', companyId)
      .where('idempotency_key', '=', key)
      .where('state', '=', 'running')
      .where('owner_token', '=', fromToken)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores the answer; in `trx` when it must commit (or roll back) with the resource. */
  async complete(
    companyId: string,
    key: string,
    token: string,
    answer: { status: number; bodyText: string },
    trx: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await trx
      .updateTable('idempotency_keys')
      .set({ state: 'done', status_code: answer.status, response_body: answer.bodyText })
      .where('company_id', '=', companyId)
      .where('idempotency_key', '=', key)
      .where('owner_token', '=', token)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Removes the owner's running marker, so that a retry runs afresh. */
  async release(companyId: string, key: string, token: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('company_id', '=', companyId)
      .where('idempotency_key', '=', key)
      .where('owner_token', '=', token)
      .where('state', '=', 'running')
      .execute();
  }

  async deleteIfExpired(companyId: string, key: string, now: string): Promise<void> {
    await this.db
      .deleteFrom('idempotency_keys')
      .where('company_id', '=', companyId)
      .where('idempotency_key', '=', key)
      .where('expires_at', '<=', now)
      .execute();
  }

  async deleteExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
