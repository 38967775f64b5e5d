import type { Kysely } from 'kysely';
import type { Database, IdempotencyRecordsTable } from '../db/schema.js';
import { modeColumn } from '../db/scope.js';

export type IdempotencyRow = IdempotencyRecordsTable;

/** Which record: a company's key, in the mode of the key that sent it. */
export interface RecordId {
  companyId: string;
  livemode: boolean;
  key: string;
}

/** The idempotency records; every statement names the company and the mode. */
export class IdempotencyRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private where<Q extends { where: (...args: never[]) => Q }>(query: Q, id: RecordId): Q {
    const q = query as unknown as {
      where(column: string, op: string, value: unknown): typeof q;
    };
    return q
      .where('company_id', '=', id.companyId)
      .where('livemode', '=', modeColumn(id))
      .where('idempotency_key', '=', id.key) as unknown as Q;
  }

  /** Inserts the running marker unless the company already has a record for the key in this mode. */
  async claim(row: IdempotencyRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('idempotency_records')
      .values(row)
      .onConflict((oc) => oc.columns(['company_id', 'livemode', 'idempotency_key']).doNothing())
      .returning('owner_token')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  async find(id: RecordId): Promise<IdempotencyRow | undefined> {
    return this.where(this.db.selectFrom('idempotency_records').selectAll(), id).executeTakeFirst();
  }

  /** Takes a stale running marker over from its (crashed) owner; false when someone else was quicker. */
  async takeOver(id: RecordId, fromToken: string, toToken: string, at: string): Promise<boolean> {
    const result = await this.where(
      this.db.updateTable('idempotency_records').set({ owner_token: toToken, locked_at: at }),
      id,
    )
      .where('state', '=', 'running')
      .where('owner_token', '=', fromToken)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores the answer; in `trx` when it must commit (or roll back) with the resource. */
  async complete(
    id: RecordId,
    token: string,
    answer: { status: number; bodyText: string },
    trx: Kysely<Database> = this.db,
  ): Promise<boolean> {
    const result = await this.where(
      trx
        .updateTable('idempotency_records')
        .set({ state: 'done', status_code: answer.status, response_body: answer.bodyText }),
      id,
    )
      .where('owner_token', '=', token)
      .where('state', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Removes the owner's running marker, so that a retry runs afresh. */
  async release(id: RecordId, token: string): Promise<void> {
    await this.where(this.db.deleteFrom('idempotency_records'), id)
      .where('owner_token', '=', token)
      .where('state', '=', 'running')
      .execute();
  }

  async deleteIfExpired(id: RecordId, now: string): Promise<void> {
    await this.where(this.db.deleteFrom('idempotency_records'), id).where('expires_at', '<=', now).execute();
  }

  async deleteExpired(now: string): Promise<number> {
    const result = await this.db.deleteFrom('idempotency_records').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
