import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type OnConflictBuilder,
  type SqlBool,
} from 'kysely';
import type {
  BelongingRows,
  Dialect,
  EventRow,
  EventWriter,
  EventWriterHooks,
  GuardedUpdate,
  InsertChange,
  NumberedClaim,
  NumberedInsert,
} from '../dialect.js';
import { prepareQuery } from '../prepared-query.js';
import { lastWriteUnlessTaken } from '../transactions.js';
import type { Database } from '../schema.js';

// PostgreSQL: several instances write at once, each statement is a round trip, and transactions
// commit out of the order they started in. Rows that workers share are locked with FOR UPDATE
// SKIP LOCKED, outbox places carry the writing transaction's id (xid8), and what can be one
// statement is.

type Table = keyof Database & string;

type EventCte = { id: string; company_id: string; livemode: number; type: string; created_at: string };

/** Adds the outbox rows of the query's `event` CTE (one or more events), each when an enabled endpoint of its company and mode takes its type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CTEs before it differ by statement
function withOutbox(query: any): any {
  return query.with('outbox', (w: Kysely<Database & { event: EventCte }>) =>
    w
      .insertInto('webhook_outbox')
      .columns(['event_id', 'company_id', 'livemode', 'type', 'created_at'])
      .expression(
        w
          .selectFrom('event')
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('webhook_endpoints as endpoint')
                .select(sql.lit(1).as('one'))
                .whereRef('endpoint.company_id', '=', 'event.company_id')
                .whereRef('endpoint.livemode', '=', 'event.livemode')
                .where('endpoint.enabled', '=', sql.lit(1))
                // hooks.takes (subscribes()), in SQL: "*", the type, or its resource's wildcard ("invoice.*").
                .where(
                  sql<boolean>`(endpoint.events::jsonb ? '*' or endpoint.events::jsonb ? event.type or endpoint.events::jsonb ? (split_part(event.type, '.', 1) || '.*'))`,
                ),
            ),
          )
          .select(['event.id as event_id', 'event.company_id', 'event.livemode', 'event.type', 'event.created_at'])
          // Several events of one statement take their outbox places in the order they were made.
          .orderBy('event.id') as never,
      )
      .returning(['event_id']),
  );
}

type Values = Record<string, unknown>;

/** The values of a statement's parameters, named `${prefix}:${column}`. */
function putValues(values: Values, prefix: string, row: object): void {
  for (const [column, value] of Object.entries(row)) values[`${prefix}:${column}`] = value;
}

/**
 * A guarded change as one statement: the compare-and-set UPDATE (`guarded`), the INSERT and the
 * events select from its RETURNING, so they write nothing when it matched no row (a racing
 * writer's, once its row lock is released, no longer matches), then their outbox rows.
 */
function guardedStatement(
  db: Kysely<Database>,
  guard: { table: Table; set: string[]; where: string[] },
  insert: { table: Table; columns: string[] },
  eventCount: number,
) {
  const eventColumns = ['id', 'company_id', 'livemode', 'type', 'request_id', 'object', 'created_at'] as const;
  const returned = ['id', 'company_id', 'livemode', 'type', 'created_at'] as const;
  return prepareQuery<Values, { outboxed: number }>(db, (d, param) => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the guard's and the INSERT's tables are only known at run time
    type Builder = any;
    // Values selected from the UPDATE's RETURNING take their column's type from the INSERT, as VALUES would.
    const fromGuarded = (w: Builder, prefix: string, columns: readonly string[]) =>
      w.selectFrom('guarded').select(columns.map((c) => sql`${param(`${prefix}:${c}`)}`.as(c)));
    let query: Builder = withGuarded(d, guard, param as Param).with('change', (w: Builder) =>
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
          .columns([...eventColumns])
          .expression(fromGuarded(w, name, eventColumns))
          .returning([...returned]),
      );
    query = query.with('event', (w: Builder) =>
      names
        .map((name) => w.selectFrom(name).select([...returned]))
        .reduce((union: Builder, next: Builder) => union.unionAll(next)),
    );
    return withOutbox(query)
      .selectFrom('guarded')
      .select(sql<number>`(select count(*) from outbox)::int`.as('outboxed'));
  });
}

/**
 * The event and its outbox row as one statement (data-modifying CTEs), and a change that is a
 * single INSERT (with the rows that belong to it, a draft's lines, as one JSON parameter) joins
 * it: one atomic statement, no BEGIN and COMMIT around it. A guarded change
 * (a compare-and-set UPDATE, an INSERT and their events) is one statement too (guardedStatement).
 * Compiled once per shape (the tables and columns).
 */
function postgresEventWriter(db: Kysely<Database>, hooks: EventWriterHooks): EventWriter {
  const guardedOf = new Map<string, ReturnType<typeof guardedStatement>>();

  const oneStatement = new Map<
    string,
    (values: Record<string, unknown>, executor: Kysely<Database>) => Promise<{ rows: { event_id: string }[] }>
  >();

  const compile = (table: Table | null, columns: string[], belonging: BelongingShape | null) => {
    type Values = Record<string, unknown>;
    return prepareQuery<Values, { event_id: string }>(db, (d, param) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the change's table is only known at run time
      let query: any = d;
      if (table)
        query = query.with('change', (w: Kysely<Database>) =>
          w.insertInto(table).values(Object.fromEntries(columns.map((c) => [c, param(`change:${c}`)])) as never),
        );
      if (belonging) query = withBelonging(query, belonging, param as Param, []);
      const eventColumns = ['id', 'company_id', 'livemode', 'type', 'request_id', 'object', 'created_at'] as const;
      return withOutbox(
        query.with('event', (w: Kysely<Database>) =>
          w
            .insertInto('events')
            .values(Object.fromEntries(eventColumns.map((c) => [c, param(`event:${c}`)])) as never)
            .returning(['id', 'company_id', 'livemode', 'type', 'created_at']),
        ),
      )
        .selectFrom('outbox')
        .select('event_id');
    });
  };

  const numberedClaimOf = new Map<string, ReturnType<typeof numberedClaimStatement>>();
  const numberedInsertOf = new Map<string, ReturnType<typeof numberedInsertStatement>>();

  return {
    async write(executor: Kysely<Database>, event: EventRow, change: InsertChange | null): Promise<void> {
      const columns = change ? Object.keys(change.row) : [];
      const belonging = belongingShape(change?.belonging);
      const shape = change
        ? `${change.table}:${columns.join(',')}:${belonging?.table ?? ''}:${belonging?.columns.join(',') ?? ''}`
        : '';
      let statement = oneStatement.get(shape);
      if (!statement) {
        statement = compile(change?.table ?? null, columns, belonging);
        if (oneStatement.size > 100) oneStatement.clear();
        oneStatement.set(shape, statement);
      }
      const values: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(event)) values[`event:${column}`] = value;
      for (const column of columns) values[`change:${column}`] = (change!.row as Record<string, unknown>)[column];
      if (belonging) values.rows = JSON.stringify(change!.belonging!.rows);
      const { rows } = await statement(values, executor);
      if (rows.length > 0) hooks.onOutbox();
    },

    async writeGuarded(
      executor: Kysely<Database>,
      guard: GuardedUpdate,
      change: InsertChange,
      events: readonly EventRow[],
    ): Promise<boolean> {
      if (events.length === 0) throw new Error('A guarded change is written with at least one event');
      const shape = { table: guard.table, set: Object.keys(guard.set), where: Object.keys(guard.where) };
      const insert = { table: change.table, columns: Object.keys(change.row) };
      const key = [shape.table, shape.set, shape.where, insert.table, insert.columns, events.length].join(':');
      let statement = guardedOf.get(key);
      if (!statement) {
        statement = guardedStatement(db, shape, insert, events.length);
        if (guardedOf.size > 100) guardedOf.clear();
        guardedOf.set(key, statement);
      }
      const values: Values = {};
      putValues(values, 'set', guard.set);
      putValues(values, 'where', guard.where);
      putValues(values, 'change', change.row);
      events.forEach((event, i) => putValues(values, `event_${i}`, event));
      const { rows } = await statement(values, executor);
      if (rows.length === 0) return false;
      if (rows[0]!.outboxed > 0) hooks.onOutbox();
      return true;
    },

    async writeNumbered(executor: Kysely<Database>, events: EventRow[], change: NumberedClaim): Promise<string | null> {
      const { claim, alongside = null, placeholder, invoiceId, ...sequence } = change;
      const shape = {
        set: Object.keys(claim.set),
        where: Object.keys(claim.where),
        alongside: alongside && { table: alongside.table, columns: Object.keys(alongside.row) },
      };
      const key = [shape.set, shape.where, shape.alongside?.table ?? '', shape.alongside?.columns ?? ''].join(':');
      let statement = numberedClaimOf.get(key);
      if (!statement) {
        statement = numberedClaimStatement(db, shape);
        if (numberedClaimOf.size > 100) numberedClaimOf.clear();
        numberedClaimOf.set(key, statement);
      }
      const values: Values = { ...sequence, placeholder, invoiceId, ...eventValues(events) };
      putValues(values, 'set', claim.set);
      putValues(values, 'where', claim.where);
      if (alongside) putValues(values, 'alongside', alongside.row);
      for (;;) {
        // A client's number still uncommitted when it is taken here breaks the unique index once
        // that client commits: the whole statement (or the savepoint, in the caller's transaction)
        // gives the step back, and the next try sees the number taken. A number already taken
        // leaves the draft as it was: the counter keeps its step, and the next try takes the next.
        const rows = await lastWriteUnlessTaken(executor, async () => (await statement(values, executor)).rows);
        const row = rows?.[0];
        if (!row) continue;
        if (row.claimed === 0) return null;
        if (row.number === null) continue;
        if (row.outboxed > 0) hooks.onOutbox();
        return row.number;
      }
    },

    async writeNumberedInsert<N extends string | null>(
      executor: Kysely<Database>,
      events: EventRow[],
      change: NumberedInsert,
    ): Promise<N> {
      const {
        insert,
        numberColumn,
        belonging,
        unlessTaken = false,
        alongside = null,
        guard = null,
        ...sequence
      } = change;
      if (guard && unlessTaken) throw new Error('A guarded numbered insert takes numbers only its sequence gives');
      const shape = {
        table: insert.table,
        columns: Object.keys(insert.row),
        numberColumn,
        belonging: belongingShape(belonging),
        unlessTaken,
        alongside: alongside && { table: alongside.table, columns: Object.keys(alongside.row) },
        guard: guard && { table: guard.table, set: Object.keys(guard.set), where: Object.keys(guard.where) },
      };
      const key = [
        shape.table,
        shape.columns,
        numberColumn,
        shape.belonging?.table ?? '',
        shape.belonging?.columns ?? '',
        unlessTaken,
        shape.alongside?.table ?? '',
        shape.alongside?.columns ?? '',
        shape.guard?.table ?? '',
        shape.guard?.set ?? '',
        shape.guard?.where ?? '',
      ].join(':');
      let statement = numberedInsertOf.get(key);
      if (!statement) {
        statement = numberedInsertStatement(db, shape);
        if (numberedInsertOf.size > 100) numberedInsertOf.clear();
        numberedInsertOf.set(key, statement);
      }
      const values: Values = { ...sequence, ...eventValues(events), rows: JSON.stringify(belonging.rows) };
      putValues(values, 'row', insert.row);
      if (alongside) putValues(values, 'alongside', alongside.row);
      if (guard) {
        putValues(values, 'set', guard.set);
        putValues(values, 'where', guard.where);
      }
      for (;;) {
        // A number a client took (unlessTaken) is skipped by the INSERT's conflict arbiter, which
        // breaks no index: a taken one leaves no row and the next is tried, with no savepoint, in
        // the caller's transaction or without one (then the statement is its own: no BEGIN, no COMMIT).
        const row = (await statement(values, executor)).rows[0];
        if (!row) {
          if (unlessTaken) continue;
          // Without a guard's miss, the sequence's number always goes in.
          if (guard) return null as N;
          throw new Error(`No number for the ${insert.table} row`);
        }
        if (row.outboxed > 0) hooks.onOutbox();
        return row.number as N;
      }
    },
  };
}

/** The events' values of a numbered statement (of one company, mode, request and time), as arrays. */
function eventValues(events: EventRow[]) {
  return {
    eventIds: events.map((e) => e.id),
    eventTypes: events.map((e) => e.type),
    eventObjects: events.map((e) => e.object),
    requestId: events[0]?.request_id ?? null,
    createdAt: events[0]?.created_at ?? new Date().toISOString(),
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CTEs before and after differ by statement
type Builder = any;
type Param = (name: string) => never;

/**
 * The `n` CTE: the counter's next value (made at 1 on first use) as the number's text, the prefix
 * and the value zero-padded to the width (wider past it). Its upsert takes the counter row's lock;
 * with `onlyWith` (a CTE's name), only when that CTE has a row.
 */
function withNextNumber(d: Builder, param: Param, onlyWith?: string): Builder {
  const row = {
    company_id: param('companyId'),
    livemode: param('livemode'),
    sequence: param('sequence'),
    year: param('year'),
    last_value: sql.lit(1),
  };
  return d.with('n', (w: Builder) =>
    (onlyWith
      ? w
          .insertInto('number_sequences')
          .columns(Object.keys(row))
          .expression(w.selectFrom(onlyWith).select(Object.entries(row).map(([c, v]) => sql`${v}`.as(c))))
      : w.insertInto('number_sequences').values(row)
    )
      .onConflict((oc: OnConflictBuilder<Database, 'number_sequences'>) =>
        oc
          .columns(['company_id', 'livemode', 'sequence', 'year'])
          .doUpdateSet({ last_value: sql<number>`number_sequences.last_value + 1` }),
      )
      .returning(
        sql<string>`${param('prefix')}::text || lpad(last_value::text, greatest(${param('width')}::int, length(last_value::text)), '0')`.as(
          'number',
        ),
      ),
  );
}

/**
 * The `event` CTE: the events (arrays of ids, types and objects), written once per row of
 * `source` (a CTE with a `number` column: none when it wrote nothing), each object's placeholder
 * replaced by the number.
 */
function withNumberedEvents(query: Builder, source: string, param: Param): Builder {
  const text = (name: string) => sql<string>`${param(name)}::text`;
  return query.with('event', (w: Builder) =>
    w
      .insertInto('events')
      .columns(['id', 'company_id', 'livemode', 'type', 'request_id', 'object', 'created_at'])
      .expression(
        w
          .selectFrom([
            source,
            sql`(select unnest(${param('eventIds')}::text[]) as id, unnest(${param('eventTypes')}::text[]) as type, unnest(${param('eventObjects')}::text[]) as object)`.as(
              'e',
            ),
          ])
          .select([
            'e.id',
            text('companyId').as('company_id'),
            sql<number>`${param('livemode')}::int`.as('livemode'),
            'e.type',
            text('requestId').as('request_id'),
            sql<string>`replace(e.object, ${text('placeholder')}, ${sql.ref(`${source}.number`)})`.as('object'),
            text('createdAt').as('created_at'),
          ])
          .orderBy('e.id'),
      )
      .returning(['id', 'company_id', 'livemode', 'type', 'created_at']),
  );
}

/**
 * The `guarded` CTE: the compare-and-set UPDATE (`set:` values where the row has the `where:`
 * ones), one row of RETURNING when it changed its row, none otherwise (a racing writer's row, once
 * its lock is released, is compared as that writer left it).
 */
function withGuarded(d: Builder, guard: { table: Table; set: string[]; where: string[] }, param: Param): Builder {
  return d.with('guarded', (w: Builder) => {
    let update = w.updateTable(guard.table).set(Object.fromEntries(guard.set.map((c) => [c, param(`set:${c}`)])));
    for (const column of guard.where) update = update.where(column, '=', param(`where:${column}`));
    return update.returning(sql.lit(1).as('one'));
  });
}

/**
 * The `alongside` CTE: one row (`alongside:` values) written once per row of `source` (the
 * numbered row's CTE), so only with it. Values selected take their column's type from the INSERT.
 */
function withAlongside(query: Builder, alongside: { table: Table; columns: string[] }, param: Param, source: string) {
  return query.with('alongside', (w: Builder) =>
    w
      .insertInto(alongside.table)
      .columns(alongside.columns)
      .expression(w.selectFrom(source).select(alongside.columns.map((c) => sql`${param(`alongside:${c}`)}`.as(c)))),
  );
}

/** The table and columns of the rows that belong to an inserted row; null when there are none. */
type BelongingShape = { table: Table; columns: string[] };

function belongingShape(belonging: BelongingRows | undefined): BelongingShape | null {
  return belonging && belonging.rows.length > 0
    ? { table: belonging.table, columns: Object.keys(belonging.rows[0]!) }
    : null;
}

/**
 * The `belonging` CTE: the rows of the `rows` parameter (one JSON array, each object typed by the
 * table's columns through json_populate_recordset, whatever their number), selected with the CTEs
 * of `joined` (none, or the insert they belong to, so that nothing goes in when it wrote nothing).
 */
function withBelonging(query: Builder, belonging: BelongingShape, param: Param, joined: string[]): Builder {
  return query.with('belonging', (w: Builder) =>
    w
      .insertInto(belonging.table)
      .columns(belonging.columns)
      .expression(
        w
          .selectFrom([
            sql`json_populate_recordset(null::${sql.table(belonging.table)}, ${param('rows')}::json)`.as('r'),
            ...joined,
          ])
          .select(belonging.columns.map((c) => `r.${c}`)),
      ),
  );
}

/**
 * A numbered insert as one statement: the guard's compare-and-set if any (`guarded`), the next
 * number (`n`, only when the guard changed its row), the row with it, the rows that belong to it
 * (one JSON parameter, typed by their table's columns), the row alongside it (its hosted link),
 * the events with the number in their objects and their outbox rows. Compiled once per shape.
 */
function numberedInsertStatement(
  db: Kysely<Database>,
  shape: {
    table: Table;
    columns: string[];
    numberColumn: string;
    belonging: { table: Table; columns: string[] } | null;
    unlessTaken: boolean;
    alongside: { table: Table; columns: string[] } | null;
    guard: { table: Table; set: string[]; where: string[] } | null;
  },
) {
  return prepareQuery<Values, { number: string; outboxed: number }>(db, (d, param) => {
    const p = param as Param;
    const guard = shape.guard;
    // The guard's compare-and-set first; the number is taken only when it changed its row.
    const guarded: Builder = guard ? withGuarded(d, guard, p) : d;
    // Values selected from `n` take their column's type from the INSERT, as VALUES would.
    // A number a client took (unlessTaken) is found by the unique index on the company, mode and
    // number, as the INSERT's conflict arbiter: nothing goes in, and a client's uncommitted number
    // is waited for. A NOT EXISTS read did the same, but its plan, made while the company had few
    // invoices, could read every invoice of the company instead, inside the counter's lock.
    let query: Builder = withNextNumber(guarded, p, guard ? 'guarded' : undefined).with('inserted', (w: Builder) =>
      w
        .insertInto(shape.table)
        .columns(shape.columns)
        .expression(
          w
            .selectFrom('n')
            .select(
              shape.columns.map((c) =>
                c === shape.numberColumn ? sql.ref('n.number').as(c) : sql`${p(`row:${c}`)}`.as(c),
              ),
            ),
        )
        .$if(shape.unlessTaken, (q: Builder) =>
          q.onConflict((oc: Builder) => oc.columns(['company_id', 'livemode', shape.numberColumn]).doNothing()),
        )
        .returning(sql.ref(shape.numberColumn).as('number')),
    );
    // Joined with `inserted`: nothing of a row that did not go in (its number was taken).
    if (shape.belonging) query = withBelonging(query, shape.belonging, p, ['inserted']);
    if (shape.alongside) query = withAlongside(query, shape.alongside, p, 'inserted');
    return withOutbox(withNumberedEvents(query, 'inserted', p))
      .selectFrom('inserted')
      .select(['inserted.number', sql<number>`(select count(*) from outbox)::int`.as('outboxed')]);
  });
}

/**
 * A draft issued with a number as one statement: the draft's row locked where it is still as the
 * claim's `where` says (`draft`: after a racing writer's commit, the row it left is compared), the
 * next number (`n`, taken only for a locked draft, so a claim that fails takes none), the claim's
 * UPDATE with the number unless a client took that number (then the counter keeps its step and
 * nothing else is written), the row alongside it (its hosted link), the events with the number in
 * their objects and their outbox rows. One row: whether the draft was claimed, and its number.
 * Compiled once per shape.
 */
function numberedClaimStatement(
  db: Kysely<Database>,
  shape: { set: string[]; where: string[]; alongside: { table: Table; columns: string[] } | null },
) {
  return prepareQuery<Values, { number: string | null; claimed: number; outboxed: number }>(db, (d, param) => {
    const p = param as Param;
    let query: Builder = d.with('draft', (w: Builder) => {
      let select = w.selectFrom('invoices').select('id');
      for (const column of shape.where) select = select.where(column, '=', p(`where:${column}`));
      return select.forUpdate();
    });
    query = withNextNumber(query, p, 'draft').with('numbered', (w: Builder) =>
      w
        .updateTable('invoices')
        .from('n')
        .set({
          ...Object.fromEntries(shape.set.map((c) => [c, p(`set:${c}`)])),
          number: sql<string>`n.number`,
        })
        .where('invoices.company_id', '=', p('companyId'))
        .where('invoices.id', '=', p('invoiceId'))
        .where(({ not, exists, selectFrom }: Builder) =>
          not(
            exists(
              selectFrom('invoices as taken')
                .select(sql.lit(1).as('one'))
                .where('taken.company_id', '=', p('companyId'))
                .where('taken.livemode', '=', p('livemode'))
                .whereRef('taken.number', '=', sql.ref('n.number')),
            ),
          ),
        )
        .returning(sql<string>`n.number`.as('number')),
    );
    if (shape.alongside) query = withAlongside(query, shape.alongside, p, 'numbered');
    return withOutbox(withNumberedEvents(query, 'numbered', p)).selectNoFrom([
      sql<string | null>`(select number from numbered)`.as('number'),
      sql<number>`(select count(*) from draft)::int`.as('claimed'),
      sql<number>`(select count(*) from outbox)::int`.as('outboxed'),
    ]);
  });
}

const xact = (value: string | number) => sql`${String(value)}::xid8`;
const liveHorizon = sql`pg_snapshot_xmin(pg_current_snapshot())`;

/** `'name', alias.name, …` for json_build_object (at most 50 columns: a function takes 100 arguments). */
function namedColumns(alias: string, columns: readonly string[]) {
  return sql.join(columns.map((column) => sql`${sql.lit(column)}::text, ${sql.ref(`${alias}.${column}`)}`));
}

export const postgresDialect: Dialect = {
  name: 'postgres',

  json: {
    // json, not jsonb: json keeps each value's text as it is; json_agg over no rows is null.
    rows: (alias, columns, orderBy) =>
      sql`coalesce(json_agg(json_build_object(${namedColumns(alias, columns)}) order by ${orderBy}), '[]'::json)`,
    row: (alias, columns) => sql`json_build_object(${namedColumns(alias, columns)})`,
    // node-postgres parses json columns when it reads them.
    parse: <T>(value: unknown) => value as T,
  },

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
