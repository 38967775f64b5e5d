import { ORGANIZATION_ID, invoice } from './examples.js';

// The quote the OpenAPI examples show: the example invoice's content offered first, as a draft,
// open, accepted and made into that invoice. Each is validated against its schema by a test.

export const QUOTE_ID = 'quo_01956a3b-5d21-7a10-8c3e-1f2a3b4c5d6e';

const {
  buyer,
  seller,
  lines,
  vatBreakdown,
  totals,
  currency,
  pricesIncludeTax,
  buyerReference,
  note,
  deliveryDate,
  invoicePeriod,
  allowances,
  charges,
} = invoice;

export const openQuote = {
  id: QUOTE_ID,
  livemode: true,
  number: 'Q-2026-00017',
  status: 'open',
  organizationId: ORGANIZATION_ID,
  buyer,
  seller,
  issueDate: '2026-02-16',
  validUntil: '2026-03-18',
  currency,
  pricesIncludeTax,
  buyerReference,
  purchaseOrderReference: 'PO-7781',
  note,
  paymentTerms: null,
  deliveryDate,
  invoicePeriod,
  allowances,
  charges,
  lines,
  vatBreakdown,
  totals,
  invoiceId: null,
  statusTransitions: { sentAt: '2026-02-16T10:02:41.020Z', acceptedAt: null, declinedAt: null, invoicedAt: null },
  createdAt: '2026-02-16T10:02:41.020Z',
};

export const draftQuote = {
  ...openQuote,
  number: null,
  status: 'draft',
  issueDate: null,
  validUntil: null,
  statusTransitions: { ...openQuote.statusTransitions, sentAt: null },
};

export const acceptedQuote = {
  ...openQuote,
  status: 'accepted',
  statusTransitions: { ...openQuote.statusTransitions, acceptedAt: '2026-02-27T14:40:12.500Z' },
};

export const declinedQuote = {
  ...openQuote,
  status: 'declined',
  statusTransitions: { ...openQuote.statusTransitions, declinedAt: '2026-02-27T14:40:12.500Z' },
};

export const invoicedQuote = {
  ...acceptedQuote,
  invoiceId: invoice.id,
  statusTransitions: { ...acceptedQuote.statusTransitions, invoicedAt: '2026-03-02T09:15:04.150Z' },
};

/** The invoice made from the accepted quote: it names the quote, and carries its number as BT-17. */
export const invoiceFromQuote = { ...invoice, quoteId: QUOTE_ID, tenderReference: 'Q-2026-00017' };

export const quoteRequest = {
  organizationId: ORGANIZATION_ID,
  issueDate: '2026-02-16',
  validUntil: '2026-03-18',
  purchaseOrderReference: 'PO-7781',
  deliveryDate: '2026-02-27',
  lines: [{ name: 'Consulting (hours)', quantity: '3', unitCode: 'HUR', unitPrice: '19.99', vatRate: '19' }],
};
