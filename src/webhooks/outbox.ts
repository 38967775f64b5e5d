import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from '../db/dialect.js';
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
  private readonly pg: boolean;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: DialectName,
  ) {
    this.pg = dialect === 'postgres';
  }

  /** A transaction id as a parameter: xid8 on PostgreSQL, an integer (always 0) on SQLite. */
  private xact(value: string | number): RawBuilder<unknown> {
    return this.pg ? sql`${String(value)}::xid8` : sql`${value}`;
  }

  private seq(value: string | number): RawBuilder<unknown> {
    return this.pg ? sql`${String(value)}::bigint` : sql`${value}`;
  }

  /**
   * Rows whose transaction can no longer be followed by an earlier one: on PostgreSQL those older
   * than every transaction still running; on SQLite every committed row.
   */
  private belowHorizon(horizon: RawBuilder<unknown> | null): RawBuilder<unknown> {
    return this.pg && horizon ? sql`and o.xact < ${horizon}` : sql``;
  }

  /**
   * Outbox row `o` compared with a position, in the shape its index range takes: (xact, seq) on
   * PostgreSQL, seq alone on SQLite (where xact is always 0, and SQLite would scan a row-value
   * range from its first column's start).
   */
  private compare(op: '>' | '<=', xact: RawBuilder<unknown>, seq: RawBuilder<unknown>): RawBuilder<unknown> {
    return this.pg ? sql`(o.xact, o.seq) ${sql.raw(op)} (${xact}, ${seq})` : sql`o.seq ${sql.raw(op)} ${seq}`;
  }

  private get order(): RawBuilder<unknown> {
    return this.pg ? sql`o.xact, o.seq` : sql`o.seq`;
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
    const liveHorizon = sql`pg_snapshot_xmin(pg_current_snapshot())`;
    // A look that finds nothing writes nothing: candidates are found without a transaction. (A
    // scalar subquery, not EXISTS: PostgreSQL could make EXISTS a hash join over the whole outbox.)
    const { rows } = await sql<Candidate>`
      select e.id, e.company_id, e.livemode, e.events, e.created_at,
        ${this.pg ? sql`${liveHorizon}::text` : sql`null`} as horizon,
        ${FRESH_PER_ENDPOINT} - (select count(*) from (
          select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.status = 'pending' and d.attempts = 0 limit ${FRESH_PER_ENDPOINT}) fresh) as room
      from webhook_endpoints e
      join webhook_outbox_cursors c on c.endpoint_id = e.id
      where e.enabled = 1 and (
        select 1 from webhook_outbox o
        where o.company_id = e.company_id and o.livemode = e.livemode and ${this.compare('>', sql`c.xact`, sql`c.seq`)} ${this.belowHorizon(liveHorizon)}
        order by ${this.order} limit 1) is not null`.execute(this.db);
    const ready = rows.filter((row) => Number(row.room) > 0);
    if (ready.length === 0) return { made: 0, moved: 0, more: false };
    // The horizon read before this transaction: older than its own id, so never past a running change.
    const horizon = ready[0]!.horizon === null ? null : this.xact(ready[0]!.horizon);
    return this.db.transaction().execute(async (t) => {
      let cursors = t
        .selectFrom('webhook_outbox_cursors')
        .select(['endpoint_id', this.pg ? sql<string>`xact::text`.as('xact') : 'xact', 'seq'])
        .where('endpoint_id', 'in', ready.map((row) => row.id));
      if (this.pg) cursors = cursors.forUpdate().skipLocked();
      const at = new Map((await cursors.execute()).map((row) => [row.endpoint_id, row]));
      const round: DispatchRound = { made: 0, moved: 0, more: false };
      for (const endpoint of ready) {
        const cursor = at.get(endpoint.id);
        if (!cursor) continue;
        const window = (
          await sql<OutboxRow>`
            select o.event_id, o.type, o.created_at, ${this.pg ? sql`o.xact::text` : sql`o.xact`} as xact, o.seq
            from webhook_outbox o
            where o.company_id = ${endpoint.company_id} and o.livemode = ${endpoint.livemode}
              and ${this.compare('>', this.xact(cursor.xact), this.seq(cursor.seq))} ${this.belowHorizon(horizon)}
            order by ${this.order}
            limit ${WINDOW}`.execute(t)
        ).rows;
        const { eventIds, to } = readWindow({ events: JSON.parse(endpoint.events) as string[], createdAt: endpoint.created_at, room: Number(endpoint.room) }, window);
        if (eventIds.length > 0) round.made += await this.makeDeliveries(t, endpoint.id, eventIds);
        if (!to) continue;
        await t
          .updateTable('webhook_outbox_cursors')
          .set({ xact: this.xact(to.xact), seq: this.seq(to.seq) } as never)
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
   * time and prefix (time-ordered), then 48 bits: on PostgreSQL from a digest of endpoint and
   * event, so that a pair always gets the same id and a second dispatch of it changes nothing;
   * on SQLite at random. An event gone meanwhile (purged, or a test-data reset) makes none.
   */
  private async makeDeliveries(t: Kysely<Database>, endpointId: string, eventIds: readonly string[]): Promise<number> {
    const id = this.pg
      ? sql`'whd_' || substr(ev.id, 5, 24) || left(md5(${endpointId}::text || ev.id), 12)`
      : sql`'whd_' || substr(ev.id, 5, 24) || lower(hex(randomblob(6)))`;
    const made = await sql`
      insert into webhook_deliveries (id, company_id, endpoint_id, event_id, status, attempts, next_attempt_at, lease_owner, lease_expires_at, created_at, updated_at)
      select ${id}, ev.company_id, ${endpointId}, ev.id, 'pending', 0, ev.created_at, null, null, ev.created_at, ev.created_at
      from events ev
      where ev.id in (${sql.join(eventIds.map((eventId) => sql`${eventId}`))})
      ${this.pg ? sql`on conflict (id) do nothing` : sql``}`.execute(t);
    return Number(made.numAffectedRows ?? 0);
  }

  /**
   * Deletes the rows every enabled endpoint of their company and mode has passed, and the rows of
   * a company and mode whose endpoints are all disabled. Driven by the endpoints, through the
   * (company, mode, position) index: rows an endpoint still waits for are never scanned.
   */
  async cleanUp(): Promise<number> {
    const floors = this.pg
      ? sql`select distinct on (e.company_id, e.livemode) e.company_id, e.livemode, c.xact, c.seq
            from webhook_endpoints e join webhook_outbox_cursors c on c.endpoint_id = e.id
            where e.enabled = 1
            order by e.company_id, e.livemode, c.xact, c.seq`
      : sql`select e.company_id, e.livemode, 0 as xact, min(c.seq) as seq
            from webhook_endpoints e join webhook_outbox_cursors c on c.endpoint_id = e.id
            where e.enabled = 1
            group by e.company_id, e.livemode`;
    const passed = this.pg
      ? await sql`delete from webhook_outbox o using (${floors}) f
                  where o.company_id = f.company_id and o.livemode = f.livemode and ${this.compare('<=', sql`f.xact`, sql`f.seq`)}`.execute(this.db)
      : await sql`delete from webhook_outbox where seq in (
                    select o.seq from (${floors}) f
                    join webhook_outbox o on o.company_id = f.company_id and o.livemode = f.livemode and ${this.compare('<=', sql`f.xact`, sql`f.seq`)})`.execute(this.db);
    const unwatched = await sql`
      delete from webhook_outbox where (company_id, livemode) in (
        select company_id, livemode from webhook_endpoints group by company_id, livemode having max(enabled) = 0)`.execute(this.db);
    return Number(passed.numAffectedRows ?? 0) + Number(unwatched.numAffectedRows ?? 0);
  }

  /**
   * Puts an endpoint's cursor after every row of its company and mode (a new endpoint, or one
   * enabled again): it is given what happens from now on, not what happened before.
   */
  async placeAtEnd(t: Kysely<Database>, endpoint: { id: string; company_id: string; livemode: number }): Promise<void> {
    const end = await t
      .selectFrom('webhook_outbox')
      .select([this.pg ? sql<string>`xact::text`.as('xact') : 'xact', 'seq'])
      .where('company_id', '=', endpoint.company_id)
      .where('livemode', '=', endpoint.livemode)
      .$if(this.pg, (q) => q.orderBy('xact', 'desc'))
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
    const xact = this.xact(end?.xact ?? 0);
    const seq = this.seq(end?.seq ?? 0);
    await sql`insert into webhook_outbox_cursors (endpoint_id, xact, seq) values (${endpoint.id}, ${xact}, ${seq})
              on conflict (endpoint_id) do update set xact = excluded.xact, seq = excluded.seq`.execute(t);
  }
}
