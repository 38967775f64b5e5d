// The resources the OpenAPI examples show, consistent with each other: one customer, one
// invoice in its states, and a credit note of it. Each is validated against its schema by a test.

export const ORGANIZATION_ID = 'org_01956a3c-7f10-7c2e-9b4d-2c5e8a1b3d4f';
export const INVOICE_ID = 'inv_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57';
export const CREDIT_NOTE_ID = 'cn_01956a41-2b7d-7e21-9c3f-8a1b2c3d4e5f';

export const organization = {
  id: ORGANIZATION_ID,
  livemode: true,
  name: 'Acme Trading GmbH',
  typeCode: 'P',
  firstName: null,
  lastName: null,
  isCustomer: true,
  isSupplier: false,
  email: 'billing@acme.example',
  phone: '+49 30 123456',
  vatId: 'DE811907980',
  taxNumber: null,
  address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
  legalRegistrationId: 'HRB 12345 B',
  archived: false,
  createdAt: '2026-03-02T09:14:58.311Z',
};

const buyer = {
  name: 'Acme Trading GmbH',
  typeCode: 'P',
  firstName: null,
  lastName: null,
  vatId: 'DE811907980',
  taxNumber: null,
  legalRegistrationId: 'HRB 12345 B',
  email: 'billing@acme.example',
  phone: '+49 30 123456',
  address: { line1: 'Hauptstr. 1', line2: null, city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};

const sellerAddress = {
  line1: 'Friedrichstr. 100',
  line2: null,
  city: 'Berlin',
  postalCode: '10117',
  countryCode: 'DE',
};
const sellerContact = { name: 'Ada Example', phone: '+49 30 987654', email: 'billing@example-software.example' };

export const company = {
  id: 'cmp_01956a30-1b2c-7d3e-8f40-5a6b7c8d9e0f',
  name: 'Example Software',
  legalName: 'Example Software GmbH',
  currency: 'EUR',
  address: sellerAddress,
  vatId: 'DE123456789',
  taxNumber: '27/123/45678',
  legalRegistrationId: 'HRB 98765 B',
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  contact: sellerContact,
  bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: 'Example Software GmbH' },
  paymentTerms: 'Payable within 30 days without deduction.',
  creditorId: null,
  createdAt: '2026-01-05T08:00:00.000Z',
  updatedAt: '2026-02-10T15:30:00.000Z',
};

const seller = {
  name: 'Example Software',
  legalName: 'Example Software GmbH',
  vatId: 'DE123456789',
  taxNumber: '27/123/45678',
  legalRegistrationId: 'HRB 98765 B',
  countryCode: 'DE',
  address: sellerAddress,
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  contact: sellerContact,
  creditorId: null,
};

const paymentMeans = {
  code: '58',
  iban: 'DE89370400440532013000',
  bic: 'COBADEFFXXX',
  accountName: 'Example Software GmbH',
  mandateReference: null,
  payerIban: null,
  cardLastDigits: null,
};

const documentExtras = {
  paymentMeans,
  paymentTerms: 'Payable within 30 days without deduction.',
  deliveryDate: '2026-02-27',
  invoicePeriod: null,
  allowances: [],
  charges: [],
};

const line = {
  position: 1,
  name: 'Consulting (hours)',
  description: null,
  quantity: '3',
  unitCode: 'HUR',
  unitPrice: '19.99',
  discountPercent: null,
  vatRate: '19',
  vatCategory: 'S',
  exemptionReason: null,
  netAmount: '59.97',
};

/** The example documents export as Factur-X and Peppol; XRechnung asks for the buyer reference (Leitweg-ID). */
const einvoice = {
  exportableTo: ['en16931', 'peppol'],
  missing: {
    en16931: [],
    peppol: [],
    xrechnung: [
      {
        field: 'buyerReference',
        code: 'BR-DE-15',
        message: 'Set the buyer reference (BT-10; for German public buyers their Leitweg-ID).',
      },
    ],
  },
};

export const invoice = {
  id: INVOICE_ID,
  livemode: true,
  number: '2026-00042',
  status: 'issued',
  organizationId: ORGANIZATION_ID,
  buyer,
  seller,
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  currency: 'EUR',
  pricesIncludeTax: false,
  buyerReference: null,
  purchaseOrderReference: 'PO-7781',
  tenderReference: null,
  quoteId: null,
  note: null,
  ...documentExtras,
  lines: [line],
  vatBreakdown: [
    { vatCategory: 'S', vatRate: '19', taxableAmount: '59.97', taxAmount: '11.39', exemptionReason: null },
  ],
  totals: {
    lineNetTotal: '59.97',
    allowanceTotal: '0.00',
    chargeTotal: '0.00',
    taxExclusive: '59.97',
    taxTotal: '11.39',
    taxInclusive: '71.36',
    roundingAmount: '0.00',
    payable: '71.36',
  },
  amountPaid: '0.00',
  amountCredited: '0.00',
  amountRefunded: '0.00',
  amountDue: '71.36',
  isOverdue: false,
  payments: [],
  refunds: [],
  creditNoteIds: [],
  einvoice,
  statusTransitions: { finalizedAt: '2026-03-02T09:15:04.150Z', paidAt: null, voidedAt: null },
  pdfSha256: { en: null, de: '5b0c8f8e3c1d6a0f2e4b7c9d1a3f5e7b9c2d4f6a8b0c1e3d5f7a9b2c4d6e8f0a', fr: null },
  createdAt: '2026-03-02T09:15:04.150Z',
};

export const draftInvoice = {
  ...invoice,
  number: null,
  status: 'draft',
  issueDate: null,
  einvoice: null,
  statusTransitions: { finalizedAt: null, paidAt: null, voidedAt: null },
  pdfSha256: { en: null, de: null, fr: null },
};

export const paidInvoice = {
  ...invoice,
  status: 'paid',
  amountPaid: '71.36',
  amountDue: '0.00',
  payments: [
    {
      id: 'pay_01956b02-6c1e-7a3b-8d4f-1e2a3b4c5d6e',
      livemode: true,
      amount: '71.36',
      date: '2026-03-20',
      method: 'credit_transfer',
      reference: 'SEPA 4711',
      createdAt: '2026-03-20T08:02:11.410Z',
    },
  ],
  statusTransitions: { finalizedAt: '2026-03-02T09:15:04.150Z', paidAt: '2026-03-20T08:02:11.410Z', voidedAt: null },
};

export const REFUND_ID = 'rfd_01956c11-3d4e-7f50-8a6b-7c8d9e0f1a2b';

/** Paid in full, then credited one hour (23.79): the refund pays that back. */
export const refundedInvoice = {
  ...paidInvoice,
  amountCredited: '23.79',
  amountRefunded: '23.79',
  amountDue: '0.00',
  refunds: [
    {
      id: REFUND_ID,
      livemode: true,
      amount: '23.79',
      date: '2026-03-25',
      method: 'credit_transfer',
      reference: 'Refund CN-2026-00007',
      createdAt: '2026-03-25T10:12:40.019Z',
    },
  ],
  creditNoteIds: [CREDIT_NOTE_ID],
};

export const paymentRecord = {
  ...paidInvoice.payments[0]!,
  kind: 'payment',
  invoiceId: INVOICE_ID,
  invoiceNumber: '2026-00042',
  currency: 'EUR',
};
export const refundRecord = {
  ...refundedInvoice.refunds[0]!,
  kind: 'refund',
  invoiceId: INVOICE_ID,
  invoiceNumber: '2026-00042',
  currency: 'EUR',
};

export const voidedInvoice = {
  ...invoice,
  status: 'void',
  amountCredited: '71.36',
  amountDue: '0.00',
  creditNoteIds: ['cn_01956a42-7e1f-7c20-8d3e-4f5a6b7c8d9e'],
  statusTransitions: { finalizedAt: '2026-03-02T09:15:04.150Z', paidAt: null, voidedAt: '2026-03-03T10:00:00.000Z' },
};

export const creditNote = {
  id: CREDIT_NOTE_ID,
  livemode: true,
  number: 'CN-2026-00007',
  invoiceId: INVOICE_ID,
  invoiceNumber: '2026-00042',
  reason: 'One hour was not delivered.',
  buyerReference: null,
  purchaseOrderReference: 'PO-7781',
  issueDate: '2026-03-03',
  currency: 'EUR',
  pricesIncludeTax: false,
  buyer,
  seller,
  note: null,
  ...documentExtras,
  lines: [{ ...line, quantity: '1', netAmount: '19.99' }],
  vatBreakdown: [{ vatCategory: 'S', vatRate: '19', taxableAmount: '19.99', taxAmount: '3.80', exemptionReason: null }],
  totals: {
    lineNetTotal: '19.99',
    allowanceTotal: '0.00',
    chargeTotal: '0.00',
    taxExclusive: '19.99',
    taxTotal: '3.80',
    taxInclusive: '23.79',
    roundingAmount: '0.00',
    payable: '23.79',
  },
  pdfSha256: { en: null, de: null, fr: null },
  einvoice,
  createdAt: '2026-03-03T10:00:00.000Z',
};

export const EVENT_ID = 'evt_01956b02-6c1f-7b44-9a2c-3d4e5f6a7b8c';

export const paymentEvent = {
  id: EVENT_ID,
  livemode: true,
  type: 'payment.created',
  createdAt: '2026-03-20T08:02:11.410Z',
  requestId: 'req_2c7e9f1a-4b3d-4e8a-9c21-7d6f5e4a3b2c',
  data: { object: { ...paidInvoice.payments[0]!, invoiceId: INVOICE_ID } },
};

export const invoicePaidEvent = {
  id: 'evt_01956b02-6c1f-7b44-9a2c-3d4e5f6a7b8d',
  livemode: true,
  type: 'invoice.paid',
  createdAt: '2026-03-20T08:02:11.410Z',
  requestId: 'req_2c7e9f1a-4b3d-4e8a-9c21-7d6f5e4a3b2c',
  data: { object: paidInvoice },
};

export const WEBHOOK_ENDPOINT_ID = 'we_01956b10-2a3b-7c4d-8e5f-6a7b8c9d0e1f';

export const webhookEndpoint = {
  id: WEBHOOK_ENDPOINT_ID,
  livemode: true,
  url: 'https://erp.example.com/hooks/invoicing',
  events: ['invoice.finalized', 'invoice.paid', 'credit-note.created'],
  description: 'ERP sync',
  enabled: true,
  disabledReason: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
};

export const webhookEndpointWithSecret = {
  ...webhookEndpoint,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6sAmmJ3xXQc=',
};

export const emailDelivery = {
  id: 'eml_01956a45-1c2d-7e3f-8a4b-5c6d7e8f9a0b',
  documentKind: 'invoice',
  documentId: INVOICE_ID,
  status: 'queued',
  to: ['ap@buyer.example'],
  cc: [],
  from: '"Seller Software GmbH" <invoices@service.example>',
  replyTo: 'billing@seller.example',
  language: 'de',
  xmlFormat: 'cii',
  subject: 'Rechnung 2026-00042 von Seller Software GmbH',
  messageId: '<eml_01956a45-1c2d-7e3f-8a4b-5c6d7e8f9a0b@service.example>',
  attachments: [],
  attempts: 0,
  smtpResponse: null,
  failureReason: null,
  nextAttemptAt: '2026-03-02T09:20:00.000Z',
  createdAt: '2026-03-02T09:20:00.000Z',
  sentAt: null,
};

export const creditNoteDelivery = {
  ...emailDelivery,
  id: 'eml_01956a46-2d3e-7f40-9b5c-6d7e8f9a0b1c',
  documentKind: 'credit-note',
  documentId: CREDIT_NOTE_ID,
  to: ['accounts@buyer.example'],
  language: 'en',
  xmlFormat: 'xrechnung-ubl',
  subject: 'Credit note CN-2026-00007 from Seller Software GmbH',
  messageId: '<eml_01956a46-2d3e-7f40-9b5c-6d7e8f9a0b1c@service.example>',
};

export const customInvoiceTemplate = {
  documentKind: 'invoice',
  language: 'de',
  subject: 'Ihre Rechnung {{number}} von {{seller}}',
  body: 'Guten Tag,\n\nanbei die Rechnung {{number}} über {{amount}} {{currency}}, fällig am {{dueDate}}.\n\nViele Grüße\n{{seller}}\n',
  custom: true,
  updatedAt: '2026-03-01T12:00:00.000Z',
};

export const defaultInvoiceTemplate = {
  documentKind: 'invoice',
  language: 'en',
  subject: 'Invoice {{number}} from {{seller}}',
  body: 'Hello,\n\nplease find attached invoice {{number}} of {{issueDate}} over {{amount}} {{currency}}, due on {{dueDate}}.\n\nKind regards\n{{seller}}\n',
  custom: false,
  updatedAt: null,
};
