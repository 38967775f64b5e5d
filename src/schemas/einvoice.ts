import { Type, type TSchema } from '@sinclair/typebox';
import { Nullable } from './nullable.js';

// The EN 16931 model of a received document (src/documents/einvoice-model.ts) as the API answers
// it: every business term by the name the model gives it, its text exactly as the document wrote
// it (amounts too: "1234.50" stays "1234.50", and a document that wrote "abc" where an amount
// belongs says "abc", which its findings name). Absent terms are null; terms only some documents
// have may be left out. An embedded attachment (BT-125) names the file it is kept as instead of
// carrying its bytes: GET /purchase-invoice/{id}/attachments/{n}.

const Text = (description?: string) => Nullable(Type.String(description ? { description } : {}));
const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

const SchemedId = Type.Object(
  {
    id: Type.String(),
    schemeId: Nullable(
      Type.String({ description: 'The scheme (ISO 6523 ICD, EAS, …) as written; null when none is given.' }),
    ),
  },
  { title: 'EinvoiceIdentifier' },
);

const Address = Type.Object(
  {
    line1: Text('BT-35 / BT-50 / BT-64 / BT-75'),
    line2: Text('BT-36 / BT-51 / BT-65 / BT-76'),
    line3: Opt(Text('BT-162 / BT-163 / BT-164 / BT-165')),
    city: Text('BT-37 / BT-52 / BT-66 / BT-77'),
    postalCode: Text('BT-38 / BT-53 / BT-67 / BT-78'),
    subdivision: Opt(Text('BT-39 / BT-54 / BT-68 / BT-79')),
    countryCode: Text('BT-40 / BT-55 / BT-69 / BT-80'),
  },
  { title: 'EinvoiceAddress' },
);

const Contact = Type.Object(
  { name: Text('BT-41 / BT-56'), phone: Text('BT-42 / BT-57'), email: Text('BT-43 / BT-58') },
  { title: 'EinvoiceContact' },
);

const Party = Type.Object(
  {
    name: Text('BT-27 / BT-44'),
    tradingName: Text('BT-28 / BT-45'),
    identifier: Nullable(SchemedId),
    identifiers: Opt(Type.Array(SchemedId, { description: 'Every BT-29 / BT-46, when there are several.' })),
    legalRegistrationId: Nullable(SchemedId),
    vatId: Text('BT-31 / BT-48'),
    taxRegistrationId: Text('BT-32 (seller only)'),
    additionalLegalInformation: Opt(Text('BT-33 (seller only)')),
    electronicAddress: Nullable(SchemedId),
    address: Nullable(Address),
    contact: Nullable(Contact),
  },
  { title: 'EinvoiceParty', description: 'BG-4 seller or BG-7 buyer.' },
);

const CreditTransfer = Type.Object(
  { accountId: Text('BT-84'), accountName: Text('BT-85'), serviceProviderId: Text('BT-86') },
  { title: 'EinvoiceCreditTransfer', description: 'BG-17' },
);

const PaymentMeans = Type.Object(
  {
    code: Text('BT-81'),
    text: Opt(Text('BT-82')),
    remittanceInformation: Text('BT-83'),
    creditTransfer: Nullable(CreditTransfer),
    creditTransfers: Opt(Type.Array(CreditTransfer)),
    card: Nullable(Type.Object({ accountNumber: Text('BT-87'), holderName: Text('BT-88') })),
    directDebit: Nullable(
      Type.Object({ mandateReference: Text('BT-89'), creditorId: Text('BT-90'), debitedAccountId: Text('BT-91') }),
    ),
  },
  { title: 'EinvoicePaymentMeans', description: 'BG-16' },
);

const allowanceChargeFields = {
  amount: Text('BT-92 / BT-99 / BT-136 / BT-141'),
  baseAmount: Opt(Text('BT-93 / BT-100 / BT-137 / BT-142')),
  percent: Opt(Text('BT-94 / BT-101 / BT-138 / BT-143')),
  reason: Text('BT-97 / BT-104 / BT-139 / BT-144'),
  reasonCode: Text('BT-98 / BT-105 / BT-140 / BT-145'),
};
const TaxScheme = Opt(Text('The tax scheme of the category as written (VAT); left out when the syntax has none.'));

const LineAllowanceCharge = Type.Object(allowanceChargeFields, {
  title: 'EinvoiceLineAllowanceCharge',
  description: 'BG-27 / BG-28',
});

const DocumentAllowanceCharge = Type.Object(
  {
    ...allowanceChargeFields,
    vatCategory: Text('BT-95 / BT-102'),
    vatRate: Text('BT-96 / BT-103'),
    taxScheme: TaxScheme,
  },
  { title: 'EinvoiceAllowanceCharge', description: 'BG-20 / BG-21' },
);

const Period = Type.Object({ startDate: Text(), endDate: Text() }, { title: 'EinvoicePeriod' });

const Line = Type.Object(
  {
    id: Text('BT-126'),
    note: Opt(Text('BT-127')),
    objectId: Opt(Nullable(SchemedId)),
    name: Text('BT-153'),
    description: Text('BT-154'),
    quantity: Text('BT-129'),
    unitCode: Text('BT-130'),
    price: Nullable(
      Type.Object({
        amount: Text('BT-146'),
        baseQuantity: Text('BT-149'),
        baseQuantityUnitCode: Opt(Text('BT-150')),
        grossAmount: Opt(Text('BT-148')),
        discount: Opt(Text('BT-147')),
      }),
    ),
    allowances: Type.Array(LineAllowanceCharge),
    charges: Opt(Type.Array(LineAllowanceCharge)),
    netAmount: Text('BT-131'),
    vatCategory: Text('BT-151'),
    vatRate: Text('BT-152'),
    taxScheme: TaxScheme,
    period: Opt(Nullable(Period)),
    orderLineReference: Opt(Text('BT-132')),
    accountingReference: Opt(Text('BT-133')),
    sellerItemId: Opt(Text('BT-155')),
    buyerItemId: Opt(Text('BT-156')),
    standardItemId: Opt(Nullable(SchemedId)),
    classifications: Opt(Type.Array(Type.Object({ code: Type.String(), listId: Text(), listVersion: Text() }))),
    originCountry: Opt(Text('BT-159')),
    attributes: Opt(Type.Array(Type.Object({ name: Text('BT-160'), value: Text('BT-161') }))),
  },
  { title: 'EinvoiceLine', description: 'BG-25' },
);

const VatBreakdown = Type.Object(
  {
    vatCategory: Text('BT-118'),
    vatRate: Text('BT-119'),
    taxableAmount: Text('BT-116'),
    taxAmount: Text('BT-117'),
    exemptionReason: Text('BT-120'),
    exemptionReasonCode: Text('BT-121'),
    taxScheme: TaxScheme,
  },
  { title: 'EinvoiceVatBreakdown', description: 'BG-23' },
);

export const EinvoiceTotalsSchema = Type.Object(
  {
    lineNetTotal: Text('BT-106'),
    allowanceTotal: Text('BT-107'),
    chargeTotal: Text('BT-108'),
    taxExclusive: Text('BT-109'),
    taxTotal: Text('BT-110'),
    taxTotalCurrency: Opt(Text('The currency BT-110 is stated in, as written.')),
    taxTotalAccounting: Opt(Text('BT-111')),
    taxInclusive: Text('BT-112'),
    prepaid: Opt(Text('BT-113')),
    roundingAmount: Text('BT-114'),
    payable: Text('BT-115'),
  },
  { title: 'EinvoiceTotals', description: 'BG-22, every amount exactly as the document wrote it.' },
);

const Attachment = Type.Object(
  {
    id: Text('BT-122'),
    description: Text('BT-123'),
    uri: Text('BT-124'),
    embedded: Nullable(
      Type.Object({
        mimeCode: Text('BT-125-1'),
        filename: Text('BT-125-2'),
        file: Type.Integer({
          minimum: 1,
          description: 'The attachment number n of GET /purchase-invoice/{id}/attachments/{n} holding the bytes.',
        }),
      }),
    ),
  },
  { title: 'EinvoiceAttachment', description: 'BG-24' },
);

const DateRef = Type.Object({ number: Text('BT-25'), issueDate: Text('BT-26') });

export const EinvoiceSchema = Type.Object(
  {
    specificationId: Opt(Text('BT-24')),
    businessProcess: Opt(Text('BT-23')),
    typeCode: Text('BT-3'),
    number: Text('BT-1'),
    issueDate: Text('BT-2'),
    dueDate: Text('BT-9'),
    currency: Type.Object({
      code: Text('BT-5'),
      minorDigits: Type.Integer({ description: 'The minor-unit digits the rules round to.' }),
    }),
    taxCurrencyCode: Opt(Text('BT-6')),
    taxPointDate: Opt(Text('BT-7')),
    taxPointDateCode: Opt(Text('BT-8')),
    buyerReference: Text('BT-10'),
    projectReference: Opt(Text('BT-11')),
    contractReference: Opt(Text('BT-12')),
    purchaseOrderReference: Text('BT-13'),
    salesOrderReference: Opt(Text('BT-14')),
    receivingAdviceReference: Opt(Text('BT-15')),
    despatchAdviceReference: Opt(Text('BT-16')),
    tenderReference: Opt(Text('BT-17')),
    invoicedObjectId: Opt(Nullable(SchemedId)),
    buyerAccountingReference: Opt(Text('BT-19')),
    note: Text('BT-22 (the first note)'),
    notes: Opt(
      Type.Array(Type.Object({ subjectCode: Text('BT-21'), text: Type.String() }), {
        description: 'BG-1: every note.',
      }),
    ),
    paymentTerms: Text('BT-20'),
    deliveryDate: Text('BT-72'),
    invoicePeriod: Nullable(Period),
    deliverTo: Nullable(
      Type.Object({ name: Text('BT-70'), locationId: Opt(Nullable(SchemedId)), address: Nullable(Address) }),
    ),
    precedingInvoice: Nullable(DateRef),
    precedingInvoices: Opt(Type.Array(DateRef)),
    seller: Party,
    buyer: Party,
    payee: Opt(
      Nullable(
        Type.Object({ name: Text('BT-59'), identifier: Nullable(SchemedId), legalRegistrationId: Nullable(SchemedId) }),
      ),
    ),
    taxRepresentative: Opt(
      Nullable(Type.Object({ name: Text('BT-62'), vatId: Text('BT-63'), address: Nullable(Address) })),
    ),
    paymentMeans: Nullable(PaymentMeans),
    allPaymentMeans: Opt(Type.Array(PaymentMeans)),
    allowances: Type.Array(DocumentAllowanceCharge),
    charges: Type.Array(DocumentAllowanceCharge),
    lines: Type.Array(Line),
    vatBreakdown: Type.Array(VatBreakdown),
    totals: EinvoiceTotalsSchema,
    attachments: Opt(Type.Array(Attachment)),
  },
  {
    title: 'Einvoice',
    description:
      'The received document read into the EN 16931 model: each field names its business term (BT-…) or group (BG-…), its text exactly as written.',
  },
);
