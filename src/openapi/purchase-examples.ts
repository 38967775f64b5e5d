// The received documents the OpenAPI examples show: one purchase invoice from a supplier, as
// received, approved and paid. Each is validated against its schema by a test.

export const PURCHASE_INVOICE_ID = 'pin_01956b20-4c5d-7e6f-8a9b-0c1d2e3f4a5b';
const SUPPLIER_ID = 'org_01956b1f-3a4b-7c5d-8e6f-7a8b9c0d1e2f';

const totals = {
  lineNetTotal: '400.00',
  allowanceTotal: null,
  chargeTotal: null,
  taxExclusive: '400.00',
  taxTotal: '76.00',
  taxInclusive: '476.00',
  roundingAmount: null,
  payable: '476.00',
};

const document = {
  specificationId: 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0',
  typeCode: '380',
  number: 'R-2026-0815',
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  currency: { code: 'EUR', minorDigits: 2 },
  buyerReference: '04011000-12345-34',
  purchaseOrderReference: null,
  note: null,
  paymentTerms: 'Payable within 30 days.',
  deliveryDate: '2026-02-27',
  invoicePeriod: null,
  deliverTo: null,
  precedingInvoice: null,
  seller: {
    name: 'Nordlicht Bürobedarf GmbH',
    tradingName: null,
    identifier: null,
    legalRegistrationId: { id: 'HRB 4711', schemeId: null },
    vatId: 'DE811907980',
    taxRegistrationId: null,
    electronicAddress: { id: 'DE811907980', schemeId: '9930' },
    address: { line1: 'Lindenstraße 5', line2: null, city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
    contact: { name: 'Jana Nordlicht', phone: '+49 40 123456', email: 'rechnung@nordlicht.example' },
  },
  buyer: {
    name: 'Example Software GmbH',
    tradingName: null,
    identifier: null,
    legalRegistrationId: null,
    vatId: 'DE123456789',
    taxRegistrationId: null,
    electronicAddress: { id: 'DE123456789', schemeId: '9930' },
    address: { line1: 'Friedrichstr. 100', line2: null, city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
    contact: null,
  },
  paymentMeans: {
    code: '58',
    remittanceInformation: 'R-2026-0815',
    creditTransfer: {
      accountId: 'DE02120300000000202051',
      accountName: 'Nordlicht Bürobedarf GmbH',
      serviceProviderId: 'BYLADEM1001',
    },
    card: null,
    directDebit: null,
  },
  allowances: [],
  charges: [],
  lines: [
    {
      id: '1',
      name: 'Office chairs',
      description: null,
      quantity: '4',
      unitCode: 'H87',
      price: { amount: '100.00', baseQuantity: null },
      allowances: [],
      netAmount: '400.00',
      vatCategory: 'S',
      vatRate: '19',
    },
  ],
  vatBreakdown: [
    {
      vatCategory: 'S',
      vatRate: '19',
      taxableAmount: '400.00',
      taxAmount: '76.00',
      exemptionReason: null,
      exemptionReasonCode: null,
    },
  ],
  totals,
};

export const purchaseInvoiceSummary = {
  id: PURCHASE_INVOICE_ID,
  livemode: true,
  kind: 'invoice',
  number: 'R-2026-0815',
  typeCode: '380',
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  currency: 'EUR',
  supplier: { organizationId: SUPPLIER_ID, name: 'Nordlicht Bürobedarf GmbH', matchedBy: 'electronicAddress' },
  totals,
  amountPaid: '0.00',
  amountCredited: '0.00',
  amountDue: '476.00',
  state: 'received',
  disputeReason: null,
  correctsNumber: null,
  correctsId: null,
  creditNoteIds: [],
  syntax: 'ubl',
  profile: 'xrechnung',
  container: 'xml',
  verdict: 'valid',
  original: {
    contentType: 'application/xml',
    size: 6135,
    sha256: '9f2c4d1e8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e',
  },
  attachments: [],
  payments: [],
  channel: 'api',
  receivedAt: '2026-03-03T07:41:12.508Z',
  approvedAt: null,
  disputedAt: null,
  paidAt: null,
};

export const purchaseInvoice = {
  ...purchaseInvoiceSummary,
  judgement: {
    verdict: 'valid',
    rulesApplied: ['en16931', 'xrechnung'],
    structure: { valid: true, check: 'schema-less', findings: [] },
    findings: [],
  },
  document,
  unmappedCount: 1,
};

export const approvedPurchaseInvoice = {
  ...purchaseInvoice,
  state: 'approved',
  approvedAt: '2026-03-04T10:02:31.117Z',
};

export const disputedPurchaseInvoice = {
  ...purchaseInvoice,
  state: 'disputed',
  disputeReason: 'Only three chairs were delivered.',
  disputedAt: '2026-03-04T10:02:31.117Z',
};

export const paidPurchaseInvoice = {
  ...approvedPurchaseInvoice,
  state: 'paid',
  amountPaid: '476.00',
  amountDue: '0.00',
  payments: [
    {
      id: 'ppay_01956b21-5d6e-7f80-9a1b-2c3d4e5f6a7b',
      amount: '476.00',
      date: '2026-03-28',
      method: 'credit_transfer',
      reference: 'SEPA 2026-03-28/17',
      createdAt: '2026-03-28T09:12:44.301Z',
    },
  ],
  paidAt: '2026-03-28T09:12:44.301Z',
};
