import { Type, type Static } from '@sinclair/typebox';
import { EinvoiceSchema, EinvoiceTotalsSchema } from './einvoice.js';
import { PaymentMethodSchema } from './invoice.js';
import { Nullable } from './nullable.js';
import { AmountInput, DateInput, Livemode } from './values.js';

// A received e-invoice (a purchase invoice, or a supplier's credit note) as the API answers it:
// what it is, whom it is from, what it asks, how the rules judged it, where it stands, and, read
// one by one, the whole document in the EN 16931 model.

const NullableString = Nullable(Type.String());

export const PURCHASE_INVOICE_STATES = ['received', 'approved', 'disputed', 'paid'] as const;

export const PurchaseInvoiceStateSchema = Type.Union(
  PURCHASE_INVOICE_STATES.map((s) => Type.Literal(s)),
  {
    title: 'PurchaseInvoiceState',
    description:
      'received: arrived, nobody decided yet. approved: to be paid (payments may be recorded). disputed: refused for now, with a reason (approve it once settled). paid: payments reached the amount due.',
  },
);

export const VERDICTS = ['valid', 'valid with warnings', 'invalid'] as const;

export const FindingSchema = Type.Object(
  {
    rule: Type.String({
      description:
        'The official rule id (BR-CO-10, PEPPOL-EN16931-R010, BR-DE-15), or the structural check (XSD-REQUIRED, XSD-DECIMAL, …).',
      examples: ['BR-CO-10'],
    }),
    severity: Type.Union([Type.Literal('fatal'), Type.Literal('warning')]),
    term: Type.String({
      description: 'The business term or group the rule is about (BT-106, BG-23); empty for a structural finding.',
      examples: ['BT-106'],
    }),
    location: Type.String({
      description: 'Where in the document: an XPath into the XML that was read.',
      examples: ['/Invoice[1]/cac:LegalMonetaryTotal[1]/cbc:LineExtensionAmount[1]'],
    }),
    message: Type.String(),
  },
  { title: 'RuleFinding' },
);

export const VerdictSchema = Type.Object(
  {
    verdict: Type.Union(
      VERDICTS.map((v) => Type.Literal(v)),
      {
        description:
          'invalid: a fatal rule or the structure failed (the document is kept all the same). valid with warnings: only warnings. valid: nothing found.',
      },
    ),
    rulesApplied: Type.Array(Type.Union([Type.Literal('en16931'), Type.Literal('peppol'), Type.Literal('xrechnung')]), {
      description:
        'The rule sets the document was judged by: EN 16931 always, Peppol BIS 3 or XRechnung when its BT-24 claims them.',
    }),
    structure: Type.Object(
      {
        valid: Type.Boolean(),
        check: Type.Literal('schema-less', {
          description:
            'The structure is checked by the reader without the XSDs (required elements, decimals, dates, indicators, currency codes): no schema is fetched or loaded at run time. It is not a full XSD validation.',
        }),
        findings: Type.Array(FindingSchema),
      },
      { description: 'The structural result.' },
    ),
    findings: Type.Array(FindingSchema, { description: 'Every failed business rule, with its official id.' }),
  },
  { title: 'Verdict', description: 'How the rules judged the document when it arrived.' },
);

export const PurchaseAttachmentSchema = Type.Object(
  {
    n: Type.Integer({
      minimum: 1,
      description: 'Its number: GET /purchase-invoice/{id}/attachments/{n} answers its bytes.',
    }),
    source: Type.Union([Type.Literal('xml'), Type.Literal('pdf')], {
      description: 'xml: a BG-24 attachment of the XML; pdf: another file embedded in the PDF.',
    }),
    name: NullableString,
    mimeType: NullableString,
    description: NullableString,
    size: Type.Integer({ minimum: 0 }),
    sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  },
  { title: 'PurchaseAttachment' },
);

export const PurchasePaymentSchema = Type.Object(
  {
    id: Type.String({ examples: ['ppay_01956b21-5d6e-7f80-9a1b-2c3d4e5f6a7b'] }),
    amount: Type.String({ pattern: '^\\d+(?:\\.\\d+)?$', description: "What was paid, in the document's currency." }),
    date: Type.String({ format: 'date' }),
    method: PaymentMethodSchema,
    reference: NullableString,
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'PurchasePayment', description: 'Money paid to the supplier on this purchase invoice.' },
);

const summaryFields = {
  id: Type.String({ examples: ['pin_01956b20-4c5d-7e6f-8a9b-0c1d2e3f4a5b'] }),
  livemode: Livemode,
  kind: Type.Union([Type.Literal('invoice'), Type.Literal('credit-note')], {
    description: 'A purchase invoice, or a credit note from the supplier (which reduces what we owe).',
  }),
  number: Nullable(Type.String({ description: 'BT-1 as written.' })),
  typeCode: NullableString,
  issueDate: Nullable(Type.String({ description: 'BT-2 as written (YYYY-MM-DD in a valid document).' })),
  dueDate: Nullable(Type.String({ description: 'BT-9 as written.' })),
  currency: NullableString,
  supplier: Type.Object(
    {
      organizationId: Type.String({
        description: 'The organization the seller was matched to, or created as (isSupplier true).',
      }),
      name: Nullable(Type.String({ description: 'BT-27 as the document names the seller.' })),
      matchedBy: Type.Union(
        [
          Type.Literal('electronicAddress'),
          Type.Literal('vatId'),
          Type.Literal('legalRegistrationId'),
          Type.Literal('name'),
          Type.Literal('created'),
        ],
        {
          description:
            'How the seller was found among your organizations when the document arrived (name: only for a seller that states no identifier), or created: a new supplier.',
        },
      ),
    },
    { title: 'PurchaseSupplier' },
  ),
  totals: EinvoiceTotalsSchema,
  amountPaid: Type.String({ description: "What we paid on it, in the currency's digits." }),
  amountCredited: Type.String({ description: "The payables of the supplier's credit notes that correct it." }),
  amountDue: Nullable(
    Type.String({
      description:
        'What is still owed: the payable (BT-115) less payments and credit notes; below zero when the supplier owes us. null when the document states no payable amount.',
    }),
  ),
  state: PurchaseInvoiceStateSchema,
  disputeReason: NullableString,
  correctsNumber: Nullable(
    Type.String({ description: "A credit note's BT-25: the number of the invoice it corrects." }),
  ),
  correctsId: Nullable(
    Type.String({ description: 'The purchase invoice of that number from the same supplier, when it was received.' }),
  ),
  creditNoteIds: Type.Array(Type.String(), { description: 'The supplier credit notes that correct this invoice.' }),
  syntax: Type.Union([Type.Literal('ubl'), Type.Literal('cii')]),
  profile: Type.String({
    description:
      'What BT-24 claims: en16931, peppol, xrechnung, factur-x-minimum, factur-x-basic-wl, factur-x-basic, factur-x-extended, or unknown.',
  }),
  container: Type.Union([Type.Literal('xml'), Type.Literal('pdf')], {
    description: 'pdf: the XML came embedded in a PDF (Factur-X, ZUGFeRD, XRechnung in a PDF).',
  }),
  verdict: Type.Union(VERDICTS.map((v) => Type.Literal(v))),
  original: Type.Object(
    {
      contentType: Type.String({ examples: ['application/xml'] }),
      size: Type.Integer(),
      sha256: Type.String({
        pattern: '^[0-9a-f]{64}$',
        description: 'Of the bytes as uploaded: GET /purchase-invoice/{id}/original answers exactly these.',
      }),
    },
    { title: 'PurchaseOriginal' },
  ),
  attachments: Type.Array(PurchaseAttachmentSchema),
  payments: Type.Array(PurchasePaymentSchema),
  channel: Type.String({ description: 'How it arrived: api (POST /purchase-invoice) or panel.' }),
  receivedAt: Type.String({ format: 'date-time' }),
  approvedAt: Nullable(Type.String({ format: 'date-time' })),
  disputedAt: Nullable(Type.String({ format: 'date-time' })),
  paidAt: Nullable(Type.String({ format: 'date-time' })),
};

export const PurchaseInvoiceSummarySchema = Type.Object(summaryFields, {
  title: 'PurchaseInvoiceSummary',
  description:
    'A received document as lists show it: without the document itself, its findings and what was not mapped (GET /purchase-invoice/{id} has them).',
});

export const PurchaseInvoiceSchema = Type.Object(
  {
    ...summaryFields,
    judgement: VerdictSchema,
    document: EinvoiceSchema,
    unmappedCount: Type.Integer({
      minimum: 0,
      description:
        'How many values the document holds that the model has no field for. They are kept, each with its place, and GET /purchase-invoice/{id}/unmapped pages through them (a document may hold thousands); the original has them too.',
    }),
  },
  {
    title: 'PurchaseInvoice',
    description:
      'A received e-invoice or supplier credit note, read into the EN 16931 model and judged by the rules it claims.',
  },
);

export type PurchaseInvoiceSummary = Static<typeof PurchaseInvoiceSummarySchema>;
export type PurchaseInvoice = Static<typeof PurchaseInvoiceSchema>;

/** One value the model has no field for, as GET /purchase-invoice/{id}/unmapped pages them. */
export const UnmappedEntrySchema = Type.Object(
  {
    n: Type.Integer({ minimum: 1, description: 'Its place in the list: 1, 2, … in document order.' }),
    path: Type.String({
      description: 'An XPath into the XML that was read.',
      examples: ['/Invoice[1]/cac:Delivery[1]/cac:DeliveryLocation[1]/cbc:Description[1]'],
    }),
    value: Type.String({ description: 'The text it holds, as written.' }),
  },
  { title: 'UnmappedEntry' },
);

export type UnmappedEntry = Static<typeof UnmappedEntrySchema>;

/** POST /purchase-invoice/{id}/dispute */
export const DisputeBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: 1000,
      description: 'Why the invoice is disputed (what is wrong with it); shown with it.',
    }),
  },
  { title: 'DisputePurchaseInvoiceInput', additionalProperties: false },
);

/** POST /purchase-invoice/{id}/payment */
export const PurchasePaymentBody = Type.Object(
  {
    amount: AmountInput,
    date: Type.Optional(Nullable(DateInput('YYYY-MM-DD, the day the money left; default today (UTC).'))),
    method: Type.Optional(Nullable(PaymentMethodSchema)),
    reference: Type.Optional(
      Nullable(Type.String({ maxLength: 200, description: 'Your reference: a bank transaction id, …' })),
    ),
  },
  { title: 'CreatePurchasePaymentInput', additionalProperties: false },
);

export type PurchasePaymentInput = Static<typeof PurchasePaymentBody>;
