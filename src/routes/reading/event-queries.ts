import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { eventJson } from '../../events/event-json.js';
import { TEST_EVENT_TYPE } from '../../schemas/event-types.js';
import { modeColumn, type Scope } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

export interface EventFilter {
  /** One type, or every type of a resource with `<resource>.*`. */
  type?: string;
  /** Strictly after this instant (ISO 8601, UTC, milliseconds). */
  createdAfter?: string;
}

/** Read side of events; every query is scoped by company and mode. A webhook test event is a delivery, not a change: never read here. */
export class EventQueries {
  constructor(private readonly db: Kysely<Database>) {}

  /** One event as JSON text, or undefined. */
  async findJson(scope: Pick<Scope, 'companyId' | 'livemode'>, id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('events')
      .select(['id', 'livemode', 'type', 'created_at', 'request_id', 'object'])
      .where('company_id', '=', scope.companyId)
      .where('livemode', '=', modeColumn(scope))
      .where('id', '=', id)
      .where('type', '!=', TEST_EVENT_TYPE)
      .executeTakeFirst();
    return row ? eventJson(row) : undefined;
  }

  /** A page of events, newest first, within `maxBytes`. */
  async list(scope: Pick<Scope, 'companyId' | 'livemode'>, filter: EventFilter, page: { limit: number; after?: Cursor; maxBytes: number }): Promise<SerializedPage> {
    let query = this.db
      .selectFrom('events')
      .select(['id', 'livemode', 'type', 'created_at', 'request_id', 'object'])
      .where('company_id', '=', scope.companyId)
      .where('livemode', '=', modeColumn(scope))
      .where('type', '!=', TEST_EVENT_TYPE);
    const type = filter.type;
    if (type?.endsWith('.*')) query = query.where('type', 'like', `${type.slice(0, -1)}%`);
    else if (type !== undefined) query = query.where('type', '=', type);
    if (filter.createdAfter !== undefined) query = query.where('created_at', '>', filter.createdAfter);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const budget = new PageBudget<never>(page.maxBytes);
    for (const row of rows.slice(0, page.limit)) if (!budget.offerJson(eventJson(row))) break;
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
