import type { Kysely } from 'kysely';

// Quotes: offers to a buyer with the same content as an invoice (lines, totals, the EN 16931
// extras except payment means), their own gapless numbers (the `quote` sequence of
// number_sequences) and their life: draft, open, accepted or declined (expiry is read from
// valid_until, never stored). invoice_id is set once, in the transaction that creates the
// invoice made from the quote; the UPDATE that claims it (`invoiced_at IS NULL`) is what makes
// converting a quote happen exactly once. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('quotes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('number', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('issue_date', 'text')
    .addColumn('valid_until', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('prices_include_tax', 'integer', (c) => c.notNull())
    .addColumn('buyer_reference', 'text')
    .addColumn('purchase_order_reference', 'text')
    .addColumn('note', 'text')
    .addColumn('buyer_snapshot', 'text')
    .addColumn('seller_snapshot', 'text')
    .addColumn('payment_terms', 'text')
    .addColumn('delivery_date', 'text')
    .addColumn('invoice_period_start', 'text')
    .addColumn('invoice_period_end', 'text')
    .addColumn('allowances', 'text')
    .addColumn('charges', 'text')
    .addColumn('allowance_total', 'text')
    .addColumn('charge_total', 'text')
    .addColumn('vat_breakdown', 'text', (c) => c.notNull())
    .addColumn('line_net_total', 'text', (c) => c.notNull())
    .addColumn('tax_exclusive', 'text', (c) => c.notNull())
    .addColumn('tax_total', 'text', (c) => c.notNull())
    .addColumn('tax_inclusive', 'text', (c) => c.notNull())
    .addColumn('rounding_amount', 'text', (c) => c.notNull())
    .addColumn('payable', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('accepted_at', 'text')
    .addColumn('declined_at', 'text')
    .addColumn('invoiced_at', 'text')
    .addColumn('invoice_id', 'text', (c) => c.references('invoices.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // A number is handed out once per company and mode (NULL for drafts, which have none yet).
    .addUniqueConstraint('quotes_company_mode_number_uq', ['company_id', 'livemode', 'number'])
    .execute();
  // GET /quote pages a company's quotes newest first.
  await db.schema
    .createIndex('quotes_owner_created_idx')
    .on('quotes')
    .columns(['company_id', 'livemode', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('quote_lines')
    .addColumn('quote_id', 'text', (c) => c.notNull().references('quotes.id'))
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
    .addPrimaryKeyConstraint('quote_lines_pk', ['quote_id', 'position'])
    .execute();
}
