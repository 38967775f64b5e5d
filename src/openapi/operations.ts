import { API_MAJOR_VERSION, API_VERSION } from '../http/api-version.js';
import {
  INVOICE_ID,
  ORGANIZATION_ID,
  company,
  creditNote,
  draftInvoice,
  invoice,
  invoicePaidEvent,
  organization,
  paidInvoice,
  paymentEvent,
  paymentRecord,
  refundRecord,
  refundedInvoice,
  emailDelivery,
  creditNoteDelivery,
  customInvoiceTemplate,
  defaultInvoiceTemplate,
  voidedInvoice,
  webhookEndpoint,
  webhookEndpointWithSecret,
} from './examples.js';
import {
  invoiceReminders,
  pausedInvoiceReminders,
  reminderPolicy,
  reminderPolicyRequest,
  reminderPreview,
} from './reminder-examples.js';
import {
  endedRecurringInvoice,
  newRecurringInvoice,
  pausedRecurringInvoice,
  recurringInvoice,
  recurringRequest,
} from './recurring-examples.js';
import {
  QUOTE_ID,
  acceptedQuote,
  declinedQuote,
  draftQuote,
  invoiceFromQuote,
  invoicedQuote,
  openQuote,
  quoteRequest,
} from './quote-examples.js';
import {
  approvedPurchaseInvoice,
  disputedPurchaseInvoice,
  paidPurchaseInvoice,
  purchaseInvoice,
  purchaseInvoiceSummary,
} from './purchase-examples.js';

// Operation ids and one realistic example per operation. The examples are data beside the
// schemas, not schemas: a test validates every one of them against the schema it illustrates,
// so they cannot drift from what the API answers.

export interface OperationExtras {
  operationId: string;
  /** The example request body, for operations that take one. */
  requestBody?: unknown;
  /** The example success body (the status is the operation's one 2xx). */
  response?: unknown;
}

const REQUEST_ID = 'req_6f1c2a4e-2b7d-4c1e-9a51-3f0d8e7b9c21';
const meta = {
  requestId: REQUEST_ID,
  requestTime: '2026-03-02T09:15:04.120Z',
  apiVersion: API_MAJOR_VERSION,
  timestamp: '2026-03-02T09:15:04.164Z',
};

const NEXT_CURSOR = 'MjAyNi0wMy0wMlQwOToxNDo1OC4zMTFafG9yZ18wMTk1NmEzYy03ZjEwLTdjMmUtOWI0ZC0yYzVlOGExYjNkNGY';

const EXTRAS: Record<string, OperationExtras> = {
  'GET /': {
    operationId: 'getHealth',
    response: {
      success: true,
      message: 'Service is up.',
      data: {
        status: 'ok',
        version: API_VERSION,
        companyId: 'cmp_01956a30-1b2c-7d3e-8f40-5a6b7c8d9e0f',
        keyPrefix: 'AbCdEfGh',
        livemode: true,
        permissions: ['invoice.create', 'invoice.read', 'organization.create', 'organization.read'],
      },
      meta,
    },
  },
  'GET /openapi.json': { operationId: 'getOpenApiDocument' },
  'POST /organization': {
    operationId: 'createOrganization',
    requestBody: {
      name: 'Acme Trading GmbH',
      typeCode: 'P',
      isCustomer: true,
      email: 'billing@acme.example',
      phone: '+49 30 123456',
      vatId: 'DE811907980',
      address: { line1: 'Hauptstr. 1', city: 'Berlin', postalCode: '10115', countryCode: 'DE' },
    },
    response: { success: true, message: 'Organization created.', data: organization, meta },
  },
  'GET /organization': {
    operationId: 'listOrganizations',
    response: {
      success: true,
      message: 'Organizations listed.',
      data: { items: [organization], nextCursor: NEXT_CURSOR },
      meta,
    },
  },
  'GET /organization/{id}': {
    operationId: 'getOrganization',
    response: { success: true, message: 'Organization found.', data: organization, meta },
  },
  'POST /invoice': {
    operationId: 'createInvoice',
    requestBody: {
      organizationId: ORGANIZATION_ID,
      issueDate: '2026-03-02',
      purchaseOrderReference: 'PO-7781',
      deliveryDate: '2026-02-27',
      validateFor: ['peppol'],
      lines: [{ name: 'Consulting (hours)', quantity: '3', unitCode: 'HUR', unitPrice: '19.99', vatRate: '19' }],
    },
    response: { success: true, message: 'Invoice 2026-00042 created.', data: invoice, meta },
  },
  'GET /invoice': {
    operationId: 'listInvoices',
    response: { success: true, message: 'Invoices listed.', data: { items: [invoice], nextCursor: null }, meta },
  },
  'GET /invoice/{id}': {
    operationId: 'getInvoice',
    response: { success: true, message: 'Invoice found.', data: invoice, meta },
  },
  'PATCH /invoice/{id}': {
    operationId: 'updateDraftInvoice',
    requestBody: { purchaseOrderReference: 'PO-7782', dueDate: '2026-04-15' },
    response: {
      success: true,
      message: 'Draft invoice updated.',
      data: { ...draftInvoice, purchaseOrderReference: 'PO-7782', dueDate: '2026-04-15' },
      meta,
    },
  },
  'DELETE /invoice/{id}': {
    operationId: 'deleteDraftInvoice',
    response: { success: true, message: 'Draft invoice deleted.', data: { id: INVOICE_ID, deleted: true }, meta },
  },
  'POST /invoice/{id}/finalize': {
    operationId: 'finalizeInvoice',
    requestBody: { validateFor: ['peppol'] },
    response: { success: true, message: 'Invoice 2026-00042 issued.', data: invoice, meta },
  },
  'POST /invoice/{id}/payment': {
    operationId: 'createPayment',
    requestBody: { amount: '71.36', date: '2026-03-20', method: 'credit_transfer', reference: 'SEPA 4711' },
    response: { success: true, message: 'Payment recorded on invoice 2026-00042.', data: paidInvoice, meta },
  },
  'POST /invoice/{id}/refund': {
    operationId: 'createRefund',
    requestBody: { amount: '23.79', date: '2026-03-25', method: 'credit_transfer', reference: 'Refund CN-2026-00007' },
    response: { success: true, message: 'Refund recorded on invoice 2026-00042.', data: refundedInvoice, meta },
  },
  'GET /payment': {
    operationId: 'listPayments',
    response: {
      success: true,
      message: 'Payments listed.',
      data: { items: [refundRecord, paymentRecord], nextCursor: null },
      meta,
    },
  },
  'GET /payment/{id}': {
    operationId: 'getPayment',
    response: { success: true, message: 'Payment found.', data: paymentRecord, meta },
  },
  'POST /invoice/{id}/send': {
    operationId: 'sendInvoice',
    requestBody: { cc: ['controlling@buyer.example'], language: 'de', xmlFormat: 'cii' },
    response: {
      success: true,
      message: 'The invoice is queued to be sent to ap@buyer.example.',
      data: { ...emailDelivery, cc: ['controlling@buyer.example'] },
      meta,
    },
  },
  'POST /credit-note/{id}/send': {
    operationId: 'sendCreditNote',
    requestBody: { to: ['accounts@buyer.example'], language: 'en', xmlFormat: 'xrechnung-ubl' },
    response: {
      success: true,
      message: 'The credit note is queued to be sent to accounts@buyer.example.',
      data: creditNoteDelivery,
      meta,
    },
  },
  'POST /invoice/{id}/hosted-link/rotate': {
    operationId: 'rotateInvoiceHostedLink',
    response: {
      success: true,
      message: 'Hosted page link of invoice 2026-00042 rotated.',
      data: {
        ...invoice,
        hostedUrl: 'https://invoices.example.com/hosted/q3Zr8vN2c0Lx7WbT5yKpA1dE9fGhJ4sU6iOmR0tVwXe',
        viewedAt: '2026-03-04T08:12:40.201Z',
      },
      meta,
    },
  },
  'POST /credit-note/{id}/hosted-link/rotate': {
    operationId: 'rotateCreditNoteHostedLink',
    response: {
      success: true,
      message: 'Hosted page link of credit note CN-2026-00007 rotated.',
      data: {
        ...creditNote,
        hostedUrl: 'https://invoices.example.com/hosted/Yh7Kp2Qw9Ez4Rt6Uy1Io3Pa5Sd8Fg0Hj2Kl4Zx6Cv8B',
        viewedAt: null,
      },
      meta,
    },
  },
  'POST /invoice/{id}/void': {
    operationId: 'voidInvoice',
    response: { success: true, message: 'Invoice 2026-00042 voided.', data: voidedInvoice, meta },
  },
  'POST /credit-note': {
    operationId: 'createCreditNote',
    requestBody: {
      invoiceId: INVOICE_ID,
      reason: 'One hour was not delivered.',
      lines: [{ name: 'Consulting (hours)', quantity: '1', unitCode: 'HUR', unitPrice: '19.99', vatRate: '19' }],
    },
    response: { success: true, message: 'Credit note CN-2026-00007 issued.', data: creditNote, meta },
  },
  'GET /credit-note': {
    operationId: 'listCreditNotes',
    response: { success: true, message: 'Credit notes listed.', data: { items: [creditNote], nextCursor: null }, meta },
  },
  'GET /credit-note/{id}': {
    operationId: 'getCreditNote',
    response: { success: true, message: 'Credit note found.', data: creditNote, meta },
  },
  'GET /company': {
    operationId: 'getCompany',
    response: { success: true, message: 'Company found.', data: company, meta },
  },
  'GET /company/email-templates': {
    operationId: 'listEmailTemplates',
    response: {
      success: true,
      message: 'Email templates listed.',
      data: [customInvoiceTemplate, defaultInvoiceTemplate],
      meta,
    },
  },
  'PUT /company/email-templates/{kind}/{language}': {
    operationId: 'setEmailTemplate',
    requestBody: { subject: customInvoiceTemplate.subject, body: customInvoiceTemplate.body },
    response: { success: true, message: 'Email template set.', data: customInvoiceTemplate, meta },
  },
  'DELETE /company/email-templates/{kind}/{language}': {
    operationId: 'resetEmailTemplate',
    response: { success: true, message: 'Email template reset to the default.', data: defaultInvoiceTemplate, meta },
  },
  'GET /company/reminder-policy': {
    operationId: 'getReminderPolicy',
    response: { success: true, message: 'Reminder policy found.', data: reminderPolicy, meta },
  },
  'PUT /company/reminder-policy': {
    operationId: 'setReminderPolicy',
    requestBody: reminderPolicyRequest,
    response: { success: true, message: 'Reminder policy set.', data: reminderPolicy, meta },
  },
  'GET /company/reminder-policy/preview': {
    operationId: 'previewReminders',
    response: { success: true, message: 'Reminder messages previewed.', data: reminderPreview, meta },
  },
  'GET /invoice/{id}/reminders': {
    operationId: 'getInvoiceReminders',
    response: { success: true, message: 'Reminders found.', data: invoiceReminders, meta },
  },
  'POST /invoice/{id}/reminders/pause': {
    operationId: 'pauseInvoiceReminders',
    requestBody: { reason: 'dispute', note: 'The buyer says 2 hours too many.' },
    response: { success: true, message: 'Reminders of the invoice are paused.', data: pausedInvoiceReminders, meta },
  },
  'POST /invoice/{id}/reminders/resume': {
    operationId: 'resumeInvoiceReminders',
    response: { success: true, message: 'Reminders of the invoice run.', data: invoiceReminders, meta },
  },
  'PATCH /company': {
    operationId: 'updateCompany',
    requestBody: {
      vatId: 'DE123456789',
      bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', accountName: 'Example Software GmbH' },
    },
    response: { success: true, message: 'Company profile updated.', data: company, meta },
  },
  'GET /event': {
    operationId: 'listEvents',
    response: {
      success: true,
      message: 'Events listed.',
      data: { items: [invoicePaidEvent, paymentEvent], nextCursor: null },
      meta,
    },
  },
  'GET /event/{id}': {
    operationId: 'getEvent',
    response: { success: true, message: 'Event found.', data: paymentEvent, meta },
  },
  'POST /webhook-endpoint': {
    operationId: 'createWebhookEndpoint',
    requestBody: { url: webhookEndpoint.url, events: webhookEndpoint.events, description: 'ERP sync' },
    response: {
      success: true,
      message: 'Webhook endpoint created. Store its secret now: it is not shown again.',
      data: webhookEndpointWithSecret,
      meta,
    },
  },
  'GET /webhook-endpoint': {
    operationId: 'listWebhookEndpoints',
    response: {
      success: true,
      message: 'Webhook endpoints listed.',
      data: { items: [webhookEndpoint], nextCursor: null },
      meta,
    },
  },
  'GET /webhook-endpoint/{id}': {
    operationId: 'getWebhookEndpoint',
    response: { success: true, message: 'Webhook endpoint found.', data: webhookEndpoint, meta },
  },
  'PATCH /webhook-endpoint/{id}': {
    operationId: 'updateWebhookEndpoint',
    requestBody: { enabled: false },
    response: {
      success: true,
      message: 'Webhook endpoint updated.',
      data: { ...webhookEndpoint, enabled: false, updatedAt: '2026-03-05T08:00:00.000Z' },
      meta,
    },
  },
  'DELETE /webhook-endpoint/{id}': {
    operationId: 'deleteWebhookEndpoint',
    response: {
      success: true,
      message: 'Webhook endpoint deleted.',
      data: { id: webhookEndpoint.id, deleted: true },
      meta,
    },
  },
  'POST /webhook-endpoint/{id}/rotate-secret': {
    operationId: 'rotateWebhookSecret',
    response: {
      success: true,
      message: 'Secret rotated. Store the new one now: it is not shown again.',
      data: {
        ...webhookEndpointWithSecret,
        secret: 'whsec_q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j7k8l9z0x1c=',
        updatedAt: '2026-03-05T08:00:00.000Z',
      },
      meta,
    },
  },
  'POST /purchase-invoice': {
    operationId: 'receivePurchaseInvoice',
    response: {
      success: true,
      message: 'Purchase invoice R-2026-0815 received from Nordlicht Bürobedarf GmbH: valid.',
      data: purchaseInvoice,
      meta,
    },
  },
  'GET /purchase-invoice': {
    operationId: 'listPurchaseInvoices',
    response: {
      success: true,
      message: 'Purchase invoices listed.',
      data: { items: [purchaseInvoiceSummary], nextCursor: null },
      meta,
    },
  },
  'GET /purchase-invoice/{id}': {
    operationId: 'getPurchaseInvoice',
    response: { success: true, message: 'Purchase invoice found.', data: purchaseInvoice, meta },
  },
  'GET /purchase-invoice/{id}/unmapped': {
    operationId: 'listPurchaseInvoiceUnmapped',
    response: {
      success: true,
      message: 'Unmapped values listed.',
      data: {
        items: [
          {
            n: 1,
            path: '/Invoice[1]/cac:Delivery[1]/cac:DeliveryLocation[1]/cbc:Description[1]',
            value: 'Loading bay 2',
          },
        ],
        nextCursor: null,
      },
      meta,
    },
  },
  'GET /purchase-invoice/{id}/original': { operationId: 'getPurchaseInvoiceOriginal' },
  'GET /purchase-invoice/{id}/attachments/{n}': { operationId: 'getPurchaseInvoiceAttachment' },
  'GET /purchase-invoice/{id}/pdf': { operationId: 'getPurchaseInvoicePdf' },
  'POST /purchase-invoice/{id}/approve': {
    operationId: 'approvePurchaseInvoice',
    response: { success: true, message: 'R-2026-0815 approved.', data: approvedPurchaseInvoice, meta },
  },
  'POST /purchase-invoice/{id}/dispute': {
    operationId: 'disputePurchaseInvoice',
    requestBody: { reason: 'Only three chairs were delivered.' },
    response: { success: true, message: 'R-2026-0815 disputed.', data: disputedPurchaseInvoice, meta },
  },
  'POST /purchase-invoice/{id}/payment': {
    operationId: 'createPurchasePayment',
    requestBody: { amount: '476.00', date: '2026-03-28', method: 'credit_transfer', reference: 'SEPA 2026-03-28/17' },
    response: { success: true, message: 'Payment recorded on R-2026-0815.', data: paidPurchaseInvoice, meta },
  },
  'POST /quote': {
    operationId: 'createQuote',
    requestBody: quoteRequest,
    response: { success: true, message: 'Quote Q-2026-00017 created.', data: openQuote, meta },
  },
  'GET /quote': {
    operationId: 'listQuotes',
    response: { success: true, message: 'Quotes listed.', data: { items: [openQuote], nextCursor: null }, meta },
  },
  'GET /quote/{id}': {
    operationId: 'getQuote',
    response: {
      success: true,
      message: 'Quote found.',
      data: {
        ...openQuote,
        hostedUrl: 'https://invoices.example.com/hosted/Vb3Nm6Qa9Zs2Wx5Ec8Rd1Tf4Gy7Hu0Ij3Ok6Pl9Az2S',
        viewedAt: '2026-02-17T07:45:02.118Z',
      },
      meta,
    },
  },
  'PATCH /quote/{id}': {
    operationId: 'updateDraftQuote',
    requestBody: { validUntil: '2026-03-31', note: 'Prices as discussed on the phone.' },
    response: {
      success: true,
      message: 'Draft quote updated.',
      data: { ...draftQuote, validUntil: '2026-03-31', note: 'Prices as discussed on the phone.' },
      meta,
    },
  },
  'DELETE /quote/{id}': {
    operationId: 'deleteDraftQuote',
    response: { success: true, message: 'Draft quote deleted.', data: { id: QUOTE_ID, deleted: true }, meta },
  },
  'GET /quote/{id}/pdf': { operationId: 'getQuotePdf' },
  'POST /quote/{id}/send': {
    operationId: 'sendQuote',
    response: { success: true, message: 'Quote Q-2026-00017 sent.', data: { ...openQuote, id: draftQuote.id }, meta },
  },
  'POST /quote/{id}/accept': {
    operationId: 'acceptQuote',
    response: { success: true, message: 'Quote Q-2026-00017 accepted.', data: acceptedQuote, meta },
  },
  'POST /quote/{id}/decline': {
    operationId: 'declineQuote',
    response: { success: true, message: 'Quote Q-2026-00017 declined.', data: declinedQuote, meta },
  },
  'POST /quote/{id}/hosted-link/rotate': {
    operationId: 'rotateQuoteHostedLink',
    response: {
      success: true,
      message: 'Hosted page link of quote Q-2026-00017 rotated.',
      data: {
        ...openQuote,
        hostedUrl: 'https://invoices.example.com/hosted/Lp4Ks7Jd0Hf3Gg6Fa9Sd2Qw5Er8Ty1Ui4Op7Az0Xc3V',
        viewedAt: '2026-02-17T07:45:02.118Z',
      },
      meta,
    },
  },
  'POST /quote/{id}/invoice': {
    operationId: 'invoiceQuote',
    requestBody: { status: 'issued', issueDate: '2026-03-02' },
    response: {
      success: true,
      message: `Invoice 2026-00042 made from quote Q-2026-00017.`,
      data: { quote: invoicedQuote, invoice: invoiceFromQuote },
      meta,
    },
  },
  'POST /recurring-invoice': {
    operationId: 'createRecurringInvoice',
    requestBody: recurringRequest,
    response: { success: true, message: 'Recurring invoice created.', data: newRecurringInvoice, meta },
  },
  'GET /recurring-invoice': {
    operationId: 'listRecurringInvoices',
    response: {
      success: true,
      message: 'Recurring invoices listed.',
      data: { items: [recurringInvoice], nextCursor: null },
      meta,
    },
  },
  'GET /recurring-invoice/{id}': {
    operationId: 'getRecurringInvoice',
    response: { success: true, message: 'Recurring invoice found.', data: recurringInvoice, meta },
  },
  'PATCH /recurring-invoice/{id}': {
    operationId: 'updateRecurringInvoice',
    requestBody: { schedule: { endDate: '2026-12-31' } },
    response: {
      success: true,
      message: 'Recurring invoice changed.',
      data: { ...recurringInvoice, schedule: { ...recurringInvoice.schedule, endDate: '2026-12-31' } },
      meta,
    },
  },
  'POST /recurring-invoice/{id}/pause': {
    operationId: 'pauseRecurringInvoice',
    response: { success: true, message: 'Recurring invoice paused.', data: pausedRecurringInvoice, meta },
  },
  'POST /recurring-invoice/{id}/resume': {
    operationId: 'resumeRecurringInvoice',
    response: { success: true, message: 'Recurring invoice resumed.', data: recurringInvoice, meta },
  },
  'POST /recurring-invoice/{id}/end': {
    operationId: 'endRecurringInvoice',
    response: { success: true, message: 'Recurring invoice ended.', data: endedRecurringInvoice, meta },
  },
  'PATCH /organization/{id}': {
    operationId: 'updateOrganization',
    requestBody: { phone: '+49 30 654321', archived: false },
    response: {
      success: true,
      message: 'Organization updated.',
      data: { ...organization, phone: '+49 30 654321' },
      meta,
    },
  },
};

export const EXAMPLE_REQUEST_ID = REQUEST_ID;

/** The extras of an operation; operations without an entry get a derived id and no example. */
export function operationExtras(method: string, path: string): OperationExtras | undefined {
  return EXTRAS[`${method.toUpperCase()} ${path}`];
}

export function operationIdFor(method: string, path: string): string {
  const known = operationExtras(method, path)?.operationId;
  if (known) return known;
  const words = path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}
