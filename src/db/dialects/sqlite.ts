import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import type {
  Dialect,
  EventRow,
  EventWriter,
  EventWriterHooks,
  GuardedUpdate,
  InsertChange,
  NumberedChange,
  NumberingWays,
} from '../dialect.js';
import { prepareQuery, preparedInsert } from '../prepared-query.js';
import type { Database } from '../schema.js';
import { inTransaction } from '../transactions.js';

// SQLite: one process writes, through one connection, one transaction after another (group
// commit). Nothing needs a row lock, transaction ids never interleave (outbox `xact` is always 0),
// and a statement is a function call, not a round trip.

type Table = keyof Database & string;

// Rows go in statements of bounded size: SQLite takes at most 32766 parameters in one.
const ROWS_PER_STATEMENT = 100;

/** The event, the change's INSERT and the outbox row as steps in one transaction; every statement prepared once. */
function sqliteEventWriter(db: Kysely<Database>, hooks: EventWriterHooks): EventWriter {
  const insertEvent = preparedInsert(db, 'events');
  const insertOutbox = preparedInsert(db, 'webhook_outbox');
  const selectEndpoints = prepareQuery<{ companyId: string; livemode: number }, { events: string }>(db, (d, param) =>
    d
      .selectFrom('webhook_endpoints')
      .select('events')
      .where('company_id', '=', param('companyId'))
      .where('livemode', '=', param('livemode'))
      .where('enabled', '=', sql.lit(1)),
  );
  const insertInto = new Map<Table, ReturnType<typeof preparedInsert>>();
  const insertOf = (table: Table) => {
    let insert = insertInto.get(table);
    if (!insert) {
      insert = preparedInsert(db, table);
      insertInto.set(table, insert);
    }
    return insert;
  };
  type Values = Record<string, unknown>;
  const guardedUpdates = new Map<string, ReturnType<typeof prepareQuery<Values>>>();
  const updateOf = (guard: GuardedUpdate, set: string[], where: string[]) => {
    const shape = `${guard.table}:${set.join(',')}:${where.join(',')}`;
    let update = guardedUpdates.get(shape);
    if (!update) {
      update = prepareQuery<Values>(db, (d, param) => {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the guard's table is only known at run time
        let query: any = d.updateTable(guard.table).set(Object.fromEntries(set.map((c) => [c, param(`set:${c}`)])));
        for (const column of where) query = query.where(column, '=', param(`where:${column}`));
        return query;
      });
      if (guardedUpdates.size > 100) guardedUpdates.clear();
      guardedUpdates.set(shape, update);
    }
    return update;
  };

  const writeInSteps = async (t: Kysely<Database>, event: EventRow) => {
    await insertEvent([event], t);
    const endpoints = (await selectEndpoints({ companyId: event.company_id, livemode: event.livemode }, t)).rows;
    if (endpoints.some((endpoint) => hooks.takes(JSON.parse(endpoint.events) as string[], event.type))) {
      await insertOutbox(
        [
          {
            event_id: event.id,
            company_id: event.company_id,
            livemode: event.livemode,
            type: event.type,
            created_at: event.created_at,
          },
        ],
        t,
      );
      hooks.onOutbox();
    }
  };

  // The number (and the row) in the service's steps, then the row alongside and the events with
  // the number in their objects; nothing more when the steps claimed no draft (no number).
  const numberedInSteps = <N extends string | null>(
    executor: Kysely<Database>,
    events: EventRow[],
    change: Pick<NumberedChange, 'placeholder'> & { alongside?: InsertChange | null },
    ways: NumberingWays<N>,
  ): Promise<N> =>
    inTransaction(db, executor, async (t) => {
      const number = await ways.inSteps(t);
      if (number === null) return number;
      if (change.alongside) await insertOf(change.alongside.table)([change.alongside.row], t);
      for (const event of events)
        await writeInSteps(t, { ...event, object: event.object.replaceAll(change.placeholder, number) });
      return number;
    });

  return {
    async write(executor: Kysely<Database>, event: EventRow, change: InsertChange | null): Promise<void> {
      if (!change) return writeInSteps(executor, event);
      const insert = insertOf(change.table);
      return inTransaction(db, executor, async (t) => {
        await insert([change.row], t);
        const belonging = change.belonging;
        if (belonging) {
          const insertBelonging = insertOf(belonging.table);
          for (let i = 0; i < belonging.rows.length; i += ROWS_PER_STATEMENT)
            await insertBelonging(belonging.rows.slice(i, i + ROWS_PER_STATEMENT), t);
        }
        await writeInSteps(t, event);
      });
    },

    async writeGuarded(executor, guard, change, events): Promise<boolean> {
      const [set, where] = [Object.keys(guard.set), Object.keys(guard.where)];
      const update = updateOf(guard, set, where);
      const values: Values = {};
      for (const column of set) values[`set:${column}`] = (guard.set as Values)[column];
      for (const column of where) values[`where:${column}`] = guard.where[column];
      const insert = insertOf(change.table);
      return inTransaction(db, executor, async (t) => {
        const { numAffectedRows } = await update(values, t);
        if (Number(numAffectedRows ?? 0) !== 1) return false;
        await insert([change.row], t);
        for (const event of events) await writeInSteps(t, event);
        return true;
      });
    },

    writeNumbered: numberedInSteps,
    writeNumberedInsert: numberedInSteps,
  };
}

/** `'name', alias.name, …` for json_object. */
function namedColumns(alias: string, columns: readonly string[]) {
  return sql.join(columns.map((column) => sql`${sql.lit(column)}, ${sql.ref(`${alias}.${column}`)}`));
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',

  json: {
    // json_group_array gives '[]' over no rows; its ORDER BY needs SQLite 3.44 (Node 24 ships 3.5x).
    rows: (alias, columns, orderBy) =>
      sql`json_group_array(json_object(${namedColumns(alias, columns)}) order by ${orderBy})`,
    row: (alias, columns) => sql`json_object(${namedColumns(alias, columns)})`,
    parse: <T>(value: unknown) => (value === null ? null : JSON.parse(value as string)) as T,
  },

  lockSkippingLocked: (query) => query,

  serializeOn: async () => {},

  async leaseDeliveries(db, table, ids, free, lease) {
    // Both leased tables have the columns used here; Kysely cannot see that through the union.
    const isFree = free as unknown as (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) => Expression<SqlBool>;
    await db
      .updateTable(table as 'webhook_deliveries')
      .set(lease)
      .where('id', 'in', [...ids])
      .where(isFree)
      .execute();
    return [...ids];
  },

  eventWriter: sqliteEventWriter,

  outbox: {
    xact: (value) => sql`${value}`,
    seq: (value) => sql`${value}`,
    xactOf: (column) => sql<string | number>`${sql.ref(column)}`,
    // seq alone: SQLite would scan a row-value range from its first column's start.
    compare: (op, _xact, seq) => sql`o.seq ${sql.raw(op)} ${seq}`,
    order: sql`o.seq`,
    newestFirst: (query) => query.orderBy('seq', 'desc'),
    horizonNow: sql<null>`null`,
    belowHorizonNow: sql``,
    belowHorizon: () => sql``,
    deliveryId: () => sql`'whd_' || substr(ev.id, 5, 24) || lower(hex(randomblob(6)))`,
    onDuplicateDelivery: sql``,
    async deletePassed(db) {
      const floors = sql`select e.company_id, e.livemode, 0 as xact, min(c.seq) as seq
            from webhook_endpoints e join webhook_outbox_cursors c on c.endpoint_id = e.id
            where e.enabled = 1
            group by e.company_id, e.livemode`;
      const passed = await sql`delete from webhook_outbox where seq in (
                    select o.seq from (${floors}) f
                    join webhook_outbox o on o.company_id = f.company_id and o.livemode = f.livemode and ${sqliteDialect.outbox.compare('<=', sql`f.xact`, sql`f.seq`)})`.execute(
        db,
      );
      return Number(passed.numAffectedRows ?? 0);
    },
  },
};
