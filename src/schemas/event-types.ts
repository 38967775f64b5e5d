// The events a change can write. The object of each is the resource as the API answered it.
// The names are the API's vocabulary (an Event's `type`, a webhook endpoint's `events`), so they
// live with the schemas that enumerate them; src/events/ writes and reads the events themselves.

export const EVENT_TYPES = [
  'organization.created',
  'organization.updated',
  'invoice.created',
  'invoice.updated',
  'invoice.deleted',
  'invoice.finalized',
  'invoice.paid',
  'invoice.voided',
  'invoice.refunded',
  'invoice.sent',
  'invoice.send_failed',
  'invoice.viewed',
  'invoice.reminder_sent',
  'invoice.overdue',
  'payment.created',
  'credit-note.created',
  'credit-note.sent',
  'credit-note.send_failed',
  'credit-note.viewed',
  'purchase_invoice.received',
  'purchase_invoice.approved',
  'purchase_invoice.disputed',
  'purchase_invoice.paid',
  'quote.created',
  'quote.updated',
  'quote.deleted',
  'quote.sent',
  'quote.accepted',
  'quote.declined',
  'quote.invoiced',
  'quote.viewed',
  'recurring_invoice.created',
  'recurring_invoice.run',
  'recurring_invoice.failed',
  'recurring_invoice.ended',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** The resource of a type: `invoice` for `invoice.paid`. */
export function resourceOf(type: string): string {
  return type.slice(0, type.indexOf('.'));
}

/** The resources events are about, each with the wildcard that stands for all of its types (`invoice.*`). */
export const EVENT_RESOURCES = [...new Set(EVENT_TYPES.map(resourceOf))];
export const EVENT_WILDCARDS = EVENT_RESOURCES.map((resource) => `${resource}.*`);

/** What a webhook endpoint may subscribe to: "*" (everything, also types added later), a resource's wildcard, or a type. */
export const EVENT_SELECTORS = ['*', ...EVENT_WILDCARDS, ...EVENT_TYPES] as const;

export function isEventSelector(value: string): boolean {
  return (EVENT_SELECTORS as readonly string[]).includes(value);
}

/** Whether a list of selectors (an endpoint's events) takes events of `type`. */
export function subscribes(selectors: readonly string[], type: string): boolean {
  return selectors.includes('*') || selectors.includes(type) || selectors.includes(`${resourceOf(type)}.*`);
}

/**
 * The test event the panel's "Send test event" sends to one endpoint. It is no change and no
 * type to subscribe to: it goes to the endpoint it was sent for, whatever that endpoint takes,
 * through the same deliveries (signed, retried, logged) as every event, and GET /event never
 * lists it.
 */
export const TEST_EVENT_TYPE = 'webhook.test';

/** How long events (and their deliveries' attempts) are kept. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
