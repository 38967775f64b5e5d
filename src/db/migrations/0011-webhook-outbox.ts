import type { Kysely } from 'kysely';

// The webhook outbox. A change used to write one delivery row per subscribed endpoint in its own
// transaction: on PostgreSQL each is a row over three indexes and three foreign-key checks, and
// with an endpoint that never answers POST /invoice ran at 0.64–0.86 of its rate without one.
// Now the change's transaction writes its event and, when an enabled endpoint takes that event,
// one small outbox row (no foreign keys, one index); the delivery worker turns outbox rows into
// deliveries in batches, in one transaction that also deletes them, so an event is dispatched
// exactly once even with several instances (FOR UPDATE SKIP LOCKED on PostgreSQL). The rows are
// durable: a SIGKILL between the change and the dispatch loses nothing. Released migrations are
// never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_outbox')
    // Ids are time-ordered: the primary key is also the order events are dispatched in.
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    // What the dispatch needs to choose endpoints, so that it never reads the event's own row.
    .addColumn('company_id', 'text', (c) => c.notNull())
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
