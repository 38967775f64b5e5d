import { sql, type Kysely } from 'kysely';
import { prepareQuery, preparedInsert, type PreparedQuery } from '../db/prepared-query.js';
import type { Database } from '../db/schema.js';
import { newId } from '../lib/ids.js';
import { modeColumn, type Scope } from '../services/scope.js';
import type { EventType } from './event-types.js';

/** Whether an endpoint's list of event types (stored as JSON) takes events of `type`. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * Writes an event, and one pending delivery per enabled webhook endpoint that takes it, in the
 * caller's transaction: the change, its event and its deliveries commit together or not at all.
 */
export class EventRecorder {
  private readonly listeners = new Set<(endpointIds: string[]) => void>();
  // Every change writes an event: its three statements are compiled once, not per request.
  private readonly insertEvent: ReturnType<typeof preparedInsert>;
  private readonly insertDeliveries: ReturnType<typeof preparedInsert>;
  private readonly selectEndpoints: PreparedQuery<{ companyId: string; livemode: number }, { id: string; events: string }>;

  constructor(db: Kysely<Database>) {
    this.insertEvent = preparedInsert(db, 'events');
    this.insertDeliveries = preparedInsert(db, 'webhook_deliveries');
    this.selectEndpoints = prepareQuery<{ companyId: string; livemode: number }, { id: string; events: string }>(db, (d, param) =>
      d
        .selectFrom('webhook_endpoints')
        .select(['id', 'events'])
        .where('company_id', '=', param('companyId'))
        .where('livemode', '=', param('livemode'))
        .where('enabled', '=', sql.lit(1)),
    );
  }

  /** Called after an event with deliveries was written (not yet committed): a nudge, not a promise. */
  onDeliveries(listener: (endpointIds: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async record(t: Kysely<Database>, scope: Scope, type: EventType, object: unknown, now: Date): Promise<string> {
    const id = newId('evt');
    const at = now.toISOString();
    const livemode = modeColumn(scope);
    await this.insertEvent([{ id, company_id: scope.companyId, livemode, type, request_id: scope.requestId, object: JSON.stringify(object), created_at: at }], t);
    const endpoints = (await this.selectEndpoints({ companyId: scope.companyId, livemode }, t)).rows;
    const wanting = endpoints.filter((endpoint) => subscribes(JSON.parse(endpoint.events) as string[], type));
    if (wanting.length > 0) {
      await this.insertDeliveries(
        wanting.map((endpoint) => ({
          id: newId('whd'),
          company_id: scope.companyId,
          endpoint_id: endpoint.id,
          event_id: id,
          status: 'pending' as const,
          attempts: 0,
          next_attempt_at: at,
          lease_owner: null,
          lease_expires_at: null,
          created_at: at,
          updated_at: at,
        })),
        t,
      );
      const endpointIds = wanting.map((endpoint) => endpoint.id);
      for (const listener of this.listeners) listener(endpointIds);
    }
    return id;
  }
}
