import type { HostedLinkFacts } from './hosted-link-port.js';
import type { Reminder } from '../schemas/reminder.js';
import type { EmailDelivery } from '../schemas/email-delivery.js';
import { Decimal } from '../money/decimal.js';
import { formatMoney } from '../money/money.js';
import { minorUnitDigits } from '../money/currency.js';
import type { PdfDigestColumns } from '../db/schema.js';
import type { InvoiceLineRow, InvoiceRow, PaymentRow } from '../repositories/invoice-repository.js';
import type { Invoice } from '../schemas/invoice.js';
import { apiExtras, extrasOf } from './document-extras.js';
import { issuedInvoiceSource } from './document-sources.js';
import { einvoiceReadinessOf } from './einvoice-readiness.js';
import { buyerFromSnapshot, sellerFromSnapshot } from './parties.js';
import { lineFieldsOf, type LineColumns } from './stored-line.js';

// Stored rows to the invoice the API shows. What is shown is what was stored, so an answer built
// right after a change and one read back later are the same. A draft has no snapshots: it shows
// its buyer and seller as they are now.

export type StoredVatBreakdown = Invoice['vatBreakdown'][number];
export type StoredLine = Invoice['lines'][number];

export interface InvoiceExtras {
  /** Its payments and refunds (rows of either kind), oldest first. */
  payments: PaymentRow[];
  creditNoteIds: string[];
  /** For a draft: the buyer and seller as they are now. */
  current?: { buyer: Invoice['buyer']; seller: Invoice['seller'] };
  /** YYYY-MM-DD, UTC: for isOverdue. */
  today: string;
  /** The messages it was sent with: in a single invoice's answers and events, not in lists. */
  deliveries?: EmailDelivery[];
  /** Its hosted page's link and first view: in a single invoice's answers and events, not in lists. */
  hosted?: HostedLinkFacts;
  /** Its reminders (sent and skipped levels): in a single invoice's answers and events, not in lists. */
  reminders?: Reminder[];
}

export function linesFromRows(lines: LineColumns[]): StoredLine[] {
  return [...lines]
    .sort((a, b) => a.position - b.position)
    .map((line) => ({ position: line.position, ...lineFieldsOf(line), netAmount: line.net_amount }));
}

export function totalsFromRow(
  row: Pick<
    InvoiceRow,
    | 'line_net_total'
    | 'allowance_total'
    | 'charge_total'
    | 'tax_exclusive'
    | 'tax_total'
    | 'tax_inclusive'
    | 'rounding_amount'
    | 'payable'
  >,
  digits: number,
): Invoice['totals'] {
  // Documents stored before allowances and charges existed have none.
  const zero = formatMoney(new Decimal(0), digits);
  return {
    lineNetTotal: row.line_net_total,
    allowanceTotal: row.allowance_total ?? zero,
    chargeTotal: row.charge_total ?? zero,
    taxExclusive: row.tax_exclusive,
    taxTotal: row.tax_total,
    taxInclusive: row.tax_inclusive,
    roundingAmount: row.rounding_amount,
    payable: row.payable,
  };
}

/** The recorded SHA-256 of the document's PDF per language (none for a draft). */
export function pdfDigestsOf(row: PdfDigestColumns): Invoice['pdfSha256'] {
  return { en: row.pdf_sha256_en ?? null, de: row.pdf_sha256_de ?? null, fr: row.pdf_sha256_fr ?? null };
}

/** payable − credited − paid + refunded, exactly: negative while the buyer is owed money back. */
export function amountDueOf(
  row: Pick<InvoiceRow, 'payable' | 'amount_paid' | 'amount_credited' | 'amount_refunded'>,
): Decimal {
  return new Decimal(row.payable).minus(row.amount_credited).minus(row.amount_paid).plus(row.amount_refunded);
}

/** A payment or refund row as the invoice lists it. */
function paymentOf(p: PaymentRow, money: (value: string) => string) {
  return {
    id: p.id,
    livemode: p.livemode === 1,
    amount: money(p.amount),
    date: p.date,
    method: p.method as Invoice['payments'][number]['method'],
    reference: p.reference,
    createdAt: p.created_at,
  };
}

export function invoiceFromRows(row: InvoiceRow, lines: InvoiceLineRow[], extras: InvoiceExtras): Invoice {
  const digits = minorUnitDigits(row.currency);
  const money = (value: Decimal | string) => formatMoney(new Decimal(value), digits);
  const amountDue = amountDueOf(row);
  const draft = row.status === 'draft';
  if (draft && !extras.current) throw new Error(`The draft ${row.id} needs its current buyer and seller to be shown`);
  return {
    id: row.id,
    livemode: row.livemode === 1,
    number: draft ? row.draft_number : row.number,
    status: row.status,
    organizationId: row.organization_id,
    buyer: draft ? extras.current!.buyer : buyerFromSnapshot(row.buyer_snapshot!),
    seller: draft ? extras.current!.seller : sellerFromSnapshot(row.seller_snapshot!),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyerReference: row.buyer_reference,
    purchaseOrderReference: row.purchase_order_reference,
    tenderReference: row.tender_reference,
    quoteId: row.quote_id,
    note: row.note,
    ...apiExtras(extrasOf(row)),
    lines: linesFromRows(lines),
    vatBreakdown: JSON.parse(row.vat_breakdown) as StoredVatBreakdown[],
    totals: totalsFromRow(row, digits),
    amountPaid: money(row.amount_paid),
    amountCredited: money(row.amount_credited),
    amountRefunded: money(row.amount_refunded),
    amountDue: money(amountDue),
    isOverdue:
      row.status === 'issued' && amountDue.greaterThan(0) && row.due_date !== null && row.due_date < extras.today,
    payments: extras.payments.filter((p) => p.kind !== 'refund').map((p) => paymentOf(p, money)),
    refunds: extras.payments.filter((p) => p.kind === 'refund').map((p) => paymentOf(p, money)),
    creditNoteIds: extras.creditNoteIds,
    einvoice: draft ? null : einvoiceReadinessOf(row.id, () => issuedInvoiceSource(row, lines)),
    statusTransitions: { finalizedAt: row.finalized_at, paidAt: row.paid_at, voidedAt: row.voided_at },
    pdfSha256: pdfDigestsOf(row),
    ...(extras.deliveries ? { deliveries: extras.deliveries } : {}),
    ...(extras.hosted ? { hostedUrl: extras.hosted.hostedUrl, viewedAt: extras.hosted.viewedAt } : {}),
    ...(extras.reminders ? { reminders: extras.reminders } : {}),
    createdAt: row.created_at,
  };
}
