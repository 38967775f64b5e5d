import { Type, type Static } from '@sinclair/typebox';
import {
  AllowanceChargeInput,
  AllowanceChargeSchema,
  BuyerSnapshot,
  InvoiceLineInput,
  InvoiceLineSchema,
  InvoicePeriodInput,
  InvoicePeriodSchema,
  InvoiceTotalsSchema,
  SellerSnapshot,
  VatBreakdownSchema,
} from './invoice.js';
import { hostedLinkFields } from './hosted-link.js';
import { Nullable } from './nullable.js';
import { DateInput, DateOutput, Livemode } from './values.js';

// A quote (an offer to a buyer): the content of an invoice (the same lines, the same exact totals)
// without payment means, its own number (Q-YYYY-NNNNN) and a validity. See docs/quotes.md.

const OptionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })));

export const CreateQuoteBody = Type.Object(
  {
    organizationId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: "The buyer: an organization of the caller's company, not archived.",
    }),
    issueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD; default the day the quote is sent (UTC).'))),
    validUntil: Type.Optional(
      Nullable(
        DateInput(
          'YYYY-MM-DD, not before issueDate: the last day the quote can be accepted; default issueDate + 30 days.',
        ),
      ),
    ),
    currency: Type.Optional(
      Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217; default the company's currency." })),
    ),
    pricesIncludeTax: Type.Optional(
      Nullable(Type.Boolean({ description: 'Unit prices include VAT (gross); default false.' })),
    ),
    buyerReference: OptionalText(500),
    purchaseOrderReference: OptionalText(
      500,
      "The buyer's request or order reference, if any: carried to the invoice made from the quote as its BT-13.",
    ),
    note: OptionalText(500),
    lines: Type.Array(InvoiceLineInput, { minItems: 1, maxItems: 500 }),
    paymentTerms: OptionalText(
      1000,
      "BT-20 of the invoice made from the quote; default the company's payment terms then.",
    ),
    deliveryDate: Type.Optional(Nullable(DateInput('BT-72: the day of delivery.'))),
    invoicePeriod: Type.Optional(Nullable(InvoicePeriodInput)),
    allowances: Type.Optional(Nullable(Type.Array(AllowanceChargeInput, { maxItems: 100 }))),
    charges: Type.Optional(Nullable(Type.Array(AllowanceChargeInput, { maxItems: 100 }))),
    status: Type.Optional(
      Type.Union([Type.Literal('open'), Type.Literal('draft')], {
        description:
          'open (default): numbered and sent at once. draft: no number yet; POST /quote/{id}/send numbers and sends it.',
      }),
    ),
  },
  { title: 'CreateQuoteInput', additionalProperties: false },
);

export type CreateQuoteInput = Static<typeof CreateQuoteBody>;

const { status: _status, ...quoteContent } = CreateQuoteBody.properties;

/** PATCH /quote/{id} (drafts only): any field of the create body but its status; `lines`, when sent, replace all lines. */
export const UpdateQuoteBody = Type.Object(Type.Partial(Type.Object(quoteContent)).properties, {
  title: 'UpdateQuoteInput',
  additionalProperties: false,
});

export type UpdateQuoteInput = Static<typeof UpdateQuoteBody>;

export const QUOTE_STATUSES = ['draft', 'open', 'accepted', 'declined', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

export const QuoteStatusSchema = Type.Union(
  QUOTE_STATUSES.map((s) => Type.Literal(s)),
  {
    title: 'QuoteStatus',
    description:
      'draft: no number yet. open: numbered and sent, awaiting the buyer. accepted / declined: the buyer answered. ' +
      'expired: open, and validUntil has passed (computed when read: an open quote becomes expired the day after validUntil, UTC).',
  },
);

export const QuoteSchema = Type.Object(
  {
    id: Type.String({ examples: ['quo_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57'] }),
    livemode: Livemode,
    number: Nullable(Type.String({ description: 'Q-YYYY-NNNNN (TEST-Q-… in test mode); null for a draft.' })),
    status: QuoteStatusSchema,
    organizationId: Type.String(),
    buyer: BuyerSnapshot,
    seller: SellerSnapshot,
    issueDate: Nullable(DateOutput()),
    validUntil: Nullable(DateOutput()),
    currency: Type.String(),
    pricesIncludeTax: Type.Boolean(),
    buyerReference: Nullable(Type.String()),
    purchaseOrderReference: Nullable(Type.String()),
    note: Nullable(Type.String()),
    paymentTerms: Nullable(Type.String()),
    deliveryDate: Nullable(DateOutput()),
    invoicePeriod: Nullable(InvoicePeriodSchema),
    allowances: Type.Array(AllowanceChargeSchema),
    charges: Type.Array(AllowanceChargeSchema),
    lines: Type.Array(InvoiceLineSchema),
    vatBreakdown: Type.Array(VatBreakdownSchema),
    totals: InvoiceTotalsSchema,
    invoiceId: Nullable(
      Type.String({ description: 'The invoice made from the quote (POST /quote/{id}/invoice); null until then.' }),
    ),
    statusTransitions: Type.Object({
      sentAt: Nullable(Type.String({ format: 'date-time' })),
      acceptedAt: Nullable(Type.String({ format: 'date-time' })),
      declinedAt: Nullable(Type.String({ format: 'date-time' })),
      invoicedAt: Nullable(Type.String({ format: 'date-time' })),
    }),
    ...hostedLinkFields('quote', '/quote/{id}'),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Quote' },
);

export type Quote = Static<typeof QuoteSchema>;

export const QuoteToInvoiceBody = Type.Object(
  {
    status: Type.Optional(
      Type.Union([Type.Literal('issued'), Type.Literal('draft')], {
        description: 'issued (default): numbered and issued at once. draft: an editable draft.',
      }),
    ),
    issueDate: Type.Optional(Nullable(DateInput("YYYY-MM-DD; default today (UTC), or the draft's finalize day."))),
    dueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD, not before issueDate; default issueDate + 30 days.'))),
    purchaseOrderReference: OptionalText(
      500,
      "BT-13 of the invoice: the buyer's order number; default the quote's purchaseOrderReference (the quote's own number is the invoice's BT-17, tenderReference).",
    ),
  },
  { title: 'QuoteToInvoiceInput', additionalProperties: false },
);

export type QuoteToInvoiceInput = Static<typeof QuoteToInvoiceBody>;
