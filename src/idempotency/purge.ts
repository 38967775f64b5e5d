import type { FastifyPluginAsync } from 'fastify';
import type { IdempotencyService } from './idempotency-service.js';

export const PURGE_INTERVAL_MS = 10 * 60_000;

/**
 * Deletes expired idempotency records on a timer (every instance does it; deleting what is
 * already gone is harmless). Expired records are also replaced when their key is used again,
 * so the timer only bounds the table's size.
 */
export const idempotencyPurge: FastifyPluginAsync<{ idempotency: IdempotencyService; intervalMs?: number }> = async (
  app,
  options,
) => {
  const timer = setInterval(() => {
    options.idempotency.purgeExpired().then(
      (count) => {
        if (count > 0) app.log.info({ count }, 'expired idempotency records purged');
      },
      (error: unknown) => app.log.warn({ err: error }, 'purging idempotency records failed'),
    );
  }, options.intervalMs ?? PURGE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};
