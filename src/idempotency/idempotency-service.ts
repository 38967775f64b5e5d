import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { Sealer } from '../lib/sealer.js';
import { IdempotencyRepository, type RecordId } from './idempotency-repository.js';
import { modeColumn } from '../db/scope.js';
import { keptForRepeats, type ErrorCode } from '../errors/codes.js';

// Idempotency for creating requests, with the database as the store (so it holds across
// instances, on SQLite and PostgreSQL):
// 1. A `running` marker is inserted and committed on its own first, under the unique
//    (company_id, idempotency_key): a concurrent repeat finds it and is told to retry (409).
// 2. The work runs in a transaction; a success answer is written to the marker in that same
//    transaction, so the resource and its stored answer commit (or roll back) together.
// 3. A refusal the work decided (e.g. 409 NAME_CONFLICT) created nothing: the transaction is
//    rolled back and the answer stored. 400, 401, 403, 429 and 5xx are not stored: the marker is
//    removed, so a corrected retry runs. A thrown error rolls back and removes the marker too.
// 4. A marker whose owner died (process crash) is taken over once it is `staleAfterMs` old.
// 5. Records expire `ttlMs` after the first request: an expired one is replaced on use, and
//    purgeExpired (run on a timer) deletes them all.

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const STALE_AFTER_MS = 60_000;
export const CONFLICT_RETRY_AFTER_SECONDS = 1;

export interface IdempotencyScope extends RecordId {
  /** Digest of the operation and its body (see requestDigest). */
  digest: string;
  /** The answer holds a secret (a webhook signing secret): it is stored sealed, never in clear. */
  sealed?: boolean;
}

export interface Answer {
  status: number;
  body: unknown;
  /** A refusal's error code: the error table says whether repeats get it again (keptForRepeats). */
  code?: ErrorCode;
}

export type IdempotentOutcome =
  | { kind: 'ran'; answer: Answer }
  | { kind: 'replayed'; answer: Answer }
  | { kind: 'in-progress'; retryAfterSeconds: number }
  | { kind: 'key-reused' };

export interface IdempotencyOptions {
  ttlMs?: number;
  staleAfterMs?: number;
  clock?: () => Date;
  /** Seals the answers of scopes marked `sealed`; without it such scopes are refused. */
  sealer?: Sealer;
}

/** Thrown inside the transaction to roll back a refusal the work answered with. */
class Refusal extends Error {
  constructor(readonly answer: Answer) {
    super('refused');
  }
}

/** The marker was taken over (this request ran past staleAfterMs): roll back, create nothing. */
class LostOwnership extends Error {}

const MAX_ATTEMPTS = 5;

export class IdempotencyService {
  private readonly records: IdempotencyRepository;
  private readonly ttlMs: number;
  private readonly staleAfterMs: number;
  private readonly clock: () => Date;
  private readonly sealer: Sealer | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    options: IdempotencyOptions = {},
  ) {
    this.records = new IdempotencyRepository(db);
    this.ttlMs = options.ttlMs ?? IDEMPOTENCY_TTL_MS;
    this.staleAfterMs = options.staleAfterMs ?? STALE_AFTER_MS;
    this.clock = options.clock ?? (() => new Date());
    this.sealer = options.sealer;
  }

  /** The stored text of an answer: its JSON, sealed when the scope says so. */
  private stored(scope: IdempotencyScope, answer: Answer): { status: number; bodyText: string } {
    const json = JSON.stringify(answer.body);
    if (!scope.sealed) return { status: answer.status, bodyText: json };
    if (!this.sealer) throw new Error('An idempotent answer holding a secret needs a sealer');
    return { status: answer.status, bodyText: this.sealer.seal(json) };
  }

  private replayed(text: string): unknown {
    if (!Sealer.isSealed(text)) return JSON.parse(text) as unknown;
    if (!this.sealer) throw new Error('A sealed idempotent answer needs a sealer');
    return JSON.parse(this.sealer.open(text)) as unknown;
  }

  /**
   * Runs `work` once per company and key. `work` gets the transaction to do all its reads and
   * writes in, and returns the answer; a 2xx answer is stored in that transaction.
   */
  async run(scope: IdempotencyScope, work: (trx: Kysely<Database>) => Promise<Answer>): Promise<IdempotentOutcome> {
    const { companyId, livemode, key, digest } = scope;
    const id: RecordId = { companyId, livemode, key };
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const now = this.clock();
      const token = randomUUID();
      const claimed = await this.records.claim({
        company_id: companyId,
        livemode: modeColumn({ livemode }),
        idempotency_key: key,
        request_digest: digest,
        state: 'running',
        owner_token: token,
        locked_at: now.toISOString(),
        status_code: null,
        response_body: null,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + this.ttlMs).toISOString(),
      });
      if (claimed) return this.execute(scope, token, work);

      const existing = await this.records.find(id);
      if (!existing) continue; // released between our insert and our read: try again
      if (existing.expires_at <= now.toISOString()) {
        await this.records.deleteIfExpired(id, now.toISOString());
        continue;
      }
      if (existing.request_digest !== digest) return { kind: 'key-reused' };
      if (existing.state === 'done') {
        return {
          kind: 'replayed',
          answer: { status: existing.status_code!, body: this.replayed(existing.response_body!) },
        };
      }
      const staleBefore = new Date(now.getTime() - this.staleAfterMs).toISOString();
      if (existing.locked_at <= staleBefore) {
        if (await this.records.takeOver(id, existing.owner_token, token, now.toISOString())) {
          return this.execute(scope, token, work);
        }
        continue;
      }
      return { kind: 'in-progress', retryAfterSeconds: CONFLICT_RETRY_AFTER_SECONDS };
    }
    return { kind: 'in-progress', retryAfterSeconds: CONFLICT_RETRY_AFTER_SECONDS };
  }

  private async execute(
    scope: IdempotencyScope,
    token: string,
    work: (trx: Kysely<Database>) => Promise<Answer>,
  ): Promise<IdempotentOutcome> {
    const id: RecordId = { companyId: scope.companyId, livemode: scope.livemode, key: scope.key };
    try {
      const answer = await this.db.transaction().execute(async (trx) => {
        const result = await work(trx);
        if (result.status < 200 || result.status >= 300) throw new Refusal(result);
        // Stored with the resource: both commit, or neither does.
        if (!(await this.records.complete(id, token, this.stored(scope, result), trx))) throw new LostOwnership();
        return result;
      });
      return { kind: 'ran', answer };
    } catch (error) {
      if (error instanceof LostOwnership)
        return { kind: 'in-progress', retryAfterSeconds: CONFLICT_RETRY_AFTER_SECONDS };
      if (error instanceof Refusal) {
        // Rolled back: the refusal created nothing, so it is stored on its own.
        // Kept when the error table calls its code final; a refusal a corrected or later retry
        // should get past (or one without a code) leaves the key free.
        if (error.answer.code !== undefined && keptForRepeats(error.answer.code))
          await this.records.complete(id, token, this.stored(scope, error.answer));
        else await this.records.release(id, token);
        return { kind: 'ran', answer: error.answer };
      }
      // A failure (5xx): nothing is stored. Should the release fail too, the marker turns stale
      // and the next retry takes it over.
      await this.records.release(id, token).catch(() => {});
      throw error;
    }
  }

  /** Deletes every expired record; returns how many. */
  async purgeExpired(): Promise<number> {
    return this.records.deleteExpired(this.clock().toISOString());
  }
}
