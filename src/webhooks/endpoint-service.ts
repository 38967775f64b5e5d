import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { EVENT_TYPES, EVENT_WILDCARDS, isEventSelector, resourceOf, TEST_EVENT_TYPE } from '../schemas/event-types.js';
import { newId } from '../lib/ids.js';
import type { Sealer } from '../lib/sealer.js';
import type {
  CreateWebhookEndpointInput,
  UpdateWebhookEndpointInput,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../schemas/webhook-endpoint.js';
import { modeColumn, type Scope } from '../db/scope.js';
import type { EventRepository } from '../repositories/event-repository.js';
import type { DeliveryRepository } from './delivery-repository.js';
import type { EndpointRepository, EndpointRow } from './endpoint-repository.js';
import type { Outbox } from './outbox-repository.js';
import { checkEndpointUrl, type Resolve } from './url-safety.js';

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Endpoints per company (and mode): enough for every integration, few enough to bound fan-out. */
export const MAX_ENDPOINTS = 20;

export type EndpointResult<T> =
  | { ok: true; value: T }
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'NOT_FOUND' | 'WEBHOOK_ENDPOINT_LIMIT' };

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function endpointFromRow(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    livemode: row.livemode === 1,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.disabled_reason === 'failing' ? 'failing' : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function trimmed(value: string | null | undefined): string | null {
  const text = value?.trim();
  return text ? text : null;
}

/**
 * Every selector must be "*", a resource's wildcard or a type (an unknown one is answered with the
 * list of valid ones). ["*"] stands alone, and a type is not sent beside its resource's wildcard:
 * either would mean the same as the list without it.
 */
function eventsProblem(events: readonly string[]): ErrorDetail | null {
  const unknown = events.findIndex((selector) => !isEventSelector(selector));
  if (unknown >= 0) {
    return {
      field: `events[${unknown}]`,
      code: 'unknown_event_type',
      message: `${JSON.stringify(events[unknown])} is not an event type. Send types (${EVENT_TYPES.join(', ')}), wildcards (${EVENT_WILDCARDS.join(', ')}), or "*" alone.`,
    };
  }
  if (events.includes('*') && events.length > 1)
    return {
      field: 'events',
      code: 'wildcard_not_alone',
      message: 'Send ["*"] alone, or a list of types and wildcards.',
    };
  const covered = events.findIndex(
    (selector) => selector !== `${resourceOf(selector)}.*` && events.includes(`${resourceOf(selector)}.*`),
  );
  if (covered >= 0) {
    return {
      field: `events[${covered}]`,
      code: 'covered_by_wildcard',
      message: `${JSON.stringify(events[covered])} is already taken by ${JSON.stringify(`${resourceOf(events[covered]!)}.*`)}: send one of them.`,
    };
  }
  return null;
}

export class EndpointService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly endpoints: EndpointRepository,
    private readonly sealer: Sealer,
    private readonly deliveries: DeliveryRepository,
    private readonly outbox: Outbox,
    private readonly events: EventRepository,
    private readonly options: { allowPrivateUrls: boolean; resolve: Resolve; onEnqueued?: () => void },
  ) {}

  /** Whether the URL may receive events (public so a form can report it beside its other fields). */
  async urlProblem(url: string): Promise<ErrorDetail | null> {
    const checked = await checkEndpointUrl(url, {
      allowPrivate: this.options.allowPrivateUrls,
      resolve: this.options.resolve,
    });
    return checked.ok ? null : { field: 'url', code: checked.code, message: checked.message };
  }

  async create(
    scope: Scope,
    input: CreateWebhookEndpointInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<EndpointResult<WebhookEndpointWithSecret>> {
    const problems = [await this.urlProblem(input.url), eventsProblem(input.events)].filter(
      (p): p is ErrorDetail => p !== null,
    );
    if (problems.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: problems };
    const secret = newSigningSecret();
    const at = now.toISOString();
    const row: EndpointRow = {
      id: newId('we'),
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      url: input.url,
      events: JSON.stringify(input.events),
      description: trimmed(input.description),
      enabled: 1,
      disabled_reason: null,
      secret_sealed: this.sealer.seal(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      failing_since: null,
      created_at: at,
      updated_at: at,
    };
    return inTransaction(this.db, trx, async (t) => {
      if ((await this.endpoints.count(scope, t)) >= MAX_ENDPOINTS) return { ok: false, code: 'WEBHOOK_ENDPOINT_LIMIT' };
      await this.endpoints.insert(row, t);
      await this.outbox.placeAtEnd(t, row);
      return { ok: true, value: { ...endpointFromRow(row), secret } };
    });
  }

  async get(scope: Scope, id: string): Promise<WebhookEndpoint | undefined> {
    const row = await this.endpoints.find(scope, id);
    return row ? endpointFromRow(row) : undefined;
  }

  async update(
    scope: Scope,
    id: string,
    patch: UpdateWebhookEndpointInput,
    now: Date = new Date(),
  ): Promise<EndpointResult<WebhookEndpoint>> {
    const row = await this.endpoints.find(scope, id);
    if (!row) return { ok: false, code: 'NOT_FOUND' };
    const problems = [
      patch.url === undefined ? null : await this.urlProblem(patch.url),
      patch.events ? eventsProblem(patch.events) : null,
    ].filter((p): p is ErrorDetail => p !== null);
    if (problems.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: problems };
    const changes: Partial<EndpointRow> = { updated_at: now.toISOString() };
    if (patch.url !== undefined) changes.url = patch.url;
    if (patch.events !== undefined) changes.events = JSON.stringify(patch.events);
    if (patch.description !== undefined) changes.description = trimmed(patch.description);
    if (patch.enabled !== undefined) {
      changes.enabled = patch.enabled ? 1 : 0;
      // Enabled again by hand: it starts with a clean record; disabled by hand: no reason shown.
      changes.disabled_reason = null;
      if (patch.enabled) changes.failing_since = null;
    }
    // Enabled again: it is given what happens from now on; what it missed is in GET /event.
    const enabling = patch.enabled === true && row.enabled === 0;
    const updated = await this.db.transaction().execute(async (t) => {
      if (!(await this.endpoints.update(scope, id, changes, t))) return false;
      if (enabling) await this.outbox.placeAtEnd(t, row);
      return true;
    });
    if (!updated) return { ok: false, code: 'NOT_FOUND' };
    return { ok: true, value: endpointFromRow({ ...row, ...changes }) };
  }

  async delete(scope: Scope, id: string): Promise<boolean> {
    return this.db.transaction().execute((t) => this.endpoints.delete(scope, id, t));
  }

  /** A new secret; the old one keeps signing beside it for 24 hours. */
  async rotateSecret(
    scope: Scope,
    id: string,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<EndpointResult<WebhookEndpointWithSecret>> {
    return inTransaction(this.db, trx, async (t) => {
      const row = await this.endpoints.find(scope, id, t);
      if (!row) return { ok: false, code: 'NOT_FOUND' };
      const secret = newSigningSecret();
      const changes: Partial<EndpointRow> = {
        secret_sealed: this.sealer.seal(secret),
        previous_secret_sealed: row.secret_sealed,
        previous_secret_expires_at: new Date(now.getTime() + PREVIOUS_SECRET_OVERLAP_MS).toISOString(),
        updated_at: now.toISOString(),
      };
      await this.endpoints.update(scope, id, changes, t);
      return { ok: true, value: { ...endpointFromRow({ ...row, ...changes }), secret } };
    });
  }

  /**
   * Sends the endpoint a test event (`webhook.test`, see TEST_EVENT_TYPE) as a delivery of its
   * own, whatever event types it takes: the panel's "Send test event". The event is written with
   * the delivery; it changes nothing and GET /event does not list it.
   */
  async sendTestEvent(
    scope: Scope,
    endpointId: string,
    now: Date = new Date(),
  ): Promise<{ ok: true; eventId: string; deliveryId: string } | { ok: false; code: 'NOT_FOUND' }> {
    const endpoint = await this.endpoints.find(scope, endpointId);
    if (!endpoint) return { ok: false, code: 'NOT_FOUND' };
    const eventId = newId('evt');
    const object = {
      endpointId: endpoint.id,
      url: endpoint.url,
      message: 'A test event sent from the panel. Nothing changed.',
    };
    const deliveryId = await this.deliveries.enqueueWithEvent(
      {
        id: eventId,
        company_id: scope.companyId,
        livemode: modeColumn(scope),
        type: TEST_EVENT_TYPE,
        request_id: scope.requestId,
        object: JSON.stringify(object),
        created_at: now.toISOString(),
      },
      endpoint.id,
      now,
    );
    this.options.onEnqueued?.();
    return { ok: true, eventId, deliveryId };
  }

  /**
   * Sends an event to an endpoint again, as a new delivery with its own retries (the panel's
   * "resend"): the event must be the company's and still kept, the endpoint its own.
   */
  async resend(
    scope: Scope,
    endpointId: string,
    eventId: string,
    now: Date = new Date(),
  ): Promise<{ ok: true; deliveryId: string } | { ok: false; code: 'NOT_FOUND' }> {
    const endpoint = await this.endpoints.find(scope, endpointId);
    const event = await this.events.exists(scope, eventId);
    if (!endpoint || !event) return { ok: false, code: 'NOT_FOUND' };
    const deliveryId = await this.deliveries.enqueue(scope.companyId, endpointId, eventId, now);
    this.options.onEnqueued?.();
    return { ok: true, deliveryId };
  }
}
