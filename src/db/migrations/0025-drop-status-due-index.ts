import type { Kysely } from 'kysely';

// The reminder pass reads its candidates through invoices_issued_idx (0024); nothing reads
// invoices_status_due_idx (0021) any more, and every insert of an invoice and every change of its
// status or due date still wrote to it. A company's overdue filter is read through the company's
// own index. Released migrations are never edited: this one drops it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('invoices_status_due_idx').ifExists().execute();
}
