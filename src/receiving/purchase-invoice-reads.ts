import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { PurchaseInvoice, PurchaseInvoiceSummary } from '../schemas/purchase-invoice.js';
import type { Owner } from '../db/scope.js';
import { purchaseInvoiceOf, summaryOf, type RowExtras } from './purchase-invoice-mapping.js';
import type { ListCursor, PurchaseInvoiceFilter, PurchaseInvoiceRepository } from './purchase-invoice-repository.js';

// Received documents as the API answers them: one with everything, or a page of summaries, each
// with its files, payments and credit notes (read for the whole page at once).

export class PurchaseInvoiceReads {
  constructor(private readonly repository: PurchaseInvoiceRepository) {}

  private async extrasOf(owner: Owner, ids: string[], trx?: Kysely<Database>): Promise<Map<string, RowExtras>> {
    const [files, payments, creditNotes] = await Promise.all([
      this.repository.filesOf(owner, ids, trx),
      this.repository.paymentsOf(owner, ids, trx),
      this.repository.creditNotesOf(owner, ids, trx),
    ]);
    const extras = new Map<string, RowExtras>(ids.map((id) => [id, { files: [], payments: [], creditNoteIds: [] }]));
    for (const file of files) extras.get(file.purchase_invoice_id)?.files.push(file);
    for (const payment of payments) extras.get(payment.purchase_invoice_id)?.payments.push(payment);
    for (const note of creditNotes) if (note.corrects_id) extras.get(note.corrects_id)?.creditNoteIds.push(note.id);
    return extras;
  }

  async get(owner: Owner, id: string, trx?: Kysely<Database>): Promise<PurchaseInvoice | undefined> {
    const row = await this.repository.findById(owner, id, trx);
    if (!row) return undefined;
    return purchaseInvoiceOf(row, (await this.extrasOf(owner, [id], trx)).get(id)!);
  }

  /** Summaries newest first by arrival: up to `limit + 1`, the last telling that another page follows. */
  async list(
    owner: Owner,
    filter: PurchaseInvoiceFilter,
    page: { limit: number; after?: ListCursor; today: string },
  ): Promise<PurchaseInvoiceSummary[]> {
    const rows = await this.repository.list(owner, filter, page);
    const extras = await this.extrasOf(
      owner,
      rows.map((r) => r.id),
    );
    return rows.map((row) => summaryOf(row, extras.get(row.id)!));
  }
}
