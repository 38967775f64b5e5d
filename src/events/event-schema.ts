import { Type, type Static } from '@sinclair/typebox';
import { CreditNoteSchema } from '../schemas/credit-note.js';
import { InvoiceSchema, PaymentSchema } from '../schemas/invoice.js';
import { Nullable } from '../schemas/nullable.js';
import { OrganizationSchema } from '../schemas/organization.js';
import { PurchaseInvoiceSummarySchema } from '../schemas/purchase-invoice.js';
import { QuoteSchema } from '../schemas/quote.js';
import { RecurringInvoiceSchema } from '../schemas/recurring-invoice.js';
import { Livemode } from '../schemas/values.js';
import { EVENT_TYPES } from '../schemas/event-types.js';
import { EmailDeliverySchema } from '../schemas/email-delivery.js';
import { ReminderSchema } from '../schemas/reminder.js';

/** payment.created's object: the payment as the invoice lists it, and which invoice it pays. */
export const PaymentEventObject = Type.Composite(
  [PaymentSchema, Type.Object({ invoiceId: Type.String({ examples: ['inv_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }) })],
  { title: 'PaymentWithInvoice', description: 'A payment, with the id of the invoice it was recorded against.' },
);
export type PaymentEventObject = Static<typeof PaymentEventObject>;

export const EventTypeSchema = Type.Union(
  EVENT_TYPES.map((type) => Type.Literal(type)),
  { title: 'EventType' },
);

export const EventSchema = Type.Object(
  {
    id: Type.String({ examples: ['evt_01936f0e-8a3c-7b2e-9f4d-2c5e8a1b3d4f'] }),
    livemode: Livemode,
    type: EventTypeSchema,
    createdAt: Type.String({ format: 'date-time' }),
    requestId: Nullable(
      Type.String({ description: 'The request that made the change; null for changes made outside the API.' }),
    ),
    data: Type.Object({
      object: Type.Union(
        [
          OrganizationSchema,
          InvoiceSchema,
          PaymentEventObject,
          CreditNoteSchema,
          PurchaseInvoiceSummarySchema,
          QuoteSchema,
          RecurringInvoiceSchema,
          EmailDeliverySchema,
          ReminderSchema,
        ],
        {
          description:
            'The resource as the API answered it at that moment: an Organization (organization.*), an Invoice (invoice.*; the draft as it was for invoice.deleted), a PaymentWithInvoice (payment.created), a CreditNote (credit-note.created), an EmailDelivery (invoice.sent, invoice.send_failed, credit-note.sent, credit-note.send_failed: the message as it ended), a Reminder (invoice.reminder_sent: the level reminded and the figures its message states; invoice.overdue carries the Invoice) or a PurchaseInvoiceSummary (purchase_invoice.*: the received document without its model, findings and unmapped list, which GET /purchase-invoice/{id} answers) or a Quote (quote.*) or a RecurringInvoice (recurring_invoice.*: with the run it is about as its one run, for .run and .failed).',
        },
      ),
    }),
  },
  {
    title: 'Event',
    description:
      'Something that changed, written in the same transaction as the change. Also the body of a webhook delivery.',
  },
);
