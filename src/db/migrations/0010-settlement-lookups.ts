import type { Kysely } from 'kysely';

// An invoice's payments and credit notes are looked up by owner and invoice: company, mode and
// invoice id. With only (invoice_id, …) and (company_id, livemode, created_at, id) to choose from,
// SQLite's planner (which has no statistics) took the one with more equalities and read every
// credit note of the company on each GET /invoice/{id}: 8 ms a read after 12,000 credit notes.
// An index on all three makes the lookup one seek on both databases. Released migrations are
// never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('payments_owner_invoice_idx')
    .on('payments')
    .columns(['company_id', 'livemode', 'invoice_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('credit_notes_owner_invoice_idx')
    .on('credit_notes')
    .columns(['company_id', 'livemode', 'invoice_id', 'created_at', 'id'])
    .execute();
}
