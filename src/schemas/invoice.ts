import { EmailDeliverySchema } from './email-delivery.js';
import { hostedLinkFields } from './hosted-link.js';
import { ReminderSchema } from './reminder.js';
import { Type, type Static } from '@sinclair/typebox';
import { VAT_CATEGORIES } from '../money/invoice-calculation.js';
import { OrganizationTypeCode } from './organization.js';
import { AddressSchema, ContactSchema, ElectronicAddressSchema } from './parties.js';
import { EINVOICE_PROFILES, EinvoiceReadinessSchema } from './einvoice-readiness.js';
import { Nullable } from './nullable.js';
import {
  Amount,
  AmountInput,
  DateInput,
  DateOutput,
  DecimalOutput,
  PercentInput,
  PriceInput,
  QuantityInput,
  Livemode,
} from './values.js';

// The invoice of POST /invoice, modelled on EN 16931 (the semantic model behind Peppol BIS 3,
// XRechnung and Factur-X). The schema checks shapes; exact decimal values, dates against each
// other and the currency are checked by src/services/invoice-input.ts, with the same details.

const OptionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })));

const VatCategorySchema = Type.Union(
  VAT_CATEGORIES.map((c) => Type.Literal(c)),
  {
    title: 'VatCategory',
    description:
      'UNCL5305: S standard, Z zero-rated, E exempt, AE reverse charge, K intra-community, G export, O outside the scope. ' +
      'Default S when vatRate is above zero, Z when it is zero.',
  },
);

const MAX_LINES = 500;

export const InvoiceLineInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: OptionalText(1000),
    quantity: QuantityInput,
    unitCode: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[A-Z0-9]{1,3}$',
          description: 'UN/ECE Recommendation 20 unit code; default C62 (one).',
        }),
      ),
    ),
    unitPrice: PriceInput,
    discountPercent: Type.Optional(Nullable(PercentInput)),
    vatRate: PercentInput,
    vatCategory: Type.Optional(Nullable(VatCategorySchema)),
    exemptionReason: OptionalText(500, 'Required for categories E and AE.'),
  },
  { title: 'InvoiceLineInput', additionalProperties: false },
);

export const PAYMENT_MEANS_CODES = ['58', '30', '59', '49', '48', '10'] as const;

export const PaymentMeansInput = Type.Object(
  {
    code: Type.Union(
      PAYMENT_MEANS_CODES.map((c) => Type.Literal(c)),
      {
        description:
          'UNCL4461: 58 SEPA credit transfer, 30 credit transfer, 59 SEPA direct debit, 49 direct debit, 48 card, 10 cash.',
      },
    ),
    iban: OptionalText(34, "The account to pay to (credit transfer); default the company's."),
    bic: OptionalText(11),
    accountName: OptionalText(200),
    mandateReference: OptionalText(35, 'Direct debit: the mandate reference (BT-89).'),
    payerIban: OptionalText(34, "Direct debit: the buyer's account to debit (BT-91)."),
    cardLastDigits: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^\\d{4,6}$',
          description: 'Card payment: the last 4 to 6 digits of the card (BT-87).',
        }),
      ),
    ),
    creditorReference: OptionalText(
      40,
      "An ISO 11649 creditor reference (RF, two check digits, up to 21 letters and digits; spaces allowed) the buyer quotes instead of the invoice number (BT-83). Without it a Belgian seller's invoices carry a structured communication (+++…+++), others their number.",
    ),
  },
  { title: 'PaymentMeansInput', additionalProperties: false },
);

export const AllowanceChargeInput = Type.Object(
  {
    amount: PriceInput,
    reason: OptionalText(200, 'Why (BT-97 / BT-104); a reason or a reasonCode is required.'),
    reasonCode: Type.Optional(
      Nullable(
        Type.String({
          pattern: '^[A-Z0-9]{1,3}$',
          description: 'UNCL5189 for allowances (95 discount), UNCL7161 for charges (FC freight).',
        }),
      ),
    ),
    vatCategory: VatCategorySchema,
    vatRate: PercentInput,
  },
  {
    title: 'AllowanceChargeInput',
    additionalProperties: false,
    description:
      'A document-level allowance (BG-20) or charge (BG-21): VAT included when the invoice has gross prices, like its unit prices.',
  },
);

export const InvoicePeriodInput = Type.Object(
  { start: DateInput('YYYY-MM-DD'), end: DateInput('YYYY-MM-DD, not before start') },
  { title: 'InvoicePeriodInput', additionalProperties: false },
);

export { EINVOICE_PROFILES };

export const ValidateForInput = Type.Array(Type.Union(EINVOICE_PROFILES.map((p) => Type.Literal(p))), {
  maxItems: 3,
  description:
    'Refuse (422 EINVOICE_INCOMPLETE) to issue an invoice that could not be exported as these e-invoices: issued invoices cannot be changed afterwards.',
});

/** The fields of an invoice's content: the create body and, all optional, a draft's PATCH body. */
const invoiceContent = {
  organizationId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: "The buyer: an organization of the caller's company, not archived.",
  }),
  number: Type.Optional(
    Nullable(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^\\S(?:.*\\S)?$',
        description:
          "Unique within the company. When absent the next number of the company's sequence (YYYY-NNNNN) is assigned when the invoice is issued. A draft's number is checked when it is finalized.",
      }),
    ),
  ),
  issueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD, from 1900 to 9999; default today (UTC).'))),
  dueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD, not before issueDate; default issueDate + 30 days.'))),
  currency: Type.Optional(
    Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217; default the company's currency." })),
  ),
  pricesIncludeTax: Type.Optional(
    Nullable(Type.Boolean({ description: 'Unit prices include VAT (gross); default false.' })),
  ),
  buyerReference: OptionalText(500),
  purchaseOrderReference: OptionalText(500),
  note: OptionalText(500),
  lines: Type.Array(InvoiceLineInput, { minItems: 1, maxItems: MAX_LINES }),
  paymentMeans: Type.Optional(Nullable(PaymentMeansInput)),
  paymentTerms: OptionalText(1000, "BT-20; default the company's payment terms."),
  deliveryDate: Type.Optional(Nullable(DateInput('BT-72: the day of delivery.'))),
  invoicePeriod: Type.Optional(Nullable(InvoicePeriodInput)),
  allowances: Type.Optional(Nullable(Type.Array(AllowanceChargeInput, { maxItems: 100 }))),
  charges: Type.Optional(Nullable(Type.Array(AllowanceChargeInput, { maxItems: 100 }))),
};

export const CreateInvoiceBody = Type.Object(
  {
    ...invoiceContent,
    validateFor: Type.Optional(ValidateForInput),
    status: Type.Optional(
      Type.Union([Type.Literal('issued'), Type.Literal('draft')], {
        description:
          'issued (default): numbered and issued at once. draft: an editable draft without a number; issueDate, when absent, becomes the day it is finalized.',
      }),
    ),
  },
  { title: 'CreateInvoiceInput', additionalProperties: false },
);

export type CreateInvoiceInput = Static<typeof CreateInvoiceBody>;

/** PATCH /invoice/{id} (drafts only): any field of the create body; `lines`, when sent, replace all lines. */
export const UpdateInvoiceBody = Type.Object(Type.Partial(Type.Object(invoiceContent)).properties, {
  title: 'UpdateInvoiceInput',
  additionalProperties: false,
});

export type UpdateInvoiceInput = Static<typeof UpdateInvoiceBody>;
export type InvoiceLineInputType = Static<typeof InvoiceLineInput>;

const NullableString = Nullable(Type.String());

export const BuyerSnapshot = Type.Object(
  {
    name: Type.String(),
    typeCode: OrganizationTypeCode,
    firstName: NullableString,
    lastName: NullableString,
    vatId: NullableString,
    taxNumber: NullableString,
    legalRegistrationId: NullableString,
    email: NullableString,
    phone: NullableString,
    address: Nullable(AddressSchema),
    electronicAddress: Nullable(ElectronicAddressSchema),
  },
  {
    title: 'Buyer',
    description: 'The buyer as it was when the invoice was issued; for a draft, the organization as it is now.',
  },
);

export const SellerSnapshot = Type.Object(
  {
    name: Type.String(),
    legalName: NullableString,
    vatId: NullableString,
    taxNumber: NullableString,
    legalRegistrationId: NullableString,
    countryCode: NullableString,
    address: AddressSchema,
    electronicAddress: Nullable(ElectronicAddressSchema),
    contact: ContactSchema,
    creditorId: NullableString,
  },
  {
    title: 'Seller',
    description: 'The seller (your company) as it was when the invoice was issued; for a draft, as it is now.',
  },
);

export const InvoiceLineSchema = Type.Object(
  {
    position: Type.Integer({ minimum: 1, maximum: MAX_LINES }),
    name: Type.String(),
    description: NullableString,
    quantity: DecimalOutput,
    unitCode: Type.String({ pattern: '^[A-Z0-9]{1,3}$' }),
    unitPrice: DecimalOutput,
    discountPercent: Nullable(DecimalOutput),
    vatRate: DecimalOutput,
    vatCategory: VatCategorySchema,
    exemptionReason: NullableString,
    netAmount: Amount,
  },
  {
    title: 'InvoiceLine',
    description:
      'A line as issued: netAmount = round(quantity × unitPrice × (1 − discountPercent / 100)), derived from the gross when pricesIncludeTax.',
  },
);

export const VatBreakdownSchema = Type.Object(
  {
    vatCategory: VatCategorySchema,
    vatRate: DecimalOutput,
    taxableAmount: Amount,
    taxAmount: Amount,
    exemptionReason: NullableString,
  },
  {
    title: 'VatBreakdown',
    description:
      "One VAT category and rate: taxableAmount is the sum of its lines' net amounts, taxAmount = round(taxableAmount × vatRate / 100).",
  },
);

export const PaymentMeansSchema = Type.Object(
  {
    code: Type.Union(PAYMENT_MEANS_CODES.map((c) => Type.Literal(c))),
    iban: NullableString,
    bic: NullableString,
    accountName: NullableString,
    mandateReference: NullableString,
    payerIban: NullableString,
    cardLastDigits: NullableString,
    creditorReference: Type.Optional(NullableString),
  },
  {
    title: 'PaymentMeans',
    description: "How the invoice is to be paid (EN 16931 BG-16), as given or from the company's account.",
  },
);

export const AllowanceChargeSchema = Type.Object(
  {
    amount: DecimalOutput,
    reason: NullableString,
    reasonCode: NullableString,
    vatCategory: VatCategorySchema,
    vatRate: DecimalOutput,
  },
  { title: 'AllowanceCharge', description: 'A document-level allowance or charge as given.' },
);

export const InvoicePeriodSchema = Type.Object({ start: DateOutput(), end: DateOutput() }, { title: 'InvoicePeriod' });

export const InvoiceTotalsSchema = Type.Object(
  {
    lineNetTotal: Amount,
    allowanceTotal: Amount,
    chargeTotal: Amount,
    taxExclusive: Amount,
    taxTotal: Amount,
    taxInclusive: Amount,
    roundingAmount: Amount,
    payable: Amount,
  },
  {
    title: 'Totals',
    description:
      'EN 16931 document totals (BR-CO-10 to BR-CO-16): taxExclusive = lineNetTotal − allowanceTotal + chargeTotal.',
  },
);

export const INVOICE_STATUSES = ['draft', 'issued', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const InvoiceStatusSchema = Type.Union(
  INVOICE_STATUSES.map((s) => Type.Literal(s)),
  {
    title: 'InvoiceStatus',
    description:
      'draft: editable, no number yet. issued: numbered and immutable. paid: payments reached the amount due. void: voided, or credited in full with nothing paid.',
  },
);

export const PaymentMethodSchema = Type.Union(
  [
    Type.Literal('credit_transfer'),
    Type.Literal('card'),
    Type.Literal('cash'),
    Type.Literal('direct_debit'),
    Type.Literal('other'),
  ],
  { title: 'PaymentMethod' },
);

const paymentFields = {
  livemode: Livemode,
  amount: Amount,
  date: DateOutput(),
  method: PaymentMethodSchema,
  reference: NullableString,
  createdAt: Type.String({ format: 'date-time' }),
};

export const PaymentSchema = Type.Object(
  { id: Type.String({ examples: ['pay_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }), ...paymentFields },
  { title: 'Payment', description: 'A payment recorded against the invoice.' },
);

export const RefundSchema = Type.Object(
  { id: Type.String({ examples: ['rfd_01936f0f-1b2c-7d3e-8f40-5a6b7c8d9e0f'] }), ...paymentFields },
  { title: 'Refund', description: 'Money paid back to the buyer of the invoice (its amount is positive).' },
);

export const PAYMENT_KINDS = ['payment', 'refund'] as const;

export const PaymentRecordSchema = Type.Object(
  {
    id: Type.String({
      examples: ['pay_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'],
      description: 'pay_… for a payment, rfd_… for a refund.',
    }),
    kind: Type.Union(
      PAYMENT_KINDS.map((k) => Type.Literal(k)),
      { description: 'payment: money received from the buyer; refund: money paid back to the buyer.' },
    ),
    invoiceId: Type.String({ examples: ['inv_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    invoiceNumber: Type.String({ examples: ['2026-00001'] }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', description: "The invoice's currency." }),
    ...paymentFields,
  },
  {
    title: 'PaymentRecord',
    description:
      'A payment or a refund, with the invoice it belongs to: what GET /payment lists. The amount is positive for both kinds.',
  },
);
export type PaymentRecord = Static<typeof PaymentRecordSchema>;

/** POST /invoice/{id}/payment */
export const CreatePaymentBody = Type.Object(
  {
    amount: AmountInput,
    date: Type.Optional(Nullable(DateInput('YYYY-MM-DD, the day the money arrived; default today (UTC).'))),
    method: Type.Optional(Nullable(PaymentMethodSchema)),
    reference: OptionalText(200, "The payer's reference, a bank transaction id, …"),
  },
  { title: 'CreatePaymentInput', additionalProperties: false },
);

/** POST /invoice/{id}/refund */
export const CreateRefundBody = Type.Object(
  {
    amount: AmountInput,
    date: Type.Optional(Nullable(DateInput('YYYY-MM-DD, the day the money was paid back; default today (UTC).'))),
    method: Type.Optional(Nullable(PaymentMethodSchema)),
    reference: OptionalText(200, 'Your reference of the refund, a bank transaction id, …'),
  },
  { title: 'CreateRefundInput', additionalProperties: false },
);

export type CreatePaymentInput = Static<typeof CreatePaymentBody>;
export type CreateRefundInput = Static<typeof CreateRefundBody>;

export const StatusTransitionsSchema = Type.Object(
  {
    finalizedAt: Nullable(Type.String({ format: 'date-time' })),
    paidAt: Nullable(Type.String({ format: 'date-time' })),
    voidedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'StatusTransitions' },
);

const Sha256 = Nullable(Type.String({ pattern: '^[0-9a-f]{64}$' }));

export const PdfDigestsSchema = Type.Object(
  { en: Sha256, de: Sha256, fr: Sha256 },
  {
    title: 'PdfDigests',
    description:
      "The SHA-256 (hex) of the issued document's PDF (GET …/pdf?lang=…) in each language, recorded when it was first rendered; null until then, and always for a draft. The PDF of an issued document is rendered deterministically: every download in a language has exactly these bytes.",
  },
);

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({ examples: ['inv_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    livemode: Livemode,
    number: Nullable(
      Type.String({
        examples: ['2026-00001'],
        description:
          'Assigned when the invoice is issued. A draft has none (null), or the number it asked for, which is checked only when it is finalized.',
      }),
    ),
    status: InvoiceStatusSchema,
    organizationId: Type.String(),
    buyer: BuyerSnapshot,
    seller: SellerSnapshot,
    issueDate: Nullable(DateOutput('Null only for a draft that has none yet (it becomes the day of finalizing).')),
    dueDate: Nullable(DateOutput('Null only for a draft without one (it becomes issueDate + 30 days).')),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    pricesIncludeTax: Type.Boolean(),
    buyerReference: NullableString,
    purchaseOrderReference: NullableString,
    tenderReference: Nullable(
      Type.String({
        description:
          'BT-17 (tender or lot reference): the number of the quote the invoice was made from (POST /quote/{id}/invoice); null for others. Set by the API, never by a body.',
      }),
    ),
    quoteId: Nullable(
      Type.String({ description: 'The quote the invoice was made from (POST /quote/{id}/invoice); null for others.' }),
    ),
    note: NullableString,
    paymentMeans: Nullable(PaymentMeansSchema),
    paymentTerms: NullableString,
    deliveryDate: Nullable(DateOutput()),
    invoicePeriod: Nullable(InvoicePeriodSchema),
    lines: Type.Array(InvoiceLineSchema, { minItems: 1, maxItems: MAX_LINES }),
    allowances: Type.Array(AllowanceChargeSchema),
    charges: Type.Array(AllowanceChargeSchema),
    vatBreakdown: Type.Array(VatBreakdownSchema, { minItems: 1, maxItems: MAX_LINES }),
    totals: InvoiceTotalsSchema,
    amountPaid: Amount,
    amountCredited: Amount,
    amountRefunded: Amount,
    amountDue: Amount,
    isOverdue: Type.Boolean({
      description: 'True when the invoice is issued, has an amount due and its due date is before today (UTC).',
    }),
    payments: Type.Array(PaymentSchema),
    refunds: Type.Array(RefundSchema, {
      description: 'Money paid back to the buyer, oldest first (POST /invoice/{id}/refund).',
    }),
    creditNoteIds: Type.Array(Type.String()),
    einvoice: Nullable(
      EinvoiceReadinessSchema,
      'Null for a draft: it is checked when it is finalized with validateFor.',
    ),
    statusTransitions: StatusTransitionsSchema,
    pdfSha256: PdfDigestsSchema,
    deliveries: Type.Optional(
      Type.Array(EmailDeliverySchema, {
        description:
          'In the answers about one invoice (GET /invoice/{id} and every write on it) and its events, not in lists: the messages sent (or queued) with this invoice, newest first (POST /invoice/{id}/send).',
      }),
    ),
    ...hostedLinkFields('invoice', '/invoice/{id}'),
    reminders: Type.Optional(
      Type.Array(ReminderSchema, {
        description:
          'In the answers about one invoice (GET /invoice/{id} and every write on it) and its events, not in lists: its reminders, newest level first, each sent (with the message, in deliveries) or skipped (docs/reminders.md).',
      }),
    ),
    createdAt: Type.String({ format: 'date-time' }),
  },
  {
    title: 'Invoice',
    description:
      'A sales invoice (EN 16931). amountDue = totals.payable − amountCredited − amountPaid + amountRefunded; negative when the buyer is owed a refund.',
  },
);

export type Invoice = Static<typeof InvoiceSchema>;
