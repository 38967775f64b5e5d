import type { FastifyPluginAsync } from 'fastify';
import type { EventRepository } from '../repositories/event-repository.js';
import { EVENT_RETENTION_MS } from '../schemas/event-types.js';

export const EVENT_PURGE_INTERVAL_MS = 10 * 60_000;

/** Deletes events older than the retention, with their webhook deliveries and attempts. */
export async function purgeOldEvents(events: EventRepository, now: Date = new Date()): Promise<number> {
  return events.purgeCreatedBefore(new Date(now.getTime() - EVENT_RETENTION_MS).toISOString());
}

/** Purges old events on a timer (every instance does; deleting what is gone is harmless). */
export const eventPurge: FastifyPluginAsync<{ events: EventRepository; intervalMs?: number }> = async (
  app,
  options,
) => {
  const timer = setInterval(() => {
    purgeOldEvents(options.events).then(
      (count) => {
        if (count > 0) app.log.info({ count }, 'events older than 30 days purged');
      },
      (error: unknown) => app.log.warn({ err: error }, 'purging old events failed'),
    );
  }, options.intervalMs ?? EVENT_PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};
