import { sql, type Kysely } from 'kysely';
import type { Dialect, OutboxDialect } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { subscribes } from '../events/event-recorder.js';

// The outbox, read by each endpoint at its own pace. A change writes one outbox row when an
// enabled endpoint takes its event (EventRecorder). Every endpoint keeps a cursor over its
// company and mode's rows and is given events, as delivery rows, only while fewer than
// FRESH_PER_ENDPOINT of its deliveries wait for a first attempt: an endpoint that answers keeps
// up, and one that hangs holds a few hundred deliveries while the rest of its events wait here,
// in order, as small rows. A row is deleted once every enabled endpoint of its company and mode
// has passed it. Migration 0012 explains why the cursor never passes a row that commits later.

/** Deliveries of one endpoint that may wait for their first attempt; its later events wait in the outbox. */
export const FRESH_PER_ENDPOINT = 200;
/** Outbox rows one endpoint reads in one step. */
const WINDOW = 500;

/** A place in the outbox, as the driver gives it (passed back to SQL as it came). */
export interface Position {
  xact: string | number;
  seq: string | number;
}

export interface OutboxRow extends Position {
  event_id: string;
  type: string;
  created_at: string;
}

/** What an endpoint takes: its event types, when it was created, and how many deliveries it has room for. */
export interface Reader {
  events: readonly string[];
  createdAt: string;
  room: number;
}

/**
 * Reads a window of outbox rows (in order) for one endpoint: the events it takes (created no
 * earlier than the endpoint, of a type it subscribes to), at most `room` of them, and how far its
 * cursor moves: past every row it took or skipped, and no further than the first it had no room for.
 */
export function readWindow(reader: Reader, window: readonly OutboxRow[]): { eventIds: string[]; to: Position | null } {
  const eventIds: string[] = [];
  let to: Position | null = null;
  for (const row of window) {
    if (row.created_at >= reader.createdAt && subscribes(reader.events, row.type)) {
      if (eventIds.length >= reader.room) break;
      eventIds.push(row.event_id);
    }
    to = { xact: row.xact, seq: row.seq };
  }
  return { eventIds, to };
}

/** What one dispatch round did. */
export interface DispatchRound {
  /** Delivery rows made. */
  made: number;
  /** Endpoints whose cursor moved. */
  moved: number;
  /** Whether an endpoint read a full window and had room left: another round has work. */
  more: boolean;
}

interface Candidate {
  id: string;
  company_id: string;
  livemode: number;
  events: string;
  created_at: string;
  horizon: string | null;
  room: number | string;
}

export class Outbox {
  /** The outbox's place order and the statements that differ (PostgreSQL orders by transaction, SQLite by sequence). */
  private readonly outboxSql: OutboxDialect;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    this.outboxSql = dialect.outbox;
  }

  /**
   * One round: every enabled endpoint with outbox rows past its cursor and room for deliveries
   * reads a window, makes a delivery row of each event it takes, and moves its cursor, in one
   * transaction. On PostgreSQL the cursors are locked with FOR UPDATE SKIP LOCKED, so instances
   * dispatching at once serve different endpoints and an event is given to an endpoint once.
   * Room is counted before the lock: with several instances an endpoint can briefly hold up to
   * FRESH_PER_ENDPOINT more per instance, never an event twice.
   */
  async dispatch(): Promise<DispatchRound> {
    // A look that finds nothing writes nothing: candidates are found without a transaction. (A
    // scalar subquery, not EXISTS: PostgreSQL could make EXISTS a hash join over the whole outbox.)
    const { rows } = await sql<Candidate>`
      select e.id, e.company_id, e.livemode, e.events, e.created_at,
        ${this.outboxSql.horizonNow} as horizon,
        ${FRESH_PER_ENDPOINT} - (select count(*) from (
          select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending' and d.attempts = 0 limit ${FRESH_PER_ENDPOINT}) fresh) as room
      from webhook_endpoints e
      join webhook_outbox_cursors c on c.endpoint_id = e.id
      where e.enabled = 1 and (
        select 1 from webhook_outbox o
        where o.company_id = e.company_id and o.livemode = e.livemode and ${this.outboxSql.compare('>', sql`c.xact`, sql`c.seq`)} ${this.outboxSql.belowHorizonNow}
        order by ${this.outboxSql.order} limit 1) is not null`.execute(this.db);
    const ready = rows.filter((row) => Number(row.room) > 0);
    if (ready.length === 0) return { made: 0, moved: 0, more: false };
    // The horizon read before this transaction: older than its own id, so never past a running change.
    const horizon = ready[0]!.horizon;
    return this.db.transaction().execute(async (t) => {
      const cursors = this.dialect.lockSkippingLocked(
        t
          .selectFrom('webhook_outbox_cursors')
          .select(['endpoint_id', this.outboxSql.xactOf('xact').as('xact'), 'seq'])
          .where(
            'endpoint_id',
            'in',
            ready.map((row) => row.id),
          ),
      );
      const at = new Map((await cursors.execute()).map((row) => [row.endpoint_id, row]));
      const round: DispatchRound = { made: 0, moved: 0, more: false };
      for (const endpoint of ready) {
        const cursor = at.get(endpoint.id);
        if (!cursor) continue;
        const window = (
          await sql<OutboxRow>`
            select o.event_id, o.type, o.created_at, ${this.outboxSql.xactOf('o.xact')} as xact, o.seq
            from webhook_outbox o
            where o.company_id = ${endpoint.company_id} and o.livemode = ${endpoint.livemode}
              and ${this.outboxSql.compare('>', this.outboxSql.xact(cursor.xact), this.outboxSql.seq(cursor.seq))} ${this.outboxSql.belowHorizon(horizon)}
            order by ${this.outboxSql.order}
            limit ${WINDOW}`.execute(t)
        ).rows;
        const { eventIds, to } = readWindow(
          {
            events: JSON.parse(endpoint.events) as string[],
            createdAt: endpoint.created_at,
            room: Number(endpoint.room),
          },
          window,
        );
        if (eventIds.length > 0) round.made += await this.makeDeliveries(t, endpoint.id, eventIds);
        if (!to) continue;
        await t
          .updateTable('webhook_outbox_cursors')
          .set({ xact: this.outboxSql.xact(to.xact), seq: this.outboxSql.seq(to.seq) } as never)
          .where('endpoint_id', '=', endpoint.id)
          .execute();
        round.moved += 1;
        const last = window[window.length - 1]!;
        if (window.length === WINDOW && last.xact === to.xact && last.seq === to.seq) round.more = true;
      }
      return round;
    });
  }

  /**
   * A pending delivery of each event to the endpoint, due at once. Ids keep the event's UUIDv7
   * time and prefix (time-ordered), then 48 bits (OutboxDialect.deliveryId: where instances can
   * dispatch the same pair, the same id each time, so a second dispatch changes nothing). An event
   * gone meanwhile (purged, or a test-data reset) makes none.
   */
  private async makeDeliveries(t: Kysely<Database>, endpointId: string, eventIds: readonly string[]): Promise<number> {
    const id = this.outboxSql.deliveryId(endpointId);
    const made = await sql`
      insert into webhook_deliveries (id, company_id, endpoint_id, event_id, status, attempts, next_attempt_at, lease_owner, lease_expires_at, created_at, updated_at)
      select ${id}, ev.company_id, ${endpointId}, ev.id, 'pending', 0, ev.created_at, null, null, ev.created_at, ev.created_at
      from events ev
      where ev.id in (${sql.join(eventIds.map((eventId) => sql`${eventId}`))})
      ${this.outboxSql.onDuplicateDelivery}`.execute(t);
    return Number(made.numAffectedRows ?? 0);
  }

  /**
   * Deletes the rows every enabled endpoint of their company and mode has passed, and the rows of
   * a company and mode whose endpoints are all disabled. Driven by the endpoints, through the
   * (company, mode, position) index: rows an endpoint still waits for are never scanned.
   */
  async cleanUp(): Promise<number> {
    const passed = await this.outboxSql.deletePassed(this.db);
    const unwatched = await sql`
      delete from webhook_outbox where (company_id, livemode) in (
        select company_id, livemode from webhook_endpoints group by company_id, livemode having max(enabled) = 0)`.execute(
      this.db,
    );
    return passed + Number(unwatched.numAffectedRows ?? 0);
  }

  /**
   * Puts an endpoint's cursor after every row of its company and mode (a new endpoint, or one
   * enabled again): it is given what happens from now on, not what happened before.
   */
  async placeAtEnd(t: Kysely<Database>, endpoint: { id: string; company_id: string; livemode: number }): Promise<void> {
    const end = await this.outboxSql
      .newestFirst(
        t
          .selectFrom('webhook_outbox')
          .select([this.outboxSql.xactOf('xact').as('xact'), 'seq'])
          .where('company_id', '=', endpoint.company_id)
          .where('livemode', '=', endpoint.livemode),
      )
      .limit(1)
      .executeTakeFirst();
    const xact = this.outboxSql.xact(end?.xact ?? 0);
    const seq = this.outboxSql.seq(end?.seq ?? 0);
    await sql`insert into webhook_outbox_cursors (endpoint_id, xact, seq) values (${endpoint.id}, ${xact}, ${seq})
              on conflict (endpoint_id) do update set xact = excluded.xact, seq = excluded.seq`.execute(t);
  }
}
