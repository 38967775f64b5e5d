import type { Kysely } from 'kysely';

// What EN 16931 e-invoices need beyond the invoice model: the seller's profile (legal name,
// address, tax ids, electronic address, contact, bank account, default payment terms), the
// buyer's electronic address and legal registration id, and per invoice and credit note the
// payment means, payment terms, delivery date or period and document allowances and charges.
// Company profile changes are kept in an audit trail (a changed IBAN is the classic
// invoice-redirection fraud). Released migrations are never edited.

const COMPANY_COLUMNS = [
  'legal_name',
  'address_line1',
  'address_line2',
  'address_city',
  'address_postal_code',
  'tax_number',
  'legal_registration_id',
  'electronic_address_scheme',
  'electronic_address_id',
  'contact_name',
  'contact_phone',
  'contact_email',
  'iban',
  'bic',
  'account_name',
  'payment_terms',
  'creditor_id',
  'updated_at',
];

// JSON for the nested inputs (payment means, allowances, charges): they are read and written
// whole, with the invoice.
const DOCUMENT_COLUMNS: [string, 'text'][] = [
  ['payment_means', 'text'],
  ['payment_terms', 'text'],
  ['delivery_date', 'text'],
  ['invoice_period_start', 'text'],
  ['invoice_period_end', 'text'],
  ['allowances', 'text'],
  ['charges', 'text'],
  ['allowance_total', 'text'],
  ['charge_total', 'text'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COMPANY_COLUMNS) await db.schema.alterTable('companies').addColumn(column, 'text').execute();

  await db.schema.alterTable('organizations').addColumn('electronic_address_scheme', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('electronic_address_id', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('legal_registration_id', 'text').execute();

  for (const table of ['invoices', 'credit_notes']) {
    for (const [column, type] of DOCUMENT_COLUMNS) await db.schema.alterTable(table).addColumn(column, type).execute();
  }
  // A credit note carries its invoice's references (Peppol requires a buyer or order reference).
  await db.schema.alterTable('credit_notes').addColumn('buyer_reference', 'text').execute();
  await db.schema.alterTable('credit_notes').addColumn('purchase_order_reference', 'text').execute();

  await db.schema
    .createTable('company_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    // JSON: { field: { from, to } } for each field the change touched.
    .addColumn('changes', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'text', (c) => c.references('users.id'))
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('company_events_company_at_idx')
    .on('company_events')
    .columns(['company_id', 'at'])
    .execute();
}
