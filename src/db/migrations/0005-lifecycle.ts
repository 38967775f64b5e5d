import { PostgresAdapter, sql, type Kysely } from 'kysely';

// The invoice lifecycle: drafts (no number, no issue date, no snapshots yet), payments, credit
// notes with their own gapless numbers, voiding, archived organizations. Released migrations are
// never edited.
//
// - invoices.number becomes nullable (a draft has none); a draft's requested number waits in
//   draft_number until it is finalized. `version` counts a draft's edits, so a finalize that read
//   an older version retries instead of issuing something else than it checked.
// - amount_paid and amount_credited are kept on the invoice, updated in the transaction of each
//   payment and credit note with a compare-and-set, so that racing ones never overpay or
//   over-credit. Plain decimal text; the API shows them in the currency's digits.
// - One counter table for every numbered sequence (invoice, credit-note), per company, mode and
//   year, replacing invoice_counters. `livemode` (1 live, 0 test) is carried by the new tables and
//   the unique indexes now, so that test mode needs no rebuild later.
// - The invoice number's uniqueness becomes a unique index (SQLite cannot drop a table constraint
//   without rebuilding the table; an index can be replaced by a later migration).

const INVOICE_COLUMNS = `
  id text primary key,
  company_id text not null references companies(id),
  organization_id text not null references organizations(id),
  number text,
  draft_number text,
  status text not null,
  issue_date text,
  due_date text,
  currency text not null,
  prices_include_tax integer not null,
  buyer_reference text,
  purchase_order_reference text,
  note text,
  buyer_snapshot text,
  seller_snapshot text,
  vat_breakdown text not null,
  line_net_total text not null,
  tax_exclusive text not null,
  tax_total text not null,
  tax_inclusive text not null,
  rounding_amount text not null,
  payable text not null,
  amount_paid text not null default '0',
  amount_credited text not null default '0',
  finalized_at text,
  paid_at text,
  voided_at text,
  version integer not null default 1,
  livemode integer not null default 1,
  created_at text not null,
  updated_at text not null`;

const COPIED = [
  'id',
  'company_id',
  'organization_id',
  'number',
  'status',
  'issue_date',
  'due_date',
  'currency',
  'prices_include_tax',
  'buyer_reference',
  'purchase_order_reference',
  'note',
  'buyer_snapshot',
  'seller_snapshot',
  'vat_breakdown',
  'line_net_total',
  'tax_exclusive',
  'tax_total',
  'tax_inclusive',
  'rounding_amount',
  'payable',
  'created_at',
].join(', ');

async function reshapeInvoicesOnSqlite(db: Kysely<unknown>): Promise<void> {
  // SQLite cannot drop NOT NULL: the table is rebuilt (its documented procedure). Foreign keys
  // from invoice_lines are checked at commit, when the new table carries the old name again.
  await db.transaction().execute(async (trx) => {
    await sql`pragma defer_foreign_keys = on`.execute(trx);
    await sql.raw(`create table invoices_next (${INVOICE_COLUMNS})`).execute(trx);
    await sql
      .raw(
        `insert into invoices_next (${COPIED}, finalized_at, updated_at) select ${COPIED}, created_at, created_at from invoices`,
      )
      .execute(trx);
    await sql`drop table invoices`.execute(trx);
    await sql`alter table invoices_next rename to invoices`.execute(trx);
    await sql`create index invoices_organization_idx on invoices (organization_id)`.execute(trx);
    await sql`create index invoices_company_created_idx on invoices (company_id, created_at, id)`.execute(trx);
    await sql`create unique index invoices_number_uq on invoices (company_id, livemode, number)`.execute(trx);
  });
}

async function reshapeInvoicesOnPostgres(db: Kysely<unknown>): Promise<void> {
  await sql`alter table invoices alter column number drop not null`.execute(db);
  await sql`alter table invoices alter column issue_date drop not null`.execute(db);
  await sql`alter table invoices alter column due_date drop not null`.execute(db);
  await sql`alter table invoices alter column buyer_snapshot drop not null`.execute(db);
  await sql`alter table invoices alter column seller_snapshot drop not null`.execute(db);
  await sql`alter table invoices add column draft_number text`.execute(db);
  await sql`alter table invoices add column amount_paid text not null default '0'`.execute(db);
  await sql`alter table invoices add column amount_credited text not null default '0'`.execute(db);
  await sql`alter table invoices add column finalized_at text`.execute(db);
  await sql`alter table invoices add column paid_at text`.execute(db);
  await sql`alter table invoices add column voided_at text`.execute(db);
  await sql`alter table invoices add column version integer not null default 1`.execute(db);
  await sql`alter table invoices add column livemode integer not null default 1`.execute(db);
  await sql`alter table invoices add column updated_at text`.execute(db);
  await sql`update invoices set finalized_at = created_at, updated_at = created_at`.execute(db);
  await sql`alter table invoices alter column updated_at set not null`.execute(db);
  await sql`create unique index invoices_number_uq on invoices (company_id, livemode, number)`.execute(db);
  await sql`alter table invoices drop constraint invoices_company_number_uq`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await reshapeInvoicesOnPostgres(db);
  else await reshapeInvoicesOnSqlite(db);

  await db.schema
    .createTable('number_sequences')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('sequence', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('number_sequences_pk', ['company_id', 'livemode', 'sequence', 'year'])
    .execute();
  await sql`insert into number_sequences (company_id, livemode, sequence, year, last_value)
            select company_id, 1, 'invoice', year, last_value from invoice_counters`.execute(db);
  await db.schema.dropTable('invoice_counters').execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('payments_invoice_idx').on('payments').columns(['invoice_id', 'created_at']).execute();

  await db.schema
    .createTable('credit_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('invoice_number', 'text', (c) => c.notNull())
    .addColumn('invoice_issue_date', 'text', (c) => c.notNull())
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_tax', 'integer', (c) => c.notNull())
    .addColumn('buyer_snapshot', 'text', (c) => c.notNull())
    .addColumn('seller_snapshot', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('vat_breakdown', 'text', (c) => c.notNull())
    .addColumn('line_net_total', 'text', (c) => c.notNull())
    .addColumn('tax_exclusive', 'text', (c) => c.notNull())
    .addColumn('tax_total', 'text', (c) => c.notNull())
    .addColumn('tax_inclusive', 'text', (c) => c.notNull())
    .addColumn('rounding_amount', 'text', (c) => c.notNull())
    .addColumn('payable', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('credit_notes_number_uq')
    .on('credit_notes')
    .columns(['company_id', 'livemode', 'number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('credit_notes_company_created_idx')
    .on('credit_notes')
    .columns(['company_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('credit_notes_invoice_idx')
    .on('credit_notes')
    .columns(['invoice_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('credit_note_lines')
    .addColumn('credit_note_id', 'text', (c) => c.notNull().references('credit_notes.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('quantity', 'text', (c) => c.notNull())
    .addColumn('unit_code', 'text', (c) => c.notNull())
    .addColumn('unit_price', 'text', (c) => c.notNull())
    .addColumn('discount_percent', 'text')
    .addColumn('vat_rate', 'text', (c) => c.notNull())
    .addColumn('vat_category', 'text', (c) => c.notNull())
    .addColumn('exemption_reason', 'text')
    .addColumn('net_amount', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_note_lines_pk', ['credit_note_id', 'position'])
    .execute();

  await db.schema.alterTable('organizations').addColumn('archived_at', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('updated_at', 'text').execute();
  await sql`update organizations set updated_at = created_at`.execute(db);
}
