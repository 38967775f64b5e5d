import { Type, type Static } from '@sinclair/typebox';
import { CreateInvoiceBody, InvoicePeriodSchema } from './invoice.js';
import { SendDocumentBody } from './email-delivery.js';
import { Nullable } from './nullable.js';
import { DateInput, DateOutput, Livemode } from './values.js';

// A recurring invoice: a template (the body of POST /invoice, less what each run fills in) and a
// schedule. See docs/recurring.md.

export const RECURRING_INTERVALS = ['week', 'month', 'quarter', 'year'] as const;
export const RECURRING_STATUSES = ['active', 'paused', 'ended'] as const;

// What each run fills in itself: the number (the sequence's next), the dates and the period.
const {
  number: _number,
  issueDate: _issueDate,
  dueDate: _dueDate,
  status: _status,
  invoicePeriod: _invoicePeriod,
  ...templateFields
} = CreateInvoiceBody.properties;

export const RecurringTemplateInput = Type.Object(
  {
    ...templateFields,
    dueDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: 365,
          description: 'Days from the issue date to the due date of each invoice; default 30.',
        }),
      ),
    ),
  },
  {
    title: 'RecurringInvoiceTemplate',
    additionalProperties: false,
    description:
      'What POST /invoice takes, checked the same way, without number, issueDate, dueDate, status and invoicePeriod: each run takes the next number and fills in the run date as issue date, the due date (dueDays later) and the invoice period (BG-14).',
  },
);

export type RecurringTemplate = Static<typeof RecurringTemplateInput>;

const scheduleFields = {
  interval: Type.Union(
    RECURRING_INTERVALS.map((i) => Type.Literal(i)),
    { description: 'week, month, quarter or year.' },
  ),
  every: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 52,
      description: 'Every N intervals (every 2 weeks, every 6 months); default 1.',
    }),
  ),
  anchorDate: DateInput(
    'YYYY-MM-DD: the first run. Every later run is counted from it: monthly from the 31st runs on the last day of shorter months and on the 31st again in longer ones.',
  ),
  endDate: Type.Optional(Nullable(DateInput('YYYY-MM-DD: no run after this day.'))),
  count: Type.Optional(
    Nullable(
      Type.Integer({
        minimum: 1,
        maximum: 10000,
        description: 'How many periods from the anchor, at most (missed periods that were skipped count too).',
      }),
    ),
  ),
  timeZone: Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'IANA time zone (Europe/Berlin): a run is due from the start of its date there, so daylight-saving changes never skip or double one.',
    examples: ['Europe/Berlin'],
  }),
  missedPeriods: Type.Optional(
    Type.Union([Type.Literal('catch-up'), Type.Literal('skip')], {
      description:
        'After downtime: catch-up (default) makes the missed periods one by one, in order; skip makes only the latest due period.',
    }),
  ),
  invoicePeriod: Type.Optional(
    Type.Union([Type.Literal('current'), Type.Literal('previous')], {
      description:
        "The invoice period (BG-14) each run's invoice covers: current (default, billed in advance) runs from the run date to the day before the next; previous (in arrears) the period that ends the day before.",
    }),
  ),
};

export const RecurringScheduleInput = Type.Object(scheduleFields, {
  title: 'RecurringScheduleInput',
  additionalProperties: false,
});

const SendInput = Nullable(
  SendDocumentBody,
  'Send each issued invoice by email (POST /invoice/{id}/send with this body); null or absent: do not send.',
);
const InvoiceStatusInput = Type.Union([Type.Literal('issued'), Type.Literal('draft')], {
  description:
    'issued (default): each run issues (finalizes) its invoice. draft: each run makes a draft to check and finalize.',
});

export const CreateRecurringInvoiceBody = Type.Object(
  {
    template: RecurringTemplateInput,
    schedule: RecurringScheduleInput,
    invoiceStatus: Type.Optional(InvoiceStatusInput),
    send: Type.Optional(SendInput),
  },
  { title: 'CreateRecurringInvoiceInput', additionalProperties: false },
);

export type CreateRecurringInvoiceInput = Static<typeof CreateRecurringInvoiceBody>;

export const UpdateRecurringInvoiceBody = Type.Object(
  {
    template: Type.Optional(RecurringTemplateInput),
    schedule: Type.Optional(
      Type.Object(
        {
          endDate: scheduleFields.endDate,
          count: scheduleFields.count,
          missedPeriods: scheduleFields.missedPeriods,
          invoicePeriod: scheduleFields.invoicePeriod,
        },
        {
          title: 'RecurringScheduleUpdate',
          additionalProperties: false,
          description:
            'The cadence (interval, every, anchorDate, timeZone) stays: a different one is a new recurring invoice.',
        },
      ),
    ),
    invoiceStatus: Type.Optional(InvoiceStatusInput),
    send: Type.Optional(SendInput),
  },
  { title: 'UpdateRecurringInvoiceInput', additionalProperties: false },
);

export type UpdateRecurringInvoiceInput = Static<typeof UpdateRecurringInvoiceBody>;

export const RecurringRunSchema = Type.Object(
  {
    id: Type.String({ examples: ['rir_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57'] }),
    period: InvoicePeriodSchema,
    runDate: DateOutput('The date the run was for, in the time zone: the issue date of its invoice.'),
    status: Type.Union([Type.Literal('made'), Type.Literal('failed')], {
      description: 'made: the invoice was made. failed: it was refused (failure says why); the period is not retried.',
    }),
    invoiceId: Nullable(Type.String()),
    failure: Nullable(
      Type.Object(
        { code: Type.String({ examples: ['ORGANIZATION_ARCHIVED'] }), message: Type.String() },
        { title: 'RecurringRunFailure' },
      ),
    ),
    deliveryId: Nullable(
      Type.String({ description: 'The message the invoice was sent with, when the template sends.' }),
    ),
    sendError: Nullable(Type.String({ description: 'Why the message could not be queued, when it could not.' })),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'RecurringInvoiceRun' },
);

export type RecurringRun = Static<typeof RecurringRunSchema>;

export const RecurringInvoiceSchema = Type.Object(
  {
    id: Type.String({ examples: ['rin_01956a3d-0a42-7d11-8e3a-6b1f0c9d2e57'] }),
    livemode: Livemode,
    status: Type.Union(
      RECURRING_STATUSES.map((s) => Type.Literal(s)),
      {
        title: 'RecurringInvoiceStatus',
        description:
          'active: runs when due. paused: does not run (periods passed meanwhile are skipped). ended: runs no more.',
      },
    ),
    organizationId: Type.String(),
    template: RecurringTemplateInput,
    schedule: Type.Object(
      {
        interval: scheduleFields.interval,
        every: Type.Integer(),
        anchorDate: DateOutput(),
        endDate: Nullable(DateOutput()),
        count: Nullable(Type.Integer()),
        timeZone: Type.String(),
        missedPeriods: Type.Union([Type.Literal('catch-up'), Type.Literal('skip')]),
        invoicePeriod: Type.Union([Type.Literal('current'), Type.Literal('previous')]),
      },
      { title: 'RecurringSchedule' },
    ),
    invoiceStatus: Type.Union([Type.Literal('issued'), Type.Literal('draft')]),
    send: Nullable(SendDocumentBody),
    nextRun: Nullable(
      Type.Object(
        {
          date: DateOutput('The next run date in the time zone.'),
          at: Type.String({ format: 'date-time', description: 'The instant that date starts there (UTC).' }),
          period: InvoicePeriodSchema,
        },
        { title: 'RecurringNextRun' },
      ),
      'null when paused or ended.',
    ),
    runs: Type.Array(RecurringRunSchema, {
      description: 'The runs, newest first (at most the last 100; lists and events carry the last one only).',
    }),
    pausedAt: Nullable(Type.String({ format: 'date-time' })),
    endedAt: Nullable(Type.String({ format: 'date-time' })),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { title: 'RecurringInvoice' },
);

export type RecurringInvoice = Static<typeof RecurringInvoiceSchema>;
