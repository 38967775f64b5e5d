import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { EVENT_RETENTION_MS } from '../schemas/event-types.js';

export const EVENT_PURGE_INTERVAL_MS = 10 * 60_000;

/** Deletes events older than the retention, with their webhook deliveries and attempts. */
export async function purgeOldEvents(db: Kysely<Database>, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - EVENT_RETENTION_MS).toISOString();
  return db.transaction().execute(async (t) => {
    const old = t.selectFrom('events').select('id').where('created_at', '<', cutoff);
    await t.deleteFrom('webhook_attempts').where('event_id', 'in', old).execute();
    await t.deleteFrom('webhook_deliveries').where('event_id', 'in', old).execute();
    await t.deleteFrom('webhook_outbox').where('event_id', 'in', old).execute();
    const result = await t.deleteFrom('events').where('created_at', '<', cutoff).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/** Purges old events on a timer (every instance does; deleting what is gone is harmless). */
export const eventPurge: FastifyPluginAsync<{ db: Kysely<Database>; intervalMs?: number }> = async (app, options) => {
  const timer = setInterval(() => {
    purgeOldEvents(options.db).then(
      (count) => {
        if (count > 0) app.log.info({ count }, 'events older than 30 days purged');
      },
      (error: unknown) => app.log.warn({ err: error }, 'purging old events failed'),
    );
  }, options.intervalMs ?? EVENT_PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};
