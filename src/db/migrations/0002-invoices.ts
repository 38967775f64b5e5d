import type { Kysely } from 'kysely';

// Invoices, their lines and the per-company, per-year number counters. Amounts are decimal
// text with exactly the currency's minor-unit digits; the buyer and seller are JSON snapshots
// taken at issue, so later edits of the organization or company do not alter an issued invoice.
// Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_tax', 'integer', (c) => c.notNull())
    .addColumn('buyer_reference', 'text')
    .addColumn('purchase_order_reference', 'text')
    .addColumn('note', 'text')
    .addColumn('buyer_snapshot', 'text', (c) => c.notNull())
    .addColumn('seller_snapshot', 'text', (c) => c.notNull())
    .addColumn('vat_breakdown', 'text', (c) => c.notNull())
    .addColumn('line_net_total', 'text', (c) => c.notNull())
    .addColumn('tax_exclusive', 'text', (c) => c.notNull())
    .addColumn('tax_total', 'text', (c) => c.notNull())
    .addColumn('tax_inclusive', 'text', (c) => c.notNull())
    .addColumn('rounding_amount', 'text', (c) => c.notNull())
    .addColumn('payable', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Numbers are unique per company; INSERT ... ON CONFLICT (company_id, number) relies on it.
    .addUniqueConstraint('invoices_company_number_uq', ['company_id', 'number'])
    .execute();
  await db.schema.createIndex('invoices_organization_idx').on('invoices').column('organization_id').execute();

  await db.schema
    .createTable('invoice_lines')
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
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
    .addPrimaryKeyConstraint('invoice_lines_pk', ['invoice_id', 'position'])
    .execute();

  // One row per company and year; its last_value is the last number handed out. Taken with an
  // upsert in the transaction that inserts the invoice, so a rollback returns the number.
  await db.schema
    .createTable('invoice_counters')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_value', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_counters_pk', ['company_id', 'year'])
    .execute();
}
