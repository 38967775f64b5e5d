import { Type, type Static } from '@sinclair/typebox';
import { VAT_CATEGORIES } from '../money/invoice-calculation.js';
import { AddressSchema, OrganizationTypeCode } from './organization.js';
import { Nullable } from './nullable.js';
import { Amount, DateInput, DateOutput, DecimalOutput, PercentInput, PriceInput, QuantityInput } from './values.js';

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
      Nullable(Type.String({ pattern: '^[A-Z0-9]{1,3}$', description: 'UN/ECE Recommendation 20 unit code; default C62 (one).' })),
    ),
    unitPrice: PriceInput,
    discountPercent: Type.Optional(Nullable(PercentInput)),
    vatRate: PercentInput,
    vatCategory: Type.Optional(Nullable(VatCategorySchema)),
    exemptionReason: OptionalText(500, 'Required for categories E and AE.'),
  },
  { title: 'InvoiceLineInput', additionalProperties: false },
);

export const CreateInvoiceBody = Type.Object(
  {
    organizationId: Type.String({ minLength: 1, maxLength: 100, description: "The buyer: an organization of the caller's company." }),
    number: Type.Optional(
      Nullable(
        Type.String({
          minLength: 1,
          maxLength: 64,
          pattern: '^\\S(?:.*\\S)?$',
          description: "Unique within the company. When absent the next number of the company's sequence (YYYY-NNNNN) is assigned.",
        }),
      ),
    ),
    issueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD, from 1900 to 9999; default today (UTC).'))),
    dueDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD, not before issueDate; default issueDate + 30 days.'))),
    currency: Type.Optional(Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217; default the company's currency." }))),
    pricesIncludeTax: Type.Optional(Nullable(Type.Boolean({ description: 'Unit prices include VAT (gross); default false.' }))),
    buyerReference: OptionalText(500),
    purchaseOrderReference: OptionalText(500),
    note: OptionalText(500),
    lines: Type.Array(InvoiceLineInput, { minItems: 1, maxItems: MAX_LINES }),
  },
  { title: 'CreateInvoiceInput', additionalProperties: false },
);

export type CreateInvoiceInput = Static<typeof CreateInvoiceBody>;
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
    email: NullableString,
    address: Nullable(AddressSchema),
  },
  { title: 'Buyer', description: 'The buyer as it was when the invoice was issued.' },
);

export const SellerSnapshot = Type.Object(
  {
    name: Type.String(),
    vatId: NullableString,
    countryCode: NullableString,
  },
  { title: 'Seller', description: 'The seller (your company) as it was when the invoice was issued.' },
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
  { title: 'InvoiceLine', description: 'A line as issued: netAmount = round(quantity × unitPrice × (1 − discountPercent / 100)), derived from the gross when pricesIncludeTax.' },
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
    description: 'One VAT category and rate: taxableAmount is the sum of its lines\' net amounts, taxAmount = round(taxableAmount × vatRate / 100).',
  },
);

export const InvoiceTotalsSchema = Type.Object(
  {
    lineNetTotal: Amount,
    taxExclusive: Amount,
    taxTotal: Amount,
    taxInclusive: Amount,
    roundingAmount: Amount,
    payable: Amount,
  },
  { title: 'Totals', description: 'EN 16931 document totals (BR-CO-10 to BR-CO-16).' },
);

export const InvoiceSchema = Type.Object(
  {
    id: Type.String({ examples: ['inv_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    number: Type.String({ examples: ['2026-00001'] }),
    status: Type.Literal('issued'),
    organizationId: Type.String(),
    buyer: BuyerSnapshot,
    seller: SellerSnapshot,
    issueDate: DateOutput(),
    dueDate: DateOutput(),
    currency: Type.String({ pattern: '^[A-Z]{3}$' }),
    pricesIncludeTax: Type.Boolean(),
    buyerReference: NullableString,
    purchaseOrderReference: NullableString,
    note: NullableString,
    lines: Type.Array(InvoiceLineSchema, { minItems: 1, maxItems: MAX_LINES }),
    vatBreakdown: Type.Array(VatBreakdownSchema, { minItems: 1, maxItems: MAX_LINES }),
    totals: InvoiceTotalsSchema,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Invoice' },
);

export type Invoice = Static<typeof InvoiceSchema>;
