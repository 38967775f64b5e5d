import type { CreditNoteLineRow, CreditNoteRow } from '../repositories/credit-note-repository.js';
import type { CreditNote } from '../schemas/credit-note.js';
import type { Invoice } from '../schemas/invoice.js';
import { linesFromRows, totalsFromRow, type StoredVatBreakdown } from './invoice-mapping.js';

/** Stored rows to the credit note the API shows: what was stored, always. */
export function creditNoteFromRows(row: CreditNoteRow, lines: CreditNoteLineRow[]): CreditNote {
  return {
    id: row.id,
    number: row.number,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    reason: row.reason,
    issueDate: row.issue_date,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyer: JSON.parse(row.buyer_snapshot) as Invoice['buyer'],
    seller: JSON.parse(row.seller_snapshot) as Invoice['seller'],
    note: row.note,
    lines: linesFromRows(lines),
    vatBreakdown: JSON.parse(row.vat_breakdown) as StoredVatBreakdown[],
    totals: totalsFromRow(row),
    createdAt: row.created_at,
  };
}
