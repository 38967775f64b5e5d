import type { ErrorDetail } from '../errors/app-error.js';
import type { CreateQuoteInput } from '../schemas/quote.js';
import { apiExtras, extrasOf } from '../services/document-extras.js';
import { readInvoiceContent } from '../services/invoice-input.js';
import { lineFieldsOf } from '../services/stored-line.js';
import type { QuoteLineRow, QuoteRow } from './quote-repository.js';

// A quote's body as the invoice's own input checks read it (its validUntil is the invoice's
// dueDate there, and comes back under its own name), and a stored draft as the body it would
// have been: what a PATCH is merged into.

/** The content of a quote's body: the create body without its status. */
export type QuoteContentInput = Omit<CreateQuoteInput, 'status'>;

/** A stored draft as its create body would be: what a PATCH is merged into. */
export function contentInputOf(row: QuoteRow, lines: QuoteLineRow[]): QuoteContentInput {
  const { paymentTerms, deliveryDate, invoicePeriod, allowances, charges } = apiExtras(
    extrasOf({ ...row, payment_means: null }),
  );
  return {
    organizationId: row.organization_id,
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
    // A stored line as the create body had it: what a PATCH without `lines` keeps.
    lines: lines.map(lineFieldsOf),
  };
}

/** The fields of a PATCH body that were sent (undefined ones are not). */
export function withoutUndefined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** The invoice body's field names where a quote names them otherwise. */
export function asQuoteDetails(details: ErrorDetail[]): ErrorDetail[] {
  return details.map((d) =>
    d.field === 'dueDate' ? { ...d, field: 'validUntil', message: d.message.replace('due date', 'validity date') } : d,
  );
}

/** A quote's body read and checked by the invoice's own rules; its validUntil is the invoice's dueDate there. */
export function readQuoteContent(body: QuoteContentInput, currency: string) {
  const { validUntil, ...rest } = body;
  const read = readInvoiceContent(
    { ...rest, number: null, dueDate: validUntil ?? null, paymentMeans: null },
    { currency },
  );
  return read.ok
    ? read
    : { ok: false as const, code: 'VALIDATION_ERROR' as const, details: asQuoteDetails(read.details) };
}
