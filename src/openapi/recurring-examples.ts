import { INVOICE_ID, ORGANIZATION_ID } from './examples.js';

// The recurring invoice the OpenAPI examples show: a monthly retainer anchored on 31 January,
// billed in advance, issued and sent. Each is validated against its schema by a test.

export const RECURRING_ID = 'rin_01956a3b-5d21-7a10-8c3e-1f2a3b4c5d70';

export const recurringRequest = {
  template: {
    organizationId: ORGANIZATION_ID,
    buyerReference: '04011000-12345-03',
    paymentTerms: 'Payable within 14 days.',
    dueDays: 14,
    lines: [{ name: 'Maintenance retainer', quantity: '1', unitCode: 'MON', unitPrice: '450.00', vatRate: '19' }],
  },
  schedule: { interval: 'month', anchorDate: '2026-01-31', timeZone: 'Europe/Berlin' },
  invoiceStatus: 'issued',
  send: { language: 'de' },
};

const run = {
  id: 'rir_01956a3b-5d21-7a10-8c3e-1f2a3b4c5d71',
  period: { start: '2026-02-28', end: '2026-03-30' },
  runDate: '2026-02-28',
  status: 'made',
  invoiceId: INVOICE_ID,
  failure: null,
  deliveryId: 'eml_01956a3b-5d21-7a10-8c3e-1f2a3b4c5d72',
  sendError: null,
  createdAt: '2026-02-27T23:00:02.417Z',
};

export const recurringInvoice = {
  id: RECURRING_ID,
  livemode: true,
  status: 'active',
  organizationId: ORGANIZATION_ID,
  template: recurringRequest.template,
  schedule: {
    interval: 'month',
    every: 1,
    anchorDate: '2026-01-31',
    endDate: null,
    count: null,
    timeZone: 'Europe/Berlin',
    missedPeriods: 'catch-up',
    invoicePeriod: 'current',
  },
  invoiceStatus: 'issued',
  send: { language: 'de' },
  nextRun: { date: '2026-03-31', at: '2026-03-30T22:00:00.000Z', period: { start: '2026-03-31', end: '2026-04-29' } },
  runs: [run],
  pausedAt: null,
  endedAt: null,
  createdAt: '2026-01-20T10:12:40.001Z',
  updatedAt: '2026-02-27T23:00:02.417Z',
};

export const newRecurringInvoice = {
  ...recurringInvoice,
  nextRun: { date: '2026-01-31', at: '2026-01-30T23:00:00.000Z', period: { start: '2026-01-31', end: '2026-02-27' } },
  runs: [],
  updatedAt: recurringInvoice.createdAt,
};

export const pausedRecurringInvoice = {
  ...recurringInvoice,
  status: 'paused',
  nextRun: null,
  pausedAt: '2026-03-02T08:00:00.000Z',
  updatedAt: '2026-03-02T08:00:00.000Z',
};

export const endedRecurringInvoice = {
  ...recurringInvoice,
  status: 'ended',
  nextRun: null,
  endedAt: '2026-03-02T08:00:00.000Z',
  updatedAt: '2026-03-02T08:00:00.000Z',
};
