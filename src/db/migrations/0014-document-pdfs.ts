import type { Kysely } from 'kysely';
import { Decimal } from '../../money/decimal.js';

// What a PDF needs to tell the truth and never change:
// - pdf_sha256_<lang> on invoices and credit notes: the SHA-256 of an issued document's PDF in
//   that language, recorded the first time it is rendered (rendering is deterministic, so every
//   later download has the same bytes; the answer of the document shows it).
// - credit_notes.offset_amount: how much of a credit note went against the invoice's open
//   balance when it was issued (the rest is owed back to the buyer); its PDF says so. Credit
//   notes issued before this migration get it from the invoice's history: its payable less the
//   credit notes and payments recorded before them.
// Released migrations are never edited.

const LANGUAGES = ['en', 'de', 'fr'];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['invoices', 'credit_notes']) {
    for (const lang of LANGUAGES) await db.schema.alterTable(table).addColumn(`pdf_sha256_${lang}`, 'text').execute();
  }
  await db.schema.alterTable('credit_notes').addColumn('offset_amount', 'text').execute();
  await backfillOffsets(db as Kysely<History>);
}

interface History {
  invoices: { id: string; payable: string };
  credit_notes: { id: string; invoice_id: string; payable: string; created_at: string; offset_amount: string | null };
  payments: { invoice_id: string; amount: string; created_at: string };
}

async function backfillOffsets(db: Kysely<History>): Promise<void> {
  const notes = await db
    .selectFrom('credit_notes')
    .select(['id', 'invoice_id', 'payable', 'created_at'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (notes.length === 0) return;
  const invoiceIds = [...new Set(notes.map((n) => n.invoice_id))];
  const payables = new Map<string, string>();
  const payments = new Map<string, { amount: string; created_at: string }[]>();
  for (let i = 0; i < invoiceIds.length; i += 500) {
    const ids = invoiceIds.slice(i, i + 500);
    for (const row of await db.selectFrom('invoices').select(['id', 'payable']).where('id', 'in', ids).execute())
      payables.set(row.id, row.payable);
    for (const row of await db
      .selectFrom('payments')
      .select(['invoice_id', 'amount', 'created_at'])
      .where('invoice_id', 'in', ids)
      .execute()) {
      payments.set(row.invoice_id, [...(payments.get(row.invoice_id) ?? []), row]);
    }
  }
  const credited = new Map<string, Decimal>();
  for (const note of notes) {
    const before = credited.get(note.invoice_id) ?? new Decimal(0);
    const paid = (payments.get(note.invoice_id) ?? [])
      .filter((p) => p.created_at <= note.created_at)
      .reduce((sum, p) => sum.plus(p.amount), new Decimal(0));
    const open = Decimal.max(new Decimal(payables.get(note.invoice_id) ?? '0').minus(before).minus(paid), 0);
    const payable = new Decimal(note.payable);
    const offset = Decimal.max(Decimal.min(payable, open), 0);
    credited.set(note.invoice_id, before.plus(payable));
    await db
      .updateTable('credit_notes')
      .set({ offset_amount: offset.toFixed(note.payable.split('.')[1]?.length ?? 0) })
      .where('id', '=', note.id)
      .execute();
  }
}
