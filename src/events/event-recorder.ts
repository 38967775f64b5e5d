import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type {
  Dialect,
  EventRow,
  EventWriter,
  GuardedUpdate,
  InsertChange,
  NumberedClaim,
  NumberedInsert,
  NumberingWays,
} from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { modeColumn, type Scope } from '../db/scope.js';
import { newId } from '../lib/ids.js';
import { subscribes, type EventType } from '../schemas/event-types.js';

export { subscribes };

/**
 * Writes an event in the caller's transaction and, when an enabled webhook endpoint takes it, one
 * outbox row beside it: the change, its event and its place in the outbox commit together or not
 * at all. The delivery worker gives outbox rows to endpoints, as delivery rows, each endpoint at
 * its own pace (Outbox.dispatch): one small row, not a delivery row per endpoint, is what a change
 * pays for having listeners.
 *
 * On a create the round trips to the database, not the work, are most of what a request waits
 * for; how the event, its outbox row and a change that is a single INSERT (`recordWithInsert`)
 * are written is the dialect's (Dialect.eventWriter): one atomic statement on PostgreSQL, steps
 * in one transaction on SQLite. So is a compare-and-set UPDATE with an INSERT and their events
 * (`recordWithGuardedChange`: a payment or a refund).
 */
export class EventRecorder {
  private readonly listeners = new Set<() => void>();
  private readonly writer: EventWriter;

  constructor(db: Kysely<Database>, dialect: Dialect) {
    this.writer = dialect.eventWriter(db, {
      takes: subscribes,
      onOutbox: () => {
        for (const listener of this.listeners) listener();
      },
    });
  }

  /** Called after an event went into the outbox (not yet committed): a nudge, not a promise. */
  onOutbox(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async record(t: Kysely<Database>, scope: Scope, type: EventType, object: unknown, now: Date): Promise<string> {
    return this.write(t, null, scope, type, object, now);
  }

  /**
   * The change's INSERT, its event and its outbox row, all or nothing; in the caller's transaction
   * when `executor` is one. A constraint the INSERT breaks throws, as the INSERT alone would.
   */
  async recordWithInsert(
    executor: Kysely<Database>,
    change: InsertChange,
    scope: Scope,
    type: EventType,
    object: unknown,
    now: Date,
  ): Promise<string> {
    return this.write(executor, change, scope, type, object, now);
  }

  /**
   * The guard's compare-and-set UPDATE, then (only when it matched) the INSERT and the events, in
   * order, with their outbox rows: all or nothing, in the caller's transaction when `executor` is
   * one. False, with nothing written, when the row had changed since it was read.
   */
  async recordWithGuardedChange(
    executor: Kysely<Database>,
    guard: GuardedUpdate,
    insert: InsertChange,
    scope: Scope,
    events: readonly { type: EventType; object: unknown }[],
    now: Date,
  ): Promise<boolean> {
    const rows = events.map(({ type, object }) => eventRow(newId('evt'), scope, type, JSON.stringify(object), now));
    return this.writer.writeGuarded(executor, guard, insert, rows);
  }

  /**
   * Claims a draft and numbers it with the next number of its sequence, with the row alongside
   * it, and writes its events (`types`, in order, each with the object `objectOf` makes with a
   * stand-in for the number); answers the number, or null when the draft was no longer as the
   * claim says (nothing is written). All or nothing, in the caller's transaction when `executor`
   * is one. On PostgreSQL all of it is one statement (EventWriter.writeNumbered), with no BEGIN or
   * COMMIT of its own, so the company's counter lock is held for that statement only. The object
   * may show the number only as given: nothing in it may be worked out from the number's text.
   */
  async recordNumbered(
    executor: Kysely<Database>,
    scope: Scope,
    types: EventType[],
    objectOf: (number: string) => unknown,
    change: Omit<NumberedClaim, 'placeholder'>,
    ways: NumberingWays<string | null>,
    now: Date,
  ): Promise<string | null> {
    const placeholder = numberStandIn();
    const json = JSON.stringify(objectOf(placeholder));
    const events = types.map((type) => eventRow(newId('evt'), scope, type, json, now));
    return this.writer.writeNumbered(executor, events, { ...change, placeholder }, ways);
  }

  /**
   * Inserts a row (a credit note, an issued invoice) with the next number of its sequence, with the rows that belong
   * to it (and the row alongside it), and writes its events (each object made by `objectOf` with a stand-in for the
   * number, which the writer replaces); answers the number. All or nothing, in the caller's transaction when
   * `executor` is one. On PostgreSQL all of it is one statement (EventWriter.writeNumberedInsert), with no BEGIN or
   * COMMIT of its own; elsewhere the row is numbered and inserted `inSteps`, in a transaction. As
   * for recordNumbered, nothing in an object may be worked out from the number's text. Events
   * given the same `objectOf` (an issued create's `invoice.created` and `invoice.finalized`)
   * share one object, made and written as JSON once. With the change's `guard` (a credit note's
   * change of its invoice) it answers null, with nothing written, when the guard matched no row.
   */
  async recordWithNumberedInsert<N extends string | null = string>(
    executor: Kysely<Database>,
    scope: Scope,
    events: readonly { type: EventType; objectOf: (number: string) => unknown }[],
    change: Omit<NumberedInsert, 'placeholder'>,
    ways: NumberingWays<N>,
    now: Date,
  ): Promise<N> {
    const placeholder = numberStandIn();
    const json = new Map<(number: string) => unknown, string>();
    const rows = events.map(({ type, objectOf }) => {
      let text = json.get(objectOf);
      if (text === undefined) {
        text = JSON.stringify(objectOf(placeholder));
        json.set(objectOf, text);
      }
      return eventRow(newId('evt'), scope, type, text, now);
    });
    return this.writer.writeNumberedInsert(executor, rows, { ...change, placeholder }, ways);
  }

  private async write(
    executor: Kysely<Database>,
    change: InsertChange | null,
    scope: Scope,
    type: EventType,
    object: unknown,
    now: Date,
  ): Promise<string> {
    const id = newId('evt');
    await this.writer.write(executor, eventRow(id, scope, type, JSON.stringify(object), now), change);
    return id;
  }
}

/**
 * A stand-in for a number not yet taken: random, so nothing an object holds can match it.
 * randomUUID (122 random bits) draws from entropy Node fetches in blocks: about 0.25 µs, where
 * randomBytes(16) went to OpenSSL on every create (about 5 µs, and 2 % of a create's profile).
 */
function numberStandIn(): string {
  return `number-${randomUUID()}`;
}

function eventRow(id: string, scope: Scope, type: EventType, json: string, now: Date): EventRow {
  return {
    id,
    company_id: scope.companyId,
    livemode: modeColumn(scope),
    type,
    request_id: scope.requestId,
    object: json,
    created_at: now.toISOString(),
  };
}
