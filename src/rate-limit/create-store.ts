import { FailOpenRateLimitStore, type FailOpenLogger } from './fail-open-store.js';
import { MemoryRateLimitStore, type RateLimitStore } from './store.js';

export interface RateLimitStoreSettings {
  redisUrl: string | undefined;
  redisKeyPrefix: string;
  logger: FailOpenLogger;
}

/** How long start-up waits for a first Redis connection; after it, the app starts counting locally. */
const REDIS_STARTUP_WAIT_MS = 1000;

/**
 * Without REDIS_URL, counters live in this process. With it, they live in Redis and are shared
 * by every instance, failing open to this process's counters while Redis is unavailable.
 */
export async function createRateLimitStore(settings: RateLimitStoreSettings): Promise<RateLimitStore> {
  if (!settings.redisUrl) return new MemoryRateLimitStore();
  // Loaded only with REDIS_URL: an instance without Redis does not carry the client's memory.
  const { RedisRateLimitStore } = await import('./redis-store.js');
  const redis = new RedisRateLimitStore({ url: settings.redisUrl, keyPrefix: settings.redisKeyPrefix });
  // Not ready in time is no reason to refuse to start: the fail-open store logs it and retries.
  await redis.waitUntilReady(REDIS_STARTUP_WAIT_MS);
  return new FailOpenRateLimitStore(redis, new MemoryRateLimitStore(), { logger: settings.logger });
}
