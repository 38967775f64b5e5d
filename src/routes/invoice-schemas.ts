import { Type, type Static } from '@sinclair/typebox';
import { VAT_CATEGORIES } from '../money/invoice-calculation.js';
import { Nullable } from './schema-helpers.js';

// The invoice of POST /invoice, modelled on EN 16931 (the semantic model behind Peppol BIS 3,
// XRechnung and Factur-X). The schema checks shapes; exact decimal values, dates against each
// other and the currency are checked by src/services/invoice-input.ts, with the same details.

const OptionalText = (maxLength: number, description?: string) =>
  Type.Optional(Nullable(Type.String({ maxLength, ...(description ? { description } : {}) })));

/**
 * A decimal sent as a string in plain notation ("19.99") or as a JSON number (19.99). The schema
 * leaves the type open (Ajv's strict mode refuses type unions) and src/money/decimal.ts decides,
 * with one message for every wrong form.
 */
const DecimalInput = (description: string) =>
  Type.Unsafe<string | number>({ description: `String or number. ${description}`, examples: ['19.99'] });

const VatCategorySchema = Type.Union(
  VAT_CATEGORIES.map((c) => Type.Literal(c)),
  {
    description:
      'UNCL5305: S standard, Z zero-rated, E exempt, AE reverse charge, K intra-community, G export, O outside the scope. ' +
      'Default S when vatRate is above zero, Z when it is zero.',
  },
);

export const InvoiceLineInput = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: OptionalText(1000),
    quantity: DecimalInput('Not zero; up to 6 decimal places. Negative for a credited quantity.'),
    unitCode: Type.Optional(
      Nullable(Type.String({ pattern: '^[A-Z0-9]{1,3}$', description: 'UN/ECE Recommendation 20 unit code; default C62 (one).' })),
    ),
    unitPrice: DecimalInput('Not negative; up to 6 decimal places. Gross (VAT included) when pricesIncludeTax is true.'),
    discountPercent: Type.Optional(Nullable(DecimalInput('0 to 100, up to 4 decimal places.'))),
    vatRate: DecimalInput('Percent, 0 to 100, up to 4 decimal places.'),
    vatCategory: Type.Optional(Nullable(VatCategorySchema)),
    exemptionReason: OptionalText(500, 'Required for categories E and AE.'),
  },
  { additionalProperties: false },
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
    issueDate: Type.Optional(Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD; default today (UTC).' }))),
    dueDate: Type.Optional(Nullable(Type.String({ format: 'date', description: 'YYYY-MM-DD, not before issueDate; default issueDate + 30 days.' }))),
    currency: Type.Optional(Nullable(Type.String({ pattern: '^[A-Z]{3}$', description: "ISO 4217; default the company's currency." }))),
    pricesIncludeTax: Type.Optional(Nullable(Type.Boolean({ description: 'Unit prices include VAT (gross); default false.' }))),
    buyerReference: OptionalText(500),
    purchaseOrderReference: OptionalText(500),
    note: OptionalText(500),
    lines: Type.Array(InvoiceLineInput, { minItems: 1, maxItems: 500 }),
  },
  { additionalProperties: false },
);

export type CreateInvoiceInput = Static<typeof CreateInvoiceBody>;
export type InvoiceLineInputType = Static<typeof InvoiceLineInput>;

const NullableString = Nullable(Type.String());
const Amount = (description?: string) =>
  Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', examples: ['59.97'], ...(description ? { description } : {}) });

export const AddressSnapshot = Type.Object({
  line1: NullableString,
  line2: NullableString,
  city: NullableString,
  postalCode: NullableString,
  countryCode: NullableString,
});

export const BuyerSnapshot = Type.Object({
  name: Type.String(),
  typeCode: Type.String(),
  firstName: NullableString,
  lastName: NullableString,
  vatId: NullableString,
  taxNumber: NullableString,
  email: NullableString,
  address: Nullable(AddressSnapshot),
});

export const SellerSnapshot = Type.Object({
  name: Type.String(),
  vatId: NullableString,
  countryCode: NullableString,
});

export const InvoiceLineSchema = Type.Object({
  position: Type.Integer({ minimum: 1 }),
  name: Type.String(),
  description: NullableString,
  quantity: Type.String({ description: 'Plain decimal, trailing zeros removed.' }),
  unitCode: Type.String(),
  unitPrice: Type.String(),
  discountPercent: NullableString,
  vatRate: Type.String(),
  vatCategory: VatCategorySchema,
  exemptionReason: NullableString,
  netAmount: Amount('round(quantity × unitPrice × (1 − discountPercent / 100)); derived from the gross when pricesIncludeTax.'),
});

export const VatBreakdownSchema = Type.Object({
  vatCategory: VatCategorySchema,
  vatRate: Type.String(),
  taxableAmount: Amount('Sum of the net amounts of the lines with this category and rate.'),
  taxAmount: Amount('round(taxableAmount × vatRate / 100).'),
  exemptionReason: NullableString,
});

export const InvoiceTotalsSchema = Type.Object({
  lineNetTotal: Amount(),
  taxExclusive: Amount(),
  taxTotal: Amount(),
  taxInclusive: Amount(),
  roundingAmount: Amount(),
  payable: Amount(),
});

export const InvoiceSchema = Type.Object({
  id: Type.String({ examples: ['inv_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
  number: Type.String({ examples: ['2026-00001'] }),
  status: Type.Literal('issued'),
  organizationId: Type.String(),
  buyer: BuyerSnapshot,
  seller: SellerSnapshot,
  issueDate: Type.String({ format: 'date' }),
  dueDate: Type.String({ format: 'date' }),
  currency: Type.String(),
  pricesIncludeTax: Type.Boolean(),
  buyerReference: NullableString,
  purchaseOrderReference: NullableString,
  note: NullableString,
  lines: Type.Array(InvoiceLineSchema),
  vatBreakdown: Type.Array(VatBreakdownSchema),
  totals: InvoiceTotalsSchema,
  createdAt: Type.String({ format: 'date-time' }),
});

export type Invoice = Static<typeof InvoiceSchema>;
