import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

// The read side behind the panel's webhook endpoint page: an endpoint's recent delivery attempts,
// each with its event's type. Scoped by company and endpoint both, so an endpoint id alone never
// reads another company's attempts.

export const ATTEMPTS_SHOWN = 100;

export interface AttemptListItem {
  id: string;
  eventId: string;
  /** Null once the event is purged (its attempts go with it, so this is a moment's race at most). */
  eventType: string | null;
  attemptedAt: string;
  durationMs: number;
  statusCode: number | null;
  succeeded: boolean;
  error: string | null;
  /** The first kilobyte of the receiver's answer: text a stranger chose, escaped like all output. */
  responseExcerpt: string | null;
}

export class WebhookAttemptLog {
  constructor(private readonly db: Kysely<Database>) {}

  /** The endpoint's latest attempts, newest first. */
  async recent(companyId: string, endpointId: string, limit = ATTEMPTS_SHOWN): Promise<AttemptListItem[]> {
    const rows = await this.db
      .selectFrom('webhook_attempts as a')
      .leftJoin('events as e', (join) => join.onRef('e.id', '=', 'a.event_id').on('e.company_id', '=', companyId))
      .select(['a.id', 'a.event_id', 'e.type', 'a.attempted_at', 'a.duration_ms', 'a.status_code', 'a.succeeded', 'a.error', 'a.response_excerpt'])
      .where('a.company_id', '=', companyId)
      .where('a.endpoint_id', '=', endpointId)
      .orderBy('a.attempted_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      eventId: row.event_id,
      eventType: row.type,
      attemptedAt: row.attempted_at,
      durationMs: Number(row.duration_ms),
      statusCode: row.status_code === null ? null : Number(row.status_code),
      succeeded: Number(row.succeeded) === 1,
      error: row.error,
      responseExcerpt: row.response_excerpt,
    }));
  }
}
