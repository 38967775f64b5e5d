// The events a change can write. The object of each is the resource as the API answered it.

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
  'payment.created',
  'credit-note.created',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

/** How long events (and their deliveries' attempts) are kept. */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
