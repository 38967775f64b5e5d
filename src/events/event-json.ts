import type { EventsTable } from '../db/schema.js';

/**
 * An event as JSON text: the stored object is already the API's JSON, so it is embedded as it
 * is, byte for byte, in the events list and in every webhook delivery of it.
 */
export function eventJson(
  row: Pick<EventsTable, 'id' | 'livemode' | 'type' | 'created_at' | 'request_id' | 'object'>,
): string {
  return (
    `{"id":${JSON.stringify(row.id)},"livemode":${row.livemode === 1},"type":${JSON.stringify(row.type)},"createdAt":${JSON.stringify(row.created_at)},` +
    `"requestId":${JSON.stringify(row.request_id)},"data":{"object":${row.object}}}`
  );
}
