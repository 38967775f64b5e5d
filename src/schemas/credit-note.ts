import { hostedLinkFields } from './hosted-link.js';
import { EmailDeliverySchema } from './email-delivery.js';
import { Type, type Static } from '@sinclair/typebox';
import {
  AllowanceChargeSchema,
  BuyerSnapshot,
  InvoiceLineInput,
  InvoiceLineSchema,
  InvoicePeriodSchema,
  InvoiceTotalsSchema,
  PaymentMeansSchema,
  PdfDigestsSchema,
  SellerSnapshot,
  VatBreakdownSchema,
} from './invoice.js';
import { EinvoiceReadinessSchema } from './einvoice-readiness.js';
import { Nullable } from './nullable.js';
import { DateInput, DateOutput, Livemode } from './values.js';

// A credit note corrects an issued invoice (EN 16931 BT-3 381, with the invoice as the preceding
// invoice, BG-3): a document of its own, with a number of its own sequence (CN-YYYY-NNNNN) and
// positive amounts computed exactly as an invoice's.

const MAX_LINES = 500;

export const CreateCreditNoteBody = Type.Object(
  {
    invoiceId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The issued (or paid) invoice this credit note corrects.',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 500,
      description: 'Why the invoice is credited; printed on the credit note.',
    }),
    lines: Type.Optional(
      Nullable(
        Type.Array(InvoiceLineInput, {
          minItems: 1,
          maxItems: MAX_LINES,
          description:
            "The lines credited, with the invoice's line rules. When absent, every line of the invoice is credited in full, with its document allowances and charges.",
        }),
      ),
    ),
    issueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD, not before the invoice; default today (UTC).'))),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  },
  { title: 'CreateCreditNoteInput', additionalProperties: false },
);

export type CreateCreditNoteInput = Static<typeof CreateCreditNoteBody>;

const NullableString = Nullable(Type.String());

export const CreditNoteSchema = Type.Object(
  {
    id: Type.String({ examples: ['cn_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    livemode: Livemode,
    number: Type.String({ examples: ['CN-2026-00001'] }),
    invoiceId: Type.String(),
    invoiceNumber: Type.String({ description: 'The number of the credited invoice (EN 16931 BT-25).' }),
    reason: Type.String(),
    buyerReference: NullableString,
    purchaseOrderReference: NullableString,
    issueDate: DateOutput(),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    pricesIncludeTax: Type.Boolean(),
    buyer: BuyerSnapshot,
    seller: SellerSnapshot,
    note: NullableString,
    paymentMeans: Nullable(PaymentMeansSchema),
    paymentTerms: NullableString,
    deliveryDate: Nullable(DateOutput()),
    invoicePeriod: Nullable(InvoicePeriodSchema),
    lines: Type.Array(InvoiceLineSchema, { minItems: 1 }),
    allowances: Type.Array(AllowanceChargeSchema),
    charges: Type.Array(AllowanceChargeSchema),
    vatBreakdown: Type.Array(VatBreakdownSchema, { minItems: 1 }),
    totals: InvoiceTotalsSchema,
    pdfSha256: PdfDigestsSchema,
    einvoice: EinvoiceReadinessSchema,
    deliveries: Type.Optional(
      Type.Array(EmailDeliverySchema, {
        description:
          'In the answers about one credit note (GET /credit-note/{id}, its create) and its events, not in lists: the messages sent (or queued) with this credit note, newest first (POST /credit-note/{id}/send).',
      }),
    ),
    ...hostedLinkFields('credit note', '/credit-note/{id}'),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    title: 'CreditNote',
    description:
      "A credit note: it takes the invoice's currency, price mode, buyer and seller; its amounts are positive.",
  },
);

export type CreditNote = Static<typeof CreditNoteSchema>;
