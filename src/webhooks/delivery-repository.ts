import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type { Database, EventsTable } from '../db/schema.js';
import { newId } from '../lib/ids.js';

/** A leased delivery with what its attempt needs: where, with which secrets, and what. */
export interface DeliveryJob {
  id: string;
  companyId: string;
  endpointId: string;
  eventId: string;
  /** Attempts made before this one. */
  attempts: number;
  url: string;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  event: { id: string; livemode: number; type: string; created_at: string; request_id: string | null; object: string };
}

export interface AttemptRecord {
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  succeeded: boolean;
  excerpt: string | null;
  error: string | null;
}

export interface LeaseRequest {
  owner: string;
  now: Date;
  leaseMs: number;
  limit: number;
  /** At most this many deliveries of one endpoint per lease. */
  perEndpoint: number;
  /** Endpoints that already have as many deliveries in flight here as they may. */
  busyEndpoints: readonly string[];
}

/** An event row to write (the panel's test event: written here with its one delivery, never through the outbox). */
export type NewEvent = EventsTable;

/** Delivery rows: leasing due ones (one worker per attempt, across instances) and recording attempts. */
export class DeliveryRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Leases due deliveries of enabled endpoints: at most `perEndpoint` per endpoint (the earliest
   * due), endpoint by endpoint through the (endpoint, status, due) index, so that one endpoint's
   * backlog neither takes every slot nor is scanned to find another's. Candidates are read
   * without a lock (a look that finds nothing writes nothing); then the dialect leases those still
   * free so that instances leasing at once take different rows (Dialect.leaseDeliveries: FOR UPDATE
   * SKIP LOCKED in one transaction on PostgreSQL, one conditional update on SQLite).
   */
  async lease(request: LeaseRequest): Promise<DeliveryJob[]> {
    const now = request.now.toISOString();
    const until = new Date(request.now.getTime() + request.leaseMs).toISOString();
    const notBusy =
      request.busyEndpoints.length === 0
        ? sql``
        : sql`and e.id not in (${sql.join(request.busyEndpoints.map((id) => sql`${id}`))})`;
    const candidates = await sql<{ id: string }>`
      select d.id from webhook_endpoints e
      join webhook_deliveries d on d.id in (
        select d2.id from webhook_deliveries d2
        where d2.endpoint_id = e.id and d2.status = 'pending' and d2.next_attempt_at <= ${now}
          and (d2.lease_expires_at is null or d2.lease_expires_at <= ${now})
        order by d2.next_attempt_at, d2.id
        limit ${request.perEndpoint}
      )
      where e.enabled = 1 ${notBusy}
      order by d.next_attempt_at, d.id
      limit ${request.limit}`.execute(this.db);
    const wanted = candidates.rows.map((row) => row.id);
    if (wanted.length === 0) return [];
    const free = (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
      eb.and([
        eb('status', '=', 'pending'),
        eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<=', now)]),
      ]);
    const ids = await this.dialect.leaseDeliveries(this.db, 'webhook_deliveries', wanted, free, {
      lease_owner: request.owner,
      lease_expires_at: until,
    });
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
      .innerJoin('events as ev', 'ev.id', 'd.event_id')
      .select([
        'd.id',
        'd.company_id',
        'd.endpoint_id',
        'd.event_id',
        'd.attempts',
        'e.url',
        'e.secret_sealed',
        'e.previous_secret_sealed',
        'e.previous_secret_expires_at',
        'ev.livemode',
        'ev.type',
        'ev.created_at',
        'ev.request_id',
        'ev.object',
      ])
      .where('d.id', 'in', ids)
      .where('d.lease_owner', '=', request.owner)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      companyId: row.company_id,
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      attempts: row.attempts,
      url: row.url,
      secretSealed: row.secret_sealed,
      previousSecretSealed: row.previous_secret_sealed,
      previousSecretExpiresAt: row.previous_secret_expires_at,
      event: {
        id: row.event_id,
        livemode: row.livemode,
        type: row.type,
        created_at: row.created_at,
        request_id: row.request_id,
        object: row.object,
      },
    }));
  }

  /**
   * Records an attempt and its consequence in one transaction: the delivery succeeds, waits for
   * its next attempt (`retryAt`), or fails for good (`retryAt` null); the endpoint's run of
   * failures starts or ends, and an endpoint failing since before `disableBefore` is disabled. A
   * delivery deleted meanwhile (with its endpoint) records nothing.
   */
  async recordAttempt(
    job: DeliveryJob,
    owner: string,
    attempt: AttemptRecord,
    retryAt: Date | null,
    disableBefore: Date,
  ): Promise<{ disabled: boolean }> {
    const at = attempt.attemptedAt;
    return this.db.transaction().execute(async (t) => {
      // Its endpoint deleted while the attempt was in flight: there is nothing left to record it on.
      if (!(await t.selectFrom('webhook_deliveries').select('id').where('id', '=', job.id).executeTakeFirst()))
        return { disabled: false };
      await t
        .insertInto('webhook_attempts')
        .values({
          id: newId('wha'),
          company_id: job.companyId,
          delivery_id: job.id,
          endpoint_id: job.endpointId,
          event_id: job.eventId,
          attempted_at: at,
          duration_ms: attempt.durationMs,
          status_code: attempt.statusCode,
          succeeded: attempt.succeeded ? 1 : 0,
          response_excerpt: attempt.excerpt,
          error: attempt.error,
        })
        .execute();
      const status = attempt.succeeded ? 'succeeded' : retryAt ? 'pending' : 'failed';
      await t
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status,
          attempts: eb('attempts', '+', 1),
          next_attempt_at: retryAt ? retryAt.toISOString() : at,
          lease_owner: null,
          lease_expires_at: null,
          updated_at: at,
        }))
        .where('id', '=', job.id)
        .where('lease_owner', '=', owner)
        .execute();
      if (attempt.succeeded) {
        await t
          .updateTable('webhook_endpoints')
          .set({ failing_since: null })
          .where('id', '=', job.endpointId)
          .where('failing_since', 'is not', null)
          .execute();
        return { disabled: false };
      }
      await t
        .updateTable('webhook_endpoints')
        .set({ failing_since: at })
        .where('id', '=', job.endpointId)
        .where('failing_since', 'is', null)
        .execute();
      const disabled = await t
        .updateTable('webhook_endpoints')
        .set({ enabled: 0, disabled_reason: 'failing', updated_at: at })
        .where('id', '=', job.endpointId)
        .where('enabled', '=', 1)
        .where('failing_since', '<=', disableBefore.toISOString())
        .executeTakeFirst();
      return { disabled: Number(disabled.numUpdatedRows) === 1 };
    });
  }

  /**
   * A test event and its one delivery, to one endpoint, in one transaction: the worker then sends
   * it as it sends every delivery (signed, retried, each attempt recorded).
   */
  async enqueueWithEvent(event: NewEvent, endpointId: string, now: Date): Promise<string> {
    return this.db.transaction().execute(async (t) => {
      await t.insertInto('events').values(event).execute();
      return this.enqueue(event.company_id, endpointId, event.id, now, t);
    });
  }

  /** Gives leases back without an attempt (shutting down): the deliveries are due again at once. */
  async release(ids: readonly string[], owner: string): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .updateTable('webhook_deliveries')
      .set({ lease_owner: null, lease_expires_at: null })
      .where('id', 'in', [...ids])
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** A new delivery of an event to an endpoint (the panel's "resend"); in `trx` when given. */
  async enqueue(
    companyId: string,
    endpointId: string,
    eventId: string,
    now: Date,
    trx: Kysely<Database> = this.db,
  ): Promise<string> {
    const id = newId('whd');
    const at = now.toISOString();
    await trx
      .insertInto('webhook_deliveries')
      .values({
        id,
        company_id: companyId,
        endpoint_id: endpointId,
        event_id: eventId,
        status: 'pending',
        attempts: 0,
        next_attempt_at: at,
        lease_owner: null,
        lease_expires_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return id;
  }

  // --- The panel's attempt log: read by company and endpoint both, so an endpoint id alone never
  // reads another company's deliveries; each read uses an existing index (src/panel/webhook-attempts.ts).

  /** The endpoint's latest attempts: which delivery, when. */
  async latestAttempts(
    companyId: string,
    endpointId: string,
    limit: number,
  ): Promise<{ delivery_id: string; attempted_at: string }[]> {
    return this.db
      .selectFrom('webhook_attempts')
      .select(['delivery_id', 'attempted_at'])
      .where('company_id', '=', companyId)
      .where('endpoint_id', '=', endpointId)
      .orderBy('attempted_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The endpoint's latest deliveries still waiting for their first attempt (the partial "fresh" index). */
  async latestWaiting(
    companyId: string,
    endpointId: string,
    limit: number,
  ): Promise<{ id: string; created_at: string }[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'created_at'])
      .where('company_id', '=', companyId)
      .where('endpoint_id', '=', endpointId)
      .where('status', '=', 'pending')
      .where('attempts', '=', 0)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** These deliveries of the endpoint, each with its event's columns (null once the event is purged). */
  async withEvents(companyId: string, endpointId: string, deliveryIds: string[]) {
    return this.db
      .selectFrom('webhook_deliveries as d')
      .leftJoin('events as e', (join) => join.onRef('e.id', '=', 'd.event_id').on('e.company_id', '=', companyId))
      .select([
        'd.id',
        'd.event_id',
        'd.created_at',
        'd.status',
        'd.attempts',
        'd.next_attempt_at',
        'd.lease_expires_at',
        'e.type',
        'e.livemode',
        'e.created_at as event_created_at',
        'e.request_id',
        'e.object',
      ])
      .where('d.company_id', '=', companyId)
      .where('d.endpoint_id', '=', endpointId)
      .where('d.id', 'in', deliveryIds)
      .execute();
  }

  /** Every attempt of these deliveries made from `from` on, oldest first. */
  async attemptsOf(companyId: string, endpointId: string, deliveryIds: string[], from: string) {
    return this.db
      .selectFrom('webhook_attempts')
      .select([
        'id',
        'delivery_id',
        'attempted_at',
        'duration_ms',
        'status_code',
        'succeeded',
        'error',
        'response_excerpt',
      ])
      .where('company_id', '=', companyId)
      .where('endpoint_id', '=', endpointId)
      .where('attempted_at', '>=', from)
      .where('delivery_id', 'in', deliveryIds)
      .orderBy('attempted_at')
      .orderBy('id')
      .execute();
  }
}
