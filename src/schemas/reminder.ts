import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './nullable.js';

// Reminders (dunning): a company's policy, the reminders of an invoice, and its pause.

/** The most levels a policy has; each level's template is the email template kind reminder-<n>. */
export const MAX_REMINDER_LEVELS = 6;
export const REMINDER_TEMPLATE_KINDS = Array.from({ length: MAX_REMINDER_LEVELS }, (_, i) => `reminder-${i + 1}`) as [
  string,
  ...string[],
];

export const PAUSE_REASONS = ['paused', 'dispute'] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

const Days = Type.Integer({
  minimum: -30,
  maximum: 365,
  description: 'Days from the due date: negative before it (-3: three days before), 0 on it, positive after it.',
  examples: [7],
});

const FeeText = Type.String({
  pattern: '^\\d{1,3}(?:\\.\\d{1,2})?$',
  description:
    "A flat reminder fee in the invoice's currency, stated beside the open balance (never added to the invoice). Only on a level after the due date; the fees of all levels together at most 40.00 (the fixed compensation of the EU late-payment directive 2011/7/EU, §288(5) BGB, art. L441-10 Code de commerce).",
  examples: ['40.00'],
});

const RateText = Type.String({
  pattern: '^\\d{1,2}(?:\\.\\d{1,4})?$',
  description:
    'Default interest in percent a year, on the open balance from the due date to the day of the reminder, stated beside it. Only on a level after the due date; at most 20 (DE B2B: 9 points above the base rate, §288(2) BGB).',
  examples: ['11.27'],
});

export const ReminderLevelInput = Type.Object(
  {
    days: Days,
    fee: Type.Optional(Nullable(FeeText)),
    interestRatePercent: Type.Optional(Nullable(RateText)),
  },
  { additionalProperties: false, title: 'ReminderLevelInput' },
);

export const ReminderPolicyBody = Type.Object(
  {
    enabled: Type.Boolean({ description: 'false: no reminder is sent (overdue events still are).' }),
    levels: Type.Array(ReminderLevelInput, {
      minItems: 1,
      maxItems: MAX_REMINDER_LEVELS,
      description: 'Each level once (distinct days); they are kept ordered by days.',
    }),
  },
  { additionalProperties: false, title: 'ReminderPolicyInput' },
);
export type ReminderPolicyInput = Static<typeof ReminderPolicyBody>;

export const ReminderLevelSchema = Type.Object(
  {
    level: Type.Integer({ minimum: 1, description: 'The position by days, from 1.' }),
    days: Days,
    fee: Nullable(Type.String()),
    interestRatePercent: Nullable(Type.String()),
    templateKind: Type.String({
      description:
        'The email template of this level (PUT /company/email-templates/{templateKind}/{language}): reminder-<level>.',
      examples: ['reminder-1'],
    }),
  },
  { title: 'ReminderLevel' },
);

export const ReminderPolicySchema = Type.Object(
  {
    enabled: Type.Boolean(),
    levels: Type.Array(ReminderLevelSchema),
    custom: Type.Boolean({ description: "true: the company's own; false: the default, until the company sets one." }),
    updatedAt: Nullable(Type.String({ format: 'date-time' })),
  },
  { title: 'ReminderPolicy' },
);
export type ReminderPolicy = Static<typeof ReminderPolicySchema>;

export const ReminderSchema = Type.Object(
  {
    id: Type.String({ examples: ['rem_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    invoiceId: Type.String(),
    level: Type.Integer({ description: "The level's position in the policy when it came due." }),
    days: Type.Integer({ description: 'Days from the due date.' }),
    status: Type.Union([Type.Literal('sent'), Type.Literal('skipped')], {
      description:
        'sent: a message was queued (emailDeliveryId; deliveries tells how it ended). skipped: passed over because a later level was due on the same pass (after downtime) or had been sent already, or the level fell before the issue date.',
    }),
    skipReason: Nullable(
      Type.Union([Type.Literal('superseded'), Type.Literal('before_issue')]),
      'Why a level was skipped.',
    ),
    asOf: Type.String({ format: 'date', description: 'The day of the pass.' }),
    currency: Type.String(),
    openBalance: Type.String({
      description: 'The amount due the message stated, exactly the invoice’s amountDue then.',
    }),
    fee: Nullable(Type.String(), 'The reminder fee stated beside the balance.'),
    interestRatePercent: Nullable(Type.String()),
    interest: Nullable(Type.String(), 'The default interest stated beside the balance.'),
    emailDeliveryId: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'Reminder' },
);
export type Reminder = Static<typeof ReminderSchema>;

export const InvoiceRemindersSchema = Type.Object(
  {
    invoiceId: Type.String(),
    paused: Type.Boolean(),
    pauseReason: Nullable(Type.Union(PAUSE_REASONS.map((r) => Type.Literal(r)))),
    pauseNote: Nullable(Type.String()),
    pausedAt: Nullable(Type.String({ format: 'date-time' })),
    overdueAt: Nullable(Type.String({ format: 'date-time' }), 'When the invoice.overdue event was written.'),
    reminders: Type.Array(ReminderSchema),
  },
  { title: 'InvoiceReminders' },
);
export type InvoiceReminders = Static<typeof InvoiceRemindersSchema>;

export const PauseRemindersBody = Type.Object(
  {
    reason: Type.Optional(
      Type.Union(
        PAUSE_REASONS.map((r) => Type.Literal(r)),
        { description: 'paused (default) or dispute: the buyer disputes the invoice.' },
      ),
    ),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false, title: 'PauseRemindersInput' },
);
export type PauseRemindersInput = Static<typeof PauseRemindersBody>;

export const ReminderPreviewSchema = Type.Object(
  {
    level: Type.Integer(),
    days: Type.Integer(),
    asOf: Type.String({ format: 'date', description: 'The day the sample reminder of this level is sent.' }),
    custom: Type.Boolean({ description: "true: the company's own template of the level in this language." }),
    subject: Type.String(),
    body: Type.String(),
  },
  { title: 'ReminderPreview' },
);
export type ReminderPreview = Static<typeof ReminderPreviewSchema>;
