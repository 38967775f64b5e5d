import type { Kysely } from 'kysely';

// Events and webhooks (Svix's model): every change writes an event row in the change's own
// transaction, and one delivery row per webhook endpoint that wants it in that same transaction,
// so no change goes without its event and no event without its deliveries. A worker leases due
// deliveries and records each attempt. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // The request that made the change; null for changes made outside a request.
    .addColumn('request_id', 'text')
    // JSON: the resource as the API answered it at that moment.
    .addColumn('object', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('events_company_created_idx')
    .on('events')
    .columns(['company_id', 'livemode', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('events_created_idx').on('events').column('created_at').execute();

  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    // JSON array of event types, or ["*"].
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // Why it was disabled: null (enabled, or by hand), or 'failing' (every delivery failed for days).
    .addColumn('disabled_reason', 'text')
    // The signing secret, encrypted (AES-256-GCM with the service's data key); never in clear.
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    // After a rotation, the previous secret signs alongside until previous_secret_expires_at.
    .addColumn('previous_secret_sealed', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    // The first failure of the current run of failures; null once a delivery succeeds.
    .addColumn('failing_since', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_endpoints_company_idx')
    .on('webhook_endpoints')
    .columns(['company_id', 'livemode', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'text', (c) => c.notNull().references('events.id'))
    // pending, succeeded, failed (the retry schedule is spent)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    // Which worker holds it, until when (a worker that dies lets its lease run out).
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The worker looks for due deliveries endpoint by endpoint: a backlog of one (a receiver that
  // hangs) is never scanned to find another's.
  await db.schema
    .createIndex('webhook_deliveries_due_idx')
    .on('webhook_deliveries')
    .columns(['endpoint_id', 'status', 'next_attempt_at'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_event_idx').on('webhook_deliveries').column('event_id').execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id'))
    .addColumn('endpoint_id', 'text', (c) => c.notNull().references('webhook_endpoints.id'))
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('attempted_at', 'text', (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    // The receiver's HTTP status; null when there was no answer (timeout, refused, SSRF block).
    .addColumn('status_code', 'integer')
    .addColumn('succeeded', 'integer', (c) => c.notNull())
    // At most the first 1 KB of the receiver's answer, or the reason there was none.
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .execute();
  await db.schema
    .createIndex('webhook_attempts_endpoint_idx')
    .on('webhook_attempts')
    .columns(['endpoint_id', 'attempted_at'])
    .execute();
}
