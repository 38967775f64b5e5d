import type { DeliveryStatus } from '../db/schema.js';
import type { DeliveryRepository } from '../webhooks/delivery-repository.js';
import { eventJson } from '../events/event-json.js';

// The read side behind the panel's webhook endpoint page: the endpoint's latest events, each with
// its deliveries (the first, and any resend) and every attempt of them, numbered. Scoped by company
// and endpoint both, so an endpoint id alone never reads another company's deliveries.
//
// Only existing indexes are used: the endpoint's latest attempts (endpoint_id, attempted_at), the
// deliveries still waiting for a first attempt (the partial "fresh" index), deliveries by primary
// key, and the shown deliveries' attempts from the oldest shown delivery on, an index range of the
// last day or so, not the endpoint's 30 days.

/** Events shown on the page: the latest, by their latest attempt (or creation, while waiting). */
export const EVENTS_SHOWN = 25;
/** Latest attempts looked at to find those events (a delivery makes at most eight). */
const ATTEMPTS_SCANNED = 200;
/** Deliveries still waiting for their first attempt that are looked at. */
const WAITING_SCANNED = 50;
/** Clocks of instances may differ: an attempt is looked for from this long before its delivery was made. */
const CLOCK_MARGIN_MS = 60 * 60 * 1000;

export interface LoggedAttempt {
  id: string;
  /** 1 for a delivery's first attempt, 2 for its first retry, … */
  number: number;
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  succeeded: boolean;
  error: string | null;
  /** The first kilobyte of the receiver's answer: text a stranger chose, escaped like all output. */
  responseExcerpt: string | null;
}

export interface LoggedDelivery {
  id: string;
  createdAt: string;
  status: DeliveryStatus;
  /** Attempts made (as the delivery counts them). */
  attemptCount: number;
  /** When a pending delivery is tried next; null once it succeeded or failed for good. */
  nextAttemptAt: string | null;
  /** A worker holds it right now: it is being sent. */
  sending: boolean;
  /** Oldest first. */
  attempts: LoggedAttempt[];
}

export interface LoggedEvent {
  eventId: string;
  /** Null once the event is purged (its deliveries go with it, so this is a moment's race at most). */
  eventType: string | null;
  createdAt: string | null;
  /** The body every delivery of it POSTs: the event JSON, byte for byte. */
  payload: string | null;
  /** The first delivery, then resends. */
  deliveries: LoggedDelivery[];
  /** Its latest attempt, or its latest delivery's creation: what the page is ordered by. */
  lastActivityAt: string;
}

export class WebhookAttemptLog {
  constructor(private readonly deliveries: DeliveryRepository) {}

  /** The endpoint's latest events with their deliveries and numbered attempts, newest first. */
  async recent(
    companyId: string,
    endpointId: string,
    limit = EVENTS_SHOWN,
    now: Date = new Date(),
  ): Promise<LoggedEvent[]> {
    const [attempted, waiting] = await Promise.all([
      this.deliveries.latestAttempts(companyId, endpointId, ATTEMPTS_SCANNED),
      this.deliveries.latestWaiting(companyId, endpointId, WAITING_SCANNED),
    ]);
    const activity = new Map<string, string>();
    for (const row of attempted) if (!activity.has(row.delivery_id)) activity.set(row.delivery_id, row.attempted_at);
    for (const row of waiting) if (!activity.has(row.id)) activity.set(row.id, row.created_at);
    if (activity.size === 0) return [];

    const rows = await this.deliveries.withEvents(companyId, endpointId, [...activity.keys()]);

    const events = new Map<string, LoggedEvent>();
    const deliveries = new Map<string, LoggedDelivery>();
    for (const row of rows) {
      const delivery: LoggedDelivery = {
        id: row.id,
        createdAt: row.created_at,
        status: row.status,
        attemptCount: Number(row.attempts),
        nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
        sending: row.status === 'pending' && row.lease_expires_at !== null && row.lease_expires_at > now.toISOString(),
        attempts: [],
      };
      deliveries.set(row.id, delivery);
      const at = activity.get(row.id)!;
      let event = events.get(row.event_id);
      if (!event) {
        const payload =
          row.type !== null && row.object !== null && row.event_created_at !== null
            ? eventJson({
                id: row.event_id,
                livemode: Number(row.livemode),
                type: row.type,
                created_at: row.event_created_at,
                request_id: row.request_id,
                object: row.object,
              })
            : null;
        event = {
          eventId: row.event_id,
          eventType: row.type,
          createdAt: row.event_created_at,
          payload,
          deliveries: [],
          lastActivityAt: at,
        };
        events.set(row.event_id, event);
      }
      event.deliveries.push(delivery);
      if (at > event.lastActivityAt) event.lastActivityAt = at;
    }
    const shown = [...events.values()]
      .sort((a, b) =>
        a.lastActivityAt === b.lastActivityAt
          ? b.eventId.localeCompare(a.eventId)
          : b.lastActivityAt.localeCompare(a.lastActivityAt),
      )
      .slice(0, limit);
    for (const event of shown)
      event.deliveries.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));

    // Every attempt of the shown deliveries, oldest first, so that each gets its number.
    const shownIds = shown.flatMap((e) => e.deliveries.map((d) => d.id));
    const oldest = shown.flatMap((e) => e.deliveries.map((d) => d.createdAt)).reduce((a, b) => (a < b ? a : b));
    const from = new Date(new Date(oldest).getTime() - CLOCK_MARGIN_MS).toISOString();
    const attempts = await this.deliveries.attemptsOf(companyId, endpointId, shownIds, from);
    for (const row of attempts) {
      const delivery = deliveries.get(row.delivery_id)!;
      delivery.attempts.push({
        id: row.id,
        number: delivery.attempts.length + 1,
        attemptedAt: row.attempted_at,
        durationMs: Number(row.duration_ms),
        statusCode: row.status_code === null ? null : Number(row.status_code),
        succeeded: Number(row.succeeded) === 1,
        error: row.error,
        responseExcerpt: row.response_excerpt,
      });
    }
    return shown;
  }
}
