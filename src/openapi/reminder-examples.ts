import { INVOICE_ID } from './examples.js';

// The examples of the reminder operations (docs/reminders.md): a policy, an invoice's reminders, a preview.

export const reminderPolicy = {
  enabled: true,
  levels: [
    { level: 1, days: -3, fee: null, interestRatePercent: null, templateKind: 'reminder-1' },
    { level: 2, days: 0, fee: null, interestRatePercent: null, templateKind: 'reminder-2' },
    { level: 3, days: 7, fee: null, interestRatePercent: null, templateKind: 'reminder-3' },
    { level: 4, days: 14, fee: '40', interestRatePercent: '11.27', templateKind: 'reminder-4' },
  ],
  custom: true,
  updatedAt: '2026-03-01T12:00:00.000Z',
};

export const reminderPolicyRequest = {
  enabled: true,
  levels: [{ days: -3 }, { days: 0 }, { days: 7 }, { days: 14, fee: '40.00', interestRatePercent: '11.27' }],
};

export const sentReminder = {
  id: 'rem_01956d20-4e5f-7a61-8b7c-9d0e1f2a3b4c',
  invoiceId: INVOICE_ID,
  level: 3,
  days: 7,
  status: 'sent',
  skipReason: null,
  asOf: '2026-04-08',
  currency: 'EUR',
  openBalance: '1142.40',
  fee: null,
  interestRatePercent: null,
  interest: null,
  emailDeliveryId: 'eml_01956d20-4e5f-7a61-8b7c-9d0e1f2a3b4d',
  createdAt: '2026-04-08T08:00:00.000Z',
};

export const skippedReminder = {
  ...sentReminder,
  id: 'rem_01956d20-4e5f-7a61-8b7c-9d0e1f2a3b4e',
  level: 2,
  days: 0,
  status: 'skipped',
  skipReason: 'superseded',
  emailDeliveryId: null,
};

export const invoiceReminders = {
  invoiceId: INVOICE_ID,
  paused: false,
  pauseReason: null,
  pauseNote: null,
  pausedAt: null,
  overdueAt: '2026-04-08T08:00:00.000Z',
  reminders: [sentReminder, skippedReminder],
};

export const pausedInvoiceReminders = {
  ...invoiceReminders,
  paused: true,
  pauseReason: 'dispute',
  pauseNote: 'The buyer says 2 hours too many.',
  pausedAt: '2026-04-09T10:00:00.000Z',
};

export const reminderPreview = [
  {
    level: 3,
    days: 7,
    asOf: '2026-04-07',
    custom: false,
    subject: 'Reminder 3: invoice RE-2026-00042 from Example Software GmbH is overdue',
    body: 'Hello,\n\ninvoice RE-2026-00042 of 2026-03-01 was due on 2026-03-31 and is 7 days overdue.\nOpen balance: 1190.00 EUR\n\nPlease pay the amount due. If you have paid it in the meantime, thank you, and please disregard this message. The invoice is attached again.\n\nKind regards\nExample Software GmbH\n',
  },
];
