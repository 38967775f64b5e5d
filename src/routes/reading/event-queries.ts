import { eventJson } from '../../events/event-json.js';
import type { EventFilter, EventRepository } from '../../repositories/event-repository.js';
import type { Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

export type { EventFilter };

/** Read side of events: the repository's rows as the JSON the API sends. */
export class EventQueries {
  constructor(private readonly events: EventRepository) {}

  /** One event as JSON text, or undefined. */
  async findJson(owner: Owner, id: string): Promise<string | undefined> {
    const row = await this.events.findShown(owner, id);
    return row ? eventJson(row) : undefined;
  }

  /** A page of events, newest first, within `maxBytes`. */
  async list(
    owner: Owner,
    filter: EventFilter,
    page: { limit: number; after?: Cursor; maxBytes: number },
  ): Promise<SerializedPage> {
    const rows = await this.events.page(
      owner,
      filter,
      page.after ? { limit: page.limit, after: page.after } : { limit: page.limit },
    );
    const budget = new PageBudget<never>(page.maxBytes);
    for (const row of rows.slice(0, page.limit)) if (!budget.offerJson(eventJson(row))) break;
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
