import type { Kysely, Selectable } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type { Database, EmailDeliveriesTable } from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';

export type EmailDeliveryRow = Selectable<EmailDeliveriesTable>;

export interface Attachment {
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

/** What an attempt ended in: the relay took it, another attempt follows (retryAt), or none does. */
export type AttemptResult =
  | { kind: 'sent'; at: Date; smtpResponse: string; attachments: Attachment[] }
  | {
      kind: 'retry';
      at: Date;
      retryAt: Date;
      reason: string;
      smtpResponse: string | null;
      attachments: Attachment[] | null;
    }
  | { kind: 'failed'; at: Date; reason: string; smtpResponse: string | null; attachments: Attachment[] | null };

/** Email delivery rows: queued in a request's transaction, leased by workers, each attempt's end recorded. */
export class EmailDeliveryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: EmailDeliveriesTable, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('email_deliveries').values(row).execute();
  }

  async findById(owner: Owner, id: string): Promise<EmailDeliveryRow | undefined> {
    return this.db
      .selectFrom('email_deliveries')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A document's messages, newest first (at most `limit`). */
  async listForDocument(
    owner: Owner,
    documentId: string,
    limit = 50,
    trx: Kysely<Database> = this.db,
  ): Promise<EmailDeliveryRow[]> {
    return trx
      .selectFrom('email_deliveries')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('document_id', '=', documentId)
      .where('livemode', '=', modeColumn(owner))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Leases due queued messages, the earliest due first, exactly as webhook deliveries are leased
   * (Dialect.leaseDeliveries): candidates read without a lock, then those still free leased so
   * that instances leasing at once take different rows.
   */
  async lease(request: { owner: string; now: Date; leaseMs: number; limit: number }): Promise<EmailDeliveryRow[]> {
    const now = request.now.toISOString();
    const candidates = await this.db
      .selectFrom('email_deliveries')
      .select('id')
      .where('status', '=', 'queued')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]))
      .orderBy('next_attempt_at')
      .orderBy('id')
      .limit(request.limit)
      .execute();
    if (candidates.length === 0) return [];
    const until = new Date(request.now.getTime() + request.leaseMs).toISOString();
    const ids = await this.dialect.leaseDeliveries(
      this.db,
      'email_deliveries',
      candidates.map((row) => row.id),
      (eb) =>
        eb.and([
          eb('status', '=', 'queued'),
          eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]),
        ]),
      { lease_owner: request.owner, lease_expires_at: until },
    );
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('email_deliveries')
      .selectAll()
      .where('id', 'in', ids)
      .where('lease_owner', '=', request.owner)
      .execute();
  }

  /**
   * Records how an attempt ended, in `t` (with its event), if this worker still holds the lease:
   * false when it no longer does (it ran out and another worker took the message).
   */
  async recordAttempt(t: Kysely<Database>, id: string, owner: string, result: AttemptResult): Promise<boolean> {
    const at = result.at.toISOString();
    const status = result.kind === 'retry' ? 'queued' : result.kind;
    const updated = await t
      .updateTable('email_deliveries')
      .set((eb) => ({
        status,
        attempts: eb('attempts', '+', 1),
        smtp_response: result.smtpResponse,
        failure_reason: result.kind === 'sent' ? null : result.reason,
        ...(result.attachments ? { attachments: JSON.stringify(result.attachments) } : {}),
        next_attempt_at: result.kind === 'retry' ? result.retryAt.toISOString() : at,
        sent_at: result.kind === 'sent' ? at : null,
        lease_owner: null,
        lease_expires_at: null,
        updated_at: at,
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(updated.numUpdatedRows) === 1;
  }

  /** A message as its attempt left it, in the transaction that recorded the attempt (for its event). */
  async findRecorded(t: Kysely<Database>, id: string): Promise<EmailDeliveryRow | undefined> {
    return t.selectFrom('email_deliveries').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Gives leases back without an attempt (shutting down): the messages are due again at once. */
  async release(ids: readonly string[], owner: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('email_deliveries')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', 'in', [...ids])
      .where('lease_owner', '=', owner)
      .execute();
  }
}
