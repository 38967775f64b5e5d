import type { Kysely } from 'kysely';
import { dialectOf, partialIndexColumns } from '../dialect.js';

// The reminder pass reads its candidates in batches: issued invoices due by a date, after the last
// id of the batch before, by id. With only (status, due_date) to choose from, PostgreSQL walked the
// primary key and filtered (about 9,800 rows read per batch of 200 on a million invoices, the
// whole table each pass) and SQLite sorted every open invoice for each batch. An index of the
// issued invoices alone, by id with the due date beside it, is walked in the batch's order from
// the last id and stops after the batch; the due date is checked in the index. Partial, it holds
// only the invoices still open (1.5 MB on a million invoices of an older book, where one on
// (status, id, due_date) of every invoice took 82 MB), and a draft or a paid invoice never writes
// to it; a planner uses it for a query that names the status as this literal (the candidates
// query does). Its columns differ by database (partialIndexColumns). Released migrations are never
// edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('invoices_issued_idx')
    .on('invoices')
    .columns(partialIndexColumns(dialectOf(db), 'status', ['id', 'due_date']))
    .where('status', '=', 'issued')
    .execute();
}
