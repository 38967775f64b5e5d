import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../db/dialect.js';
import { prepareQuery, preparedInsert, type PreparedQuery } from '../db/prepared-query.js';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import { newId } from '../lib/ids.js';
import { modeColumn, type Scope } from '../db/scope.js';
import { subscribes, type EventType } from '../schemas/event-types.js';

export { subscribes };

type Table = keyof Database & string;

/** A change that is one INSERT of one row (`recordWithInsert`): on PostgreSQL it joins its event's statement. */
export interface InsertChange {
  table: Table;
  row: object;
}

/**
 * Writes an event in the caller's transaction and, when an enabled webhook endpoint takes it, one
 * outbox row beside it: the change, its event and its place in the outbox commit together or not
 * at all. The delivery worker gives outbox rows to endpoints, as delivery rows, each endpoint at
 * its own pace (Outbox.dispatch): one small row, not a delivery row per endpoint, is what a change
 * pays for having listeners.
 *
 * On PostgreSQL every statement is a round trip to the server, and on a create those, not the
 * work, are most of what a request waits for. There the event and its outbox row are one
 * statement (data-modifying CTEs), and a change that is a single INSERT joins it
 * (`recordWithInsert`): one atomic statement, no BEGIN and COMMIT around it. On SQLite the same
 * call is the INSERT and the event's steps in one transaction.
 */
export class EventRecorder {
  private readonly listeners = new Set<() => void>();
  // Every change writes an event: its three statements are compiled once, not per request.
  private readonly insertEvent: ReturnType<typeof preparedInsert>;
  private readonly insertOutbox: ReturnType<typeof preparedInsert>;
  private readonly selectEndpoints: PreparedQuery<{ companyId: string; livemode: number }, { events: string }>;

  private readonly insertInto = new Map<Table, ReturnType<typeof preparedInsert>>();
  private readonly oneStatement = new Map<string, (values: Record<string, unknown>, executor: Kysely<Database>) => Promise<{ rows: { event_id: string }[] }>>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName = 'sqlite',
  ) {
    this.insertEvent = preparedInsert(db, 'events');
    this.insertOutbox = preparedInsert(db, 'webhook_outbox');
    this.selectEndpoints = prepareQuery<{ companyId: string; livemode: number }, { events: string }>(db, (d, param) =>
      d
        .selectFrom('webhook_endpoints')
        .select('events')
        .where('company_id', '=', param('companyId'))
        .where('livemode', '=', param('livemode'))
        .where('enabled', '=', sql.lit(1)),
    );
  }

  /** Called after an event went into the outbox (not yet committed): a nudge, not a promise. */
  onOutbox(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async record(t: Kysely<Database>, scope: Scope, type: EventType, object: unknown, now: Date): Promise<string> {
    if (this.dialect === 'postgres') return this.recordInOneStatement(t, null, scope, type, object, now);
    return this.recordInSteps(t, scope, type, object, now);
  }

  /**
   * The change's INSERT, its event and its outbox row, all or nothing; in the caller's transaction
   * when `executor` is one. A constraint the INSERT breaks throws, as the INSERT alone would.
   */
  async recordWithInsert(executor: Kysely<Database>, change: InsertChange, scope: Scope, type: EventType, object: unknown, now: Date): Promise<string> {
    if (this.dialect === 'postgres') return this.recordInOneStatement(executor, change, scope, type, object, now);
    let insert = this.insertInto.get(change.table);
    if (!insert) {
      insert = preparedInsert(this.db, change.table);
      this.insertInto.set(change.table, insert);
    }
    return inTransaction(this.db, executor, async (t) => {
      await insert([change.row], t);
      return this.recordInSteps(t, scope, type, object, now);
    });
  }

  private async recordInOneStatement(executor: Kysely<Database>, change: InsertChange | null, scope: Scope, type: EventType, object: unknown, now: Date): Promise<string> {
    const id = newId('evt');
    const event = { id, company_id: scope.companyId, livemode: modeColumn(scope), type, request_id: scope.requestId, object: JSON.stringify(object), created_at: now.toISOString() };
    const columns = change ? Object.keys(change.row) : [];
    const shape = change ? `${change.table}:${columns.join(',')}` : '';
    let statement = this.oneStatement.get(shape);
    if (!statement) {
      statement = this.compileOneStatement(change?.table ?? null, columns);
      if (this.oneStatement.size > 100) this.oneStatement.clear();
      this.oneStatement.set(shape, statement);
    }
    const values: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(event)) values[`event:${column}`] = value;
    for (const column of columns) values[`change:${column}`] = (change!.row as Record<string, unknown>)[column];
    const { rows } = await statement(values, executor);
    if (rows.length > 0) for (const listener of this.listeners) listener();
    return id;
  }

  private compileOneStatement(table: Table | null, columns: string[]) {
    type Values = Record<string, unknown>;
    return prepareQuery<Values, { event_id: string }>(this.db, (d, param) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the change's table is only known at run time
      let query: any = d;
      if (table) query = query.with('change', (w: Kysely<Database>) => w.insertInto(table).values(Object.fromEntries(columns.map((c) => [c, param(`change:${c}`)])) as never));
      const eventColumns = ['id', 'company_id', 'livemode', 'type', 'request_id', 'object', 'created_at'] as const;
      return query
        .with('event', (w: Kysely<Database>) =>
          w
            .insertInto('events')
            .values(Object.fromEntries(eventColumns.map((c) => [c, param(`event:${c}`)])) as never)
            .returning(['id', 'company_id', 'livemode', 'type', 'created_at']),
        )
        .with('outbox', (w: Kysely<Database & { event: { id: string; company_id: string; livemode: number; type: string; created_at: string } }>) =>
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
                      // subscribes(), in SQL: "*", the type, or its resource's wildcard ("invoice.*").
                      .where(
                        sql<boolean>`(endpoint.events::jsonb ? '*' or endpoint.events::jsonb ? event.type or endpoint.events::jsonb ? (split_part(event.type, '.', 1) || '.*'))`,
                      ),
                  ),
                )
                .select(['event.id as event_id', 'event.company_id', 'event.livemode', 'event.type', 'event.created_at']) as never,
            )
            .returning(['event_id']),
        )
        .selectFrom('outbox')
        .select('event_id');
    });
  }

  private async recordInSteps(t: Kysely<Database>, scope: Scope, type: EventType, object: unknown, now: Date): Promise<string> {
    const id = newId('evt');
    const at = now.toISOString();
    const livemode = modeColumn(scope);
    await this.insertEvent([{ id, company_id: scope.companyId, livemode, type, request_id: scope.requestId, object: JSON.stringify(object), created_at: at }], t);
    const endpoints = (await this.selectEndpoints({ companyId: scope.companyId, livemode }, t)).rows;
    if (endpoints.some((endpoint) => subscribes(JSON.parse(endpoint.events) as string[], type))) {
      await this.insertOutbox([{ event_id: id, company_id: scope.companyId, livemode, type, created_at: at }], t);
      for (const listener of this.listeners) listener();
    }
    return id;
  }
}
