import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Dialect, EventRow, EventWriter, EventWriterHooks, InsertChange } from '../dialect.js';
import { prepareQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';

// PostgreSQL: several instances write at once, each statement is a round trip, and transactions
// commit out of the order they started in. Rows that workers share are locked with FOR UPDATE
// SKIP LOCKED, outbox places carry the writing transaction's id (xid8), and what can be one
// statement is.

type Table = keyof Database & string;

type Values = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tables of a change and the CTEs' names are only known at run time
type Builder = any;

const EVENT_COLUMNS = ['id', 'company_id', 'livemode', 'type', 'request_id', 'object', 'created_at'] as const;
const EVENT_RETURNED = ['id', 'company_id', 'livemode', 'type', 'created_at'] as const;
const OUTBOX_COLUMNS = ['event_id', 'company_id', 'livemode', 'type', 'created_at'] as const;

/**
 * The outbox CTE: a row for each event of `events` (rows of EVENT_RETURNED, in id order) that an
 * enabled endpoint of its company and mode takes. hooks.takes (subscribes()), in SQL: "*", the
 * type, or its resource's wildcard ("invoice.*").
 */
function outboxOf(w: Builder, events: Builder): Builder {
  return w
    .insertInto('webhook_outbox')
    .columns([...OUTBOX_COLUMNS])
    .expression(
      w
        .selectFrom(events)
        .where(({ exists, selectFrom }: Builder) =>
          exists(
            selectFrom('webhook_endpoints as endpoint')
              .select(sql.lit(1).as('one'))
              .whereRef('endpoint.company_id', '=', 'event.company_id')
              .whereRef('endpoint.livemode', '=', 'event.livemode')
              .where('endpoint.enabled', '=', sql.lit(1))
              .where(
                sql<boolean>`(endpoint.events::jsonb ? '*' or endpoint.events::jsonb ? event.type or endpoint.events::jsonb ? (split_part(event.type, '.', 1) || '.*'))`,
              ),
          ),
        )
        .select(['event.id as event_id', 'event.company_id', 'event.livemode', 'event.type', 'event.created_at'])
        .orderBy('event.id'),
    )
    .returning(['event_id']);
}

/** The values of a statement's parameters, named `${prefix}:${column}`. */
function putValues(values: Values, prefix: string, row: object): void {
  for (const [column, value] of Object.entries(row)) values[`${prefix}:${column}`] = value;
}

/**
 * The event and its outbox row as one statement (data-modifying CTEs), and a change that is a
 * single INSERT joins it: one atomic statement, no BEGIN and COMMIT around it. A guarded change
 * (a compare-and-set UPDATE, an INSERT and their events) is one statement too: the INSERT and the
 * events select from the UPDATE's RETURNING, so they write nothing when it matched no row.
 * Compiled once per shape (the tables and columns).
 */
function postgresEventWriter(db: Kysely<Database>, hooks: EventWriterHooks): EventWriter {
  const plain = (table: Table | null, columns: string[]) =>
    prepareQuery<Values, { event_id: string }>(db, (d, param) => {
      let query: Builder = d;
      if (table)
        query = query.with('change', (w: Builder) =>
          w.insertInto(table).values(Object.fromEntries(columns.map((c) => [c, param(`change:${c}`)]))),
        );
      return query
        .with('event', (w: Builder) =>
          w
            .insertInto('events')
            .values(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, param(`event:${c}`)])))
            .returning([...EVENT_RETURNED]),
        )
        .with('outbox', (w: Builder) => outboxOf(w, 'event'))
        .selectFrom('outbox')
        .select('event_id');
    });

  const guarded = (
    guard: { table: Table; set: string[]; where: string[] },
    insert: { table: Table; columns: string[] },
    eventCount: number,
  ) =>
    prepareQuery<Values, { outboxed: string | number }>(db, (d, param) => {
      // Values selected from a CTE take their column's type from the INSERT, as VALUES would.
      const fromGuarded = (w: Builder, prefix: string, columns: readonly string[]) =>
        w.selectFrom('guarded').select(columns.map((c) => sql`${param(`${prefix}:${c}`)}`.as(c)));
      let query: Builder = d
        .with('guarded', (w: Builder) => {
          let update = w.updateTable(guard.table).set(Object.fromEntries(guard.set.map((c) => [c, param(`set:${c}`)])));
          for (const column of guard.where) update = update.where(column, '=', param(`where:${column}`));
          return update.returning(sql.lit(1).as('one'));
        })
        .with('change', (w: Builder) =>
          w
            .insertInto(insert.table)
            .columns(insert.columns)
            .expression(fromGuarded(w, 'change', insert.columns)),
        );
      const names = Array.from({ length: eventCount }, (_, i) => `event_${i}`);
      for (const name of names)
        query = query.with(name, (w: Builder) =>
          w
            .insertInto('events')
            .columns([...EVENT_COLUMNS])
            .expression(fromGuarded(w, name, EVENT_COLUMNS))
            .returning([...EVENT_RETURNED]),
        );
      return query
        .with('outbox', (w: Builder) => {
          const all = names
            .map((name) => w.selectFrom(name).select([...EVENT_RETURNED]))
            .reduce((union: Builder, next: Builder) => union.unionAll(next));
          return outboxOf(w, all.as('event'));
        })
        .selectFrom('guarded')
        .select(sql<number>`(select count(*) from outbox)`.as('outboxed'));
    });

  const plainOf = new Map<string, ReturnType<typeof plain>>();
  const guardedOf = new Map<string, ReturnType<typeof guarded>>();
  const cached = <S>(statements: Map<string, S>, shape: string, compile: () => S): S => {
    let statement = statements.get(shape);
    if (!statement) {
      statement = compile();
      if (statements.size > 100) statements.clear();
      statements.set(shape, statement);
    }
    return statement;
  };

  return {
    async write(executor: Kysely<Database>, event: EventRow, change: InsertChange | null): Promise<void> {
      const columns = change ? Object.keys(change.row) : [];
      const shape = change ? `${change.table}:${columns.join(',')}` : '';
      const statement = cached(plainOf, shape, () => plain(change?.table ?? null, columns));
      const values: Values = {};
      putValues(values, 'event', event);
      if (change) putValues(values, 'change', change.row);
      const { rows } = await statement(values, executor);
      if (rows.length > 0) hooks.onOutbox();
    },

    async writeGuarded(executor, guard, change, events): Promise<boolean> {
      if (events.length === 0) throw new Error('A guarded change is written with at least one event');
      const shapeOf = { table: guard.table, set: Object.keys(guard.set), where: Object.keys(guard.where) };
      const insert = { table: change.table, columns: Object.keys(change.row) };
      const shape = [shapeOf.table, shapeOf.set, shapeOf.where, insert.table, insert.columns, events.length].join(':');
      const statement = cached(guardedOf, shape, () => guarded(shapeOf, insert, events.length));
      const values: Values = {};
      putValues(values, 'set', guard.set);
      putValues(values, 'where', guard.where);
      putValues(values, 'change', change.row);
      events.forEach((event, i) => putValues(values, `event_${i}`, event));
      const { rows } = await statement(values, executor);
      if (rows.length === 0) return false;
      if (Number(rows[0]!.outboxed) > 0) hooks.onOutbox();
      return true;
    },
  };
}

const xact = (value: string | number) => sql`${String(value)}::xid8`;
const liveHorizon = sql`pg_snapshot_xmin(pg_current_snapshot())`;

export const postgresDialect: Dialect = {
  name: 'postgres',

  lockSkippingLocked: (query) => query.forUpdate().skipLocked(),

  // Read committed: each statement after the lock is granted sees what the holder before committed.
  // Keys that share a hash only wait for each other, never mix up their rows.
  async serializeOn(t, key) {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(t);
  },

  leaseDeliveries(db, table, ids, free, lease) {
    // Both leased tables have the columns used here; Kysely cannot see that through the union.
    const rows = table as 'webhook_deliveries';
    const isFree = free as unknown as (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) => Expression<SqlBool>;
    return db.transaction().execute(async (t) => {
      const locked = await t
        .selectFrom(rows)
        .select('id')
        .where('id', 'in', [...ids])
        .where(isFree)
        .forUpdate()
        .skipLocked()
        .execute();
      const chosen = locked.map((row) => row.id);
      if (chosen.length > 0) await t.updateTable(rows).set(lease).where('id', 'in', chosen).execute();
      return chosen;
    });
  },

  eventWriter: postgresEventWriter,

  outbox: {
    xact,
    seq: (value) => sql`${String(value)}::bigint`,
    xactOf: (column) => sql<string>`${sql.ref(column)}::text`,
    compare: (op, xactValue, seq) => sql`(o.xact, o.seq) ${sql.raw(op)} (${xactValue}, ${seq})`,
    order: sql`o.xact, o.seq`,
    newestFirst: (query) => query.orderBy('xact', 'desc').orderBy('seq', 'desc'),
    horizonNow: sql<string>`${liveHorizon}::text`,
    belowHorizonNow: sql`and o.xact < ${liveHorizon}`,
    belowHorizon: (horizon) => (horizon === null ? sql`` : sql`and o.xact < ${xact(horizon)}`),
    deliveryId: (endpointId) => sql`'whd_' || substr(ev.id, 5, 24) || left(md5(${endpointId}::text || ev.id), 12)`,
    onDuplicateDelivery: sql`on conflict (id) do nothing`,
    async deletePassed(db) {
      const floors = sql`select distinct on (e.company_id, e.livemode) e.company_id, e.livemode, c.xact, c.seq
            from webhook_endpoints e join webhook_outbox_cursors c on c.endpoint_id = e.id
            where e.enabled = 1
            order by e.company_id, e.livemode, c.xact, c.seq`;
      const passed = await sql`delete from webhook_outbox o using (${floors}) f
                  where o.company_id = f.company_id and o.livemode = f.livemode and ${postgresDialect.outbox.compare('<=', sql`f.xact`, sql`f.seq`)}`.execute(
        db,
      );
      return Number(passed.numAffectedRows ?? 0);
    },
  },
};
