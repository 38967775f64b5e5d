import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type { Dialect, DraftIssue, EventRow, EventWriterHooks, InsertChange, IssueOutcome } from '../dialect.js';
import { prepareQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';

// PostgreSQL: several instances write at once, each statement is a round trip, and transactions
// commit out of the order they started in. Rows that workers share are locked with FOR UPDATE
// SKIP LOCKED, outbox places carry the writing transaction's id (xid8), and what can be one
// statement is.

type Table = keyof Database & string;

/**
 * The event and its outbox row as one statement (data-modifying CTEs), and a change that is a
 * single INSERT joins it: one atomic statement, no BEGIN and COMMIT around it. Compiled once per
 * shape (the change's table and columns).
 */
function postgresEventWriter(db: Kysely<Database>, hooks: EventWriterHooks) {
  const oneStatement = new Map<
    string,
    (values: Record<string, unknown>, executor: Kysely<Database>) => Promise<{ rows: { event_id: string }[] }>
  >();

  const compile = (table: Table | null, columns: string[]) => {
    type Values = Record<string, unknown>;
    return prepareQuery<Values, { event_id: string }>(db, (d, param) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the change's table is only known at run time
      let query: any = d;
      if (table)
        query = query.with('change', (w: Kysely<Database>) =>
          w.insertInto(table).values(Object.fromEntries(columns.map((c) => [c, param(`change:${c}`)])) as never),
        );
      const eventColumns = ['id', 'company_id', 'livemode', 'type', 'request_id', 'object', 'created_at'] as const;
      return query
        .with('event', (w: Kysely<Database>) =>
          w
            .insertInto('events')
            .values(Object.fromEntries(eventColumns.map((c) => [c, param(`event:${c}`)])) as never)
            .returning(['id', 'company_id', 'livemode', 'type', 'created_at']),
        )
        .with(
          'outbox',
          (
            w: Kysely<
              Database & {
                event: { id: string; company_id: string; livemode: number; type: string; created_at: string };
              }
            >,
          ) =>
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
                  .select([
                    'event.id as event_id',
                    'event.company_id',
                    'event.livemode',
                    'event.type',
                    'event.created_at',
                  ]) as never,
              )
              .returning(['event_id']),
        )
        .selectFrom('outbox')
        .select('event_id');
    });
  };

  return {
    async write(executor: Kysely<Database>, event: EventRow, change: InsertChange | null): Promise<void> {
      const columns = change ? Object.keys(change.row) : [];
      const shape = change ? `${change.table}:${columns.join(',')}` : '';
      let statement = oneStatement.get(shape);
      if (!statement) {
        statement = compile(change?.table ?? null, columns);
        if (oneStatement.size > 100) oneStatement.clear();
        oneStatement.set(shape, statement);
      }
      const values: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(event)) values[`event:${column}`] = value;
      for (const column of columns) values[`change:${column}`] = (change!.row as Record<string, unknown>)[column];
      const { rows } = await statement(values, executor);
      if (rows.length > 0) hooks.onOutbox();
    },

    async issueWithEvent(
      executor: Kysely<Database>,
      issue: DraftIssue,
      event: EventRow,
      numberPlaceholder: string,
    ): Promise<IssueOutcome> {
      const { rows } = await issueStatement(issue, event, numberPlaceholder).execute(executor);
      const row = rows[0]!;
      if (Number(row.outbox) > 0) hooks.onOutbox();
      if (row.number !== null) return { kind: 'issued', number: row.number };
      return Number(row.claimed) === 1 ? { kind: 'number-taken' } : { kind: 'changed' };
    },
  };
}

/**
 * Issuing a draft as one statement (EventWriter.issueWithEvent). `draft` locks the row if it is
 * still the draft that was read (re-checked on its newest version when another transaction got
 * there first); only then is the counter advanced. `issued` writes status, fields and number
 * unless a client's invoice holds that number (then the counter has moved past it, the draft is
 * untouched, and the caller asks again). The event, its object given the number, and its outbox
 * row follow from `issued`, so nothing of them is written when nothing was issued.
 */
function issueStatement(issue: DraftIssue, event: EventRow, numberPlaceholder: string) {
  const { companyId, livemode, id, expectedVersion, counter, format } = issue;
  const sets = Object.entries(issue.fields).map(([column, value]) => sql`${sql.ref(column)} = ${value}`);
  return sql<{ number: string | null; claimed: string; outbox: string }>`
    with draft as (
      select id from invoices
      where company_id = ${companyId} and livemode = ${livemode} and id = ${id}
        and status = 'draft' and version = ${expectedVersion}
      for update
    ), counter as (
      insert into number_sequences (company_id, livemode, sequence, year, last_value)
      select ${counter.companyId}, ${counter.livemode}::int, ${counter.sequence}, ${counter.year}::int, 1 from draft
      on conflict (company_id, livemode, sequence, year) do update set last_value = number_sequences.last_value + 1
      returning last_value::text as value
    ), formatted as (
      select ${format.prefix}::text || lpad(value, greatest(${format.width}::int, length(value)), '0') as number
      from counter
    ), issued as (
      update invoices as target
      set status = 'issued', draft_number = null, version = ${expectedVersion + 1}::int, number = formatted.number,
        ${sql.join(sets)}
      from formatted
      where target.company_id = ${companyId} and target.livemode = ${livemode} and target.id = ${id}
        and not exists (select 1 from invoices as taken
                        where taken.company_id = ${companyId} and taken.livemode = ${livemode}
                          and taken.number = formatted.number)
      returning target.number, target.company_id, target.livemode
    ), event as (
      insert into events (id, company_id, livemode, type, request_id, object, created_at)
      select ${event.id}, issued.company_id, issued.livemode, ${event.type}, ${event.request_id},
        replace(${event.object}::text, ${JSON.stringify(numberPlaceholder)}::text, to_json(issued.number)::text),
        ${event.created_at}
      from issued
      returning id, company_id, livemode, type, created_at
    ), outbox as (
      insert into webhook_outbox (event_id, company_id, livemode, type, created_at)
      select event.id, event.company_id, event.livemode, event.type, event.created_at from event
      where exists (
        select 1 from webhook_endpoints as endpoint
        where endpoint.company_id = event.company_id and endpoint.livemode = event.livemode and endpoint.enabled = 1
          and (endpoint.events::jsonb ? '*' or endpoint.events::jsonb ? event.type
               or endpoint.events::jsonb ? (split_part(event.type, '.', 1) || '.*'))
      )
      returning event_id
    )
    select (select number from issued) as number,
      (select count(*) from draft) as claimed,
      (select count(*) from outbox) as outbox`;
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
