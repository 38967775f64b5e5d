import type { Kysely } from 'kysely';

// Idempotency records (one per company and Idempotency-Key) and the indexes the reading routes
// page through: newest first by (created_at, id) within a company. Released migrations are
// never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    // sha256 of the canonical JSON of the operation and its body: a repeat must match it.
    .addColumn('request_digest', 'text', (c) => c.notNull())
    // 'running' (committed before the work starts, so a concurrent repeat sees it) or 'done'.
    .addColumn('state', 'text', (c) => c.notNull())
    // Who runs the request; a stale 'running' record is taken over by changing it.
    .addColumn('owner_token', 'text', (c) => c.notNull())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // The key is scoped to the company: the same key of two companies are two records.
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['company_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires_idx').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createIndex('organizations_company_created_idx')
    .on('organizations')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('invoices_company_created_idx')
    .on('invoices')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
}
