import type { Kysely } from 'kysely';

// Draft quotes are edited like draft invoices (a version each edit checks, so that racing edits
// and a racing send have one winner), and an invoice remembers the quote it was made from: its
// id (the API's quoteId) and the quote's number, which its e-invoices carry as BT-17 (tender or
// lot reference) and its PDF shows. No foreign key on invoices.quote_id: quotes.invoice_id
// already points the other way, and a pair of keys would leave no order in which test data can
// be deleted. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('quotes')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('invoices').addColumn('quote_id', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('tender_reference', 'text').execute();
}
