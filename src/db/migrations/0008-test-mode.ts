import type { Kysely } from 'kysely';

// Test mode: every company has a second, separate world for its test keys (inv_test_…). Rows
// that had no mode get one (live, as everything so far was), uniqueness and list order are
// per mode, and idempotency records are keyed by mode too: the same Idempotency-Key sent with a
// live and a test key is two requests. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_keys')
    .addColumn('livemode', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .alterTable('organizations')
    .addColumn('livemode', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.dropIndex('organizations_company_name_key_uq').execute();
  await db.schema
    .createIndex('organizations_company_name_key_uq')
    .on('organizations')
    .columns(['company_id', 'livemode', 'name_key'])
    .unique()
    .execute();

  // Lists read newest first within a company and mode.
  for (const table of ['organizations', 'invoices', 'credit_notes']) {
    await db.schema.dropIndex(`${table}_company_created_idx`).execute();
    await db.schema
      .createIndex(`${table}_company_created_idx`)
      .on(table)
      .columns(['company_id', 'livemode', 'created_at', 'id'])
      .execute();
  }

  // The primary key gains the mode: a new table, the records copied (a retry in flight during the
  // upgrade still finds its record), the old one dropped.
  await db.schema
    .createTable('idempotency_records')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('request_digest', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('owner_token', 'text', (c) => c.notNull())
    .addColumn('locked_at', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_records_pk', ['company_id', 'livemode', 'idempotency_key'])
    .execute();
  const columns = [
    'company_id',
    'idempotency_key',
    'request_digest',
    'state',
    'owner_token',
    'locked_at',
    'status_code',
    'response_body',
    'created_at',
    'expires_at',
  ];
  const any = db as Kysely<Record<string, Record<string, unknown>>>;
  await any
    .insertInto('idempotency_records')
    .columns([...columns, 'livemode'])
    .expression((eb) => eb.selectFrom('idempotency_keys').select([...columns, eb.lit(1).as('livemode')]))
    .execute();
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema
    .createIndex('idempotency_records_expires_idx')
    .on('idempotency_records')
    .column('expires_at')
    .execute();
}
