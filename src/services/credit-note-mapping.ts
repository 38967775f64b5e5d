import type { HostedLinkFacts } from './hosted-link-port.js';
import type { EmailDelivery } from '../schemas/email-delivery.js';
import type { CreditNoteLineRow, CreditNoteRow } from '../repositories/credit-note-repository.js';
import type { CreditNote } from '../schemas/credit-note.js';
import { minorUnitDigits } from '../money/currency.js';
import { apiExtras, extrasOf } from './document-extras.js';
import { creditNoteSource } from './document-sources.js';
import { einvoiceReadinessOf } from './einvoice-readiness.js';
import { buyerFromSnapshot, sellerFromSnapshot } from './parties.js';
import { linesFromRows, pdfDigestsOf, totalsFromRow, type StoredVatBreakdown } from './invoice-mapping.js';

/** Stored rows to the credit note the API shows: what was stored, always. */
/** `deliveries`: the messages it was sent with, in a single credit note's answers and events, not in lists. */
export function creditNoteFromRows(
  row: CreditNoteRow,
  lines: CreditNoteLineRow[],
  deliveries?: EmailDelivery[],
  hosted?: HostedLinkFacts,
): CreditNote {
  return {
    id: row.id,
    livemode: row.livemode === 1,
    number: row.number,
    invoiceId: row.invoice_id,
    invoiceNumber: row.invoice_number,
    reason: row.reason,
    buyerReference: row.buyer_reference ?? null,
    purchaseOrderReference: row.purchase_order_reference ?? null,
    issueDate: row.issue_date,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyer: buyerFromSnapshot(row.buyer_snapshot),
    seller: sellerFromSnapshot(row.seller_snapshot),
    note: row.note,
    ...apiExtras(extrasOf(row)),
    lines: linesFromRows(lines),
    vatBreakdown: JSON.parse(row.vat_breakdown) as StoredVatBreakdown[],
    totals: totalsFromRow(row, minorUnitDigits(row.currency)),
    pdfSha256: pdfDigestsOf(row),
    einvoice: einvoiceReadinessOf(row.id, () => creditNoteSource(row, lines)),
    ...(deliveries ? { deliveries } : {}),
    ...(hosted ? { hostedUrl: hosted.hostedUrl, viewedAt: hosted.viewedAt } : {}),
    createdAt: row.created_at,
  };
}
