import type { CreditFacts } from '../documents/index.js';
import { minorUnitDigits } from '../money/currency.js';
import { Decimal } from '../money/decimal.js';
import { formatMoney } from '../money/money.js';
import type { CreditNoteLineRow, CreditNoteRow } from '../repositories/credit-note-repository.js';
import type { InvoiceLineRow, InvoiceRow } from '../repositories/invoice-repository.js';
import { extrasOf } from './document-extras.js';
import type { DocumentSource } from './document-view.js';
import { draftLineOf } from './invoice-content.js';
import { buyerFromSnapshot, sellerFromSnapshot } from './parties.js';

// What an issued document's renderings (UBL, CII, PDF) and its e-invoice readiness are made of:
// what was stored when it was issued, in one place for every use.

/** How a credit note settled, as stored when it was issued (migration 0014 filled in the older ones). */
export function creditFactsOf(row: CreditNoteRow): CreditFacts {
  const digits = minorUnitDigits(row.currency);
  const payable = new Decimal(row.payable);
  const offset =
    row.offset_amount === null || row.offset_amount === undefined
      ? Decimal.max(payable, 0)
      : new Decimal(row.offset_amount);
  return {
    reason: row.reason,
    // Voiding writes this reason (settlement-service.ts); the PDF says it in the document's language.
    voids: row.reason === `Invoice ${row.invoice_number} voided.`,
    offset: formatMoney(offset, digits),
    refund: formatMoney(Decimal.max(payable.minus(offset), 0), digits),
  };
}

/** An issued invoice as its e-invoices are made of it (what was stored when it was issued). */
export function issuedInvoiceSource(row: InvoiceRow, lines: InvoiceLineRow[]): DocumentSource {
  return {
    typeCode: '380',
    number: row.number ?? row.draft_number ?? 'DRAFT',
    issueDate: row.issue_date!,
    dueDate: row.due_date,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyerReference: row.buyer_reference,
    purchaseOrderReference: row.purchase_order_reference,
    tenderReference: row.tender_reference,
    note: row.note,
    extras: extrasOf(row),
    seller: sellerFromSnapshot(row.seller_snapshot!),
    buyer: buyerFromSnapshot(row.buyer_snapshot!),
    lines: lines.map((line) => draftLineOf(line)),
    precedingInvoice: null,
    draft: false,
    test: row.livemode === 0,
    stored: { roundingAmount: row.rounding_amount, payable: row.payable },
    pdfNote: row.note,
  };
}

/** A credit note as its e-invoices are made of it. */
export function creditNoteSource(row: CreditNoteRow, lines: CreditNoteLineRow[]): DocumentSource {
  return {
    typeCode: '381',
    number: row.number,
    issueDate: row.issue_date,
    dueDate: null,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyerReference: row.buyer_reference ?? null,
    purchaseOrderReference: row.purchase_order_reference ?? null,
    note: [row.reason, row.note].filter(Boolean).join('\n'),
    extras: extrasOf(row),
    seller: sellerFromSnapshot(row.seller_snapshot),
    buyer: buyerFromSnapshot(row.buyer_snapshot),
    lines: lines.map((line) => draftLineOf(line)),
    precedingInvoice: { number: row.invoice_number, issueDate: row.invoice_issue_date },
    draft: false,
    test: row.livemode === 0,
    stored: { roundingAmount: row.rounding_amount, payable: row.payable },
    pdfNote: row.note,
    credit: creditFactsOf(row),
  };
}
