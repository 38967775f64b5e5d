import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';
import { TEST_EVENT_TYPE } from '../schemas/event-types.js';
import { afterCursor, type Cursor } from './keyset.js';

/** The columns an event is shown with (src/events/event-json.ts). */
const SHOWN = ['id', 'livemode', 'type', 'created_at', 'request_id', 'object'] as const;

export interface EventFilter {
  /** One type, or every type of a resource with `<resource>.*`. */
  type?: string;
  /** Strictly after this instant (ISO 8601, UTC, milliseconds). */
  createdAfter?: string;
}

/**
 * The events table, read and purged. Reads are scoped by company and mode; a webhook test event
 * is a delivery, not a change: it is never read back as an event.
 */
export class EventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Whether the event is the owner's and still kept (the webhook test event included). */
  async exists(owner: Owner, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('events')
      .select('id')
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** One event, as it is shown. */
  async findShown(owner: Owner, id: string) {
    return this.db
      .selectFrom('events')
      .select(SHOWN)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('type', '!=', TEST_EVENT_TYPE)
      .executeTakeFirst();
  }

  /** Up to `limit + 1` events after the cursor, newest first (the extra row says another page exists). */
  async page(owner: Owner, filter: EventFilter, page: { limit: number; after?: Cursor }) {
    let query = this.db
      .selectFrom('events')
      .select(SHOWN)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('type', '!=', TEST_EVENT_TYPE);
    const type = filter.type;
    if (type?.endsWith('.*')) query = query.where('type', 'like', `${type.slice(0, -1)}%`);
    else if (type !== undefined) query = query.where('type', '=', type);
    if (filter.createdAfter !== undefined) query = query.where('created_at', '>', filter.createdAfter);
    if (page.after) query = query.where(afterCursor(page.after));
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }

  /** Deletes events created before `cutoff`, with their webhook deliveries, attempts and outbox rows, in one transaction. */
  async purgeCreatedBefore(cutoff: string): Promise<number> {
    return this.db.transaction().execute(async (t) => {
      const old = t.selectFrom('events').select('id').where('created_at', '<', cutoff);
      await t.deleteFrom('webhook_attempts').where('event_id', 'in', old).execute();
      await t.deleteFrom('webhook_deliveries').where('event_id', 'in', old).execute();
      await t.deleteFrom('webhook_outbox').where('event_id', 'in', old).execute();
      const result = await t.deleteFrom('events').where('created_at', '<', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
