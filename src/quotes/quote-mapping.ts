import { minorUnitDigits } from '../money/currency.js';
import type { Quote } from '../schemas/quote.js';
import { apiExtras, extrasOf } from '../services/document-extras.js';
import { linesFromRows, totalsFromRow, type StoredVatBreakdown } from '../services/invoice-mapping.js';
import { buyerFromSnapshot, sellerFromSnapshot, type Buyer, type Seller } from '../services/parties.js';
import type { HostedLinkFacts } from '../services/hosted-link-port.js';
import { formatInvoiceNumber } from '../services/invoice-numbering.js';
import type { QuoteLineRow, QuoteRow } from './quote-repository.js';

// Stored rows to the quote the API shows, with the invoice's own line and totals mapping. A
// draft shows its buyer and seller as they are now; a sent quote the snapshots taken when sent.

/** Quote numbers: Q-2026-00001, their own gapless counter per company, year and mode. */
export function formatQuoteNumber(year: number, value: number): string {
  return `Q-${formatInvoiceNumber(year, value)}`;
}

/** Test mode's quote numbers (TEST-Q-2026-00001): never the live counter. */
export function formatTestQuoteNumber(year: number, value: number): string {
  return `TEST-${formatQuoteNumber(year, value)}`;
}

/** What the quote is, as the API shows it: open past its validUntil (UTC) reads as expired. */
export function quoteStatusOf(row: Pick<QuoteRow, 'status' | 'valid_until'>, today: string): Quote['status'] {
  return row.status === 'open' && row.valid_until !== null && row.valid_until < today ? 'expired' : row.status;
}

export function quoteFromRows(
  row: QuoteRow,
  lines: QuoteLineRow[],
  extras: { today: string; current?: { buyer: Buyer; seller: Seller }; hosted?: HostedLinkFacts },
): Quote {
  const draft = row.status === 'draft';
  if (draft && !extras.current)
    throw new Error(`The draft quote ${row.id} needs its current buyer and seller to be shown`);
  const { paymentTerms, deliveryDate, invoicePeriod, allowances, charges } = apiExtras(
    extrasOf({ ...row, payment_means: null }),
  );
  return {
    id: row.id,
    livemode: row.livemode === 1,
    number: row.number,
    status: quoteStatusOf(row, extras.today),
    organizationId: row.organization_id,
    buyer: draft ? extras.current!.buyer : buyerFromSnapshot(row.buyer_snapshot!),
    seller: draft ? extras.current!.seller : sellerFromSnapshot(row.seller_snapshot!),
    issueDate: row.issue_date,
    validUntil: row.valid_until,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyerReference: row.buyer_reference,
    purchaseOrderReference: row.purchase_order_reference,
    note: row.note,
    paymentTerms,
    deliveryDate,
    invoicePeriod,
    allowances,
    charges,
    lines: linesFromRows(lines),
    vatBreakdown: JSON.parse(row.vat_breakdown) as StoredVatBreakdown[],
    totals: totalsFromRow(row, minorUnitDigits(row.currency)),
    invoiceId: row.invoice_id,
    statusTransitions: {
      sentAt: row.sent_at,
      acceptedAt: row.accepted_at,
      declinedAt: row.declined_at,
      invoicedAt: row.invoiced_at,
    },
    // Answers about one quote show its page; lists leave it out (as the invoice's do).
    ...(extras.hosted ? { hostedUrl: extras.hosted.hostedUrl, viewedAt: extras.hosted.viewedAt } : {}),
    createdAt: row.created_at,
  };
}
