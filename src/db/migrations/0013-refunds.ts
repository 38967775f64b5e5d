import type { Kysely } from 'kysely';

// Refunds: money paid back to the buyer, when credit notes on a paid invoice leave it owing the
// buyer (amountDue < 0). A refund is a row of `payments` of kind 'refund' (its amount positive),
// so that GET /payment lists payments and refunds in one keyset order; the invoice keeps the sum
// of its refunds in amount_refunded beside amount_paid and amount_credited, changed with the same
// compare-and-set, so racing refunds cannot pay back more than is owed.
// GET /payment pages a company's payments newest first: (company_id, livemode, created_at, id).
// Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('payments')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('payment'))
    .execute();
  await db.schema
    .alterTable('invoices')
    .addColumn('amount_refunded', 'text', (c) => c.notNull().defaultTo('0'))
    .execute();
  await db.schema
    .createIndex('payments_owner_created_idx')
    .on('payments')
    .columns(['company_id', 'livemode', 'created_at', 'id'])
    .execute();
}
