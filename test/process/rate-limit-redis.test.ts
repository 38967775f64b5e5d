import { execFileSync } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createRateLimitStore } from '../../src/rate-limit/create-store.js';
import { FailOpenRateLimitStore, type FailOpenLogger } from '../../src/rate-limit/fail-open-store.js';
import { RedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { MemoryRateLimitStore } from '../../src/rate-limit/store.js';
import { buildTestApp } from '../helpers/build.js';
import {
  deleteRedisKeys,
  REDIS_AVAILABLE,
  REDIS_SERVER_INSTALLED,
  TEST_REDIS_URL,
  ThrowawayRedis,
  uniqueRedisPrefix,
} from '../helpers/redis.js';
import { eventually } from '../helpers/eventually.js';
import { freePort } from '../helpers/servers.js';

function recordingLogger(): FailOpenLogger & { warnings: string[]; infos: string[] } {
  const warnings: string[] = [];
  const infos: string[] = [];
  return {
    warnings,
    infos,
    warn: (_details, message) => warnings.push(message),
    info: (_details, message) => infos.push(message),
  };
}

describe.skipIf(!REDIS_AVAILABLE)('the Redis rate-limit store', () => {
  const prefix = uniqueRedisPrefix('store');
  const stores: RedisRateLimitStore[] = [];
  const open = () => {
    const store = new RedisRateLimitStore({ url: TEST_REDIS_URL, keyPrefix: prefix });
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await deleteRedisKeys(prefix);
  });

  it('counts concurrent hits from two instances exactly once each in one shared window', async () => {
    const [a, b] = [open(), open()];
    await Promise.all([a.waitUntilReady(2000), b.waitUntilReady(2000)]);
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).increment('key:shared', 60_000)),
    );
    expect(results.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const resetAts = new Set(results.map((r) => Math.round(r.resetAt / 1000)));
    expect(resetAts.size).toBeLessThanOrEqual(2);
    expect((await a.peek('key:shared'))?.count).toBe(200);
  });

  it('starts a new window once the old one has ended', async () => {
    const store = open();
    await store.waitUntilReady(2000);
    expect((await store.increment('key:short', 200)).count).toBe(1);
    expect((await store.increment('key:short', 200)).count).toBe(2);
    // The 200 ms window ends on Redis's clock: ask until it has.
    await eventually(async () => (await store.peek('key:short')) === null, { what: 'the window to end' });
    expect(await store.peek('key:short')).toBeNull();
    expect((await store.increment('key:short', 200)).count).toBe(1);
  });

  it('peeks without counting and answers null for an empty window', async () => {
    const store = open();
    await store.waitUntilReady(2000);
    expect(await store.peek('key:never')).toBeNull();
    await store.increment('key:peeked', 60_000);
    await store.peek('key:peeked');
    expect((await store.peek('key:peeked'))?.count).toBe(1);
  });

  it('answers a count whose reply came while the event loop was busy past the command timeout', async () => {
    const store = new RedisRateLimitStore({ url: TEST_REDIS_URL, keyPrefix: prefix, commandTimeoutMs: 50 });
    stores.push(store);
    await store.waitUntilReady(2000);
    const redis = new URL(TEST_REDIS_URL);
    const counted = () =>
      execFileSync('redis-cli', ['-h', redis.hostname, '-p', redis.port || '6379', 'get', `${prefix}key:busy`], {
        encoding: 'utf8',
      }).trim();
    const started = Date.now();
    const count = store.increment('key:busy', 60_000);
    // The event loop stays busy (as with a burst of requests handled in one turn) until Redis has
    // counted, so its reply has been written back, and until the timeout is well past.
    while (counted() !== '1' || Date.now() - started < 200);
    await expect(count).resolves.toMatchObject({ count: 1 });
  });
});

describe.skipIf(!REDIS_SERVER_INSTALLED)('the fail-open rate-limit store over a Redis that goes away', () => {
  let redis: ThrowawayRedis;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
  });
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
    await redis.start();
  });
  afterAll(async () => redis.stop());

  function failOpen(logger: FailOpenLogger) {
    const shared = new RedisRateLimitStore({ url: redis.url, keyPrefix: 'fo:', commandTimeoutMs: 250 });
    const store = new FailOpenRateLimitStore(shared, new MemoryRateLimitStore(), { logger, probeIntervalMs: 100 });
    closers.push(() => store.close());
    return { shared, store };
  }

  it('counts in process while Redis is down, warns once, and resumes shared counting when it returns', async () => {
    const logger = recordingLogger();
    const { shared, store } = failOpen(logger);
    const other = failOpen(recordingLogger());
    await Promise.all([shared.waitUntilReady(2000), other.shared.waitUntilReady(2000)]);
    expect((await store.increment('k', 60_000)).count).toBe(1);
    expect((await other.store.increment('k', 60_000)).count).toBe(2);

    await redis.stop();
    const during = [];
    for (let i = 0; i < 20; i++) during.push((await store.increment('k', 60_000)).count);
    expect(during).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(store.degraded).toBe(true);
    expect(logger.warnings).toHaveLength(1);
    expect(logger.infos).toHaveLength(0);

    await redis.start();
    await eventually(
      async () => {
        await store.increment('probe', 60_000);
        return !store.degraded;
      },
      { intervalMs: 50, what: 'shared counting to resume' },
    );
    expect(logger.warnings).toHaveLength(1);
    expect(logger.infos).toHaveLength(1);
    // Counting is shared again: both instances see one counter (the restarted Redis starts empty).
    expect((await store.increment('after', 60_000)).count).toBe(1);
    await eventually(
      async () => {
        await other.store.increment('probe', 60_000);
        return !other.store.degraded;
      },
      { intervalMs: 50, what: 'the other instance to resume' },
    );
    expect((await other.store.increment('after', 60_000)).count).toBe(2);
  });

  it('answers on the command timeout while Redis hangs, instead of queueing behind it', async () => {
    const logger = recordingLogger();
    const { shared, store } = failOpen(logger);
    await shared.waitUntilReady(2000);
    await store.increment('h', 60_000);
    redis.pause();
    try {
      // Redis stays frozen until every count is answered: a count queued behind it would never be.
      const counts = await Promise.all(Array.from({ length: 10 }, () => store.increment('h', 60_000)));
      expect(counts).toHaveLength(10);
      expect(store.degraded).toBe(true);
      expect(logger.warnings).toHaveLength(1);
    } finally {
      redis.resume();
    }
  });
});

describe.skipIf(!REDIS_SERVER_INSTALLED)('the API while its Redis goes away', () => {
  let redis: ThrowawayRedis;
  beforeAll(async () => {
    redis = await ThrowawayRedis.start();
  });
  afterAll(async () => redis.stop());

  it('keeps serving without a 5xx or Redis text, enforces the limit per instance, and logs one warning', async () => {
    const log = new PassThrough();
    const lines: string[] = [];
    log.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    const t = await buildTestApp(
      'sqlite',
      { redisUrl: redis.url, redisKeyPrefix: 'api:', rateLimitMax: 8 },
      { logStream: log },
    );
    try {
      const { key } = await t.tenant(['organization.create']);
      const first = await t.post('/organization', { name: 'Before', isCustomer: true }, key);
      expect(first.statusCode).toBe(201);
      expect(first.headers['ratelimit-remaining']).toBe('7');

      await redis.stop();
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await t.post('/organization', { name: `During ${i}`, isCustomer: true }, key);
        statuses.push(res.statusCode);
        expect(res.body).not.toMatch(/redis|ECONNREFUSED|Stream isn't writeable|Connection is closed/i);
      }
      const health = await t.get('/');
      expect(health.statusCode).toBe(200);
      // Counting restarted in this process: 8 admitted, the rest 429 — never a 5xx.
      expect(statuses.filter((s) => s === 201)).toHaveLength(8);
      expect(statuses.filter((s) => s === 429)).toHaveLength(2);
      const warnings = lines.filter((l) => l.includes('shared rate-limit store unavailable'));
      expect(warnings).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});

describe('choosing the rate-limit store', () => {
  const logger = recordingLogger();

  it('counts in process when REDIS_URL is unset', async () => {
    const store = await createRateLimitStore({ redisUrl: undefined, redisKeyPrefix: 'x:', logger });
    expect(store).toBeInstanceOf(MemoryRateLimitStore);
    await store.close();
  });

  it('counts in Redis, failing open, when REDIS_URL is set, and starts even when Redis does not answer', async () => {
    const store = await createRateLimitStore({
      redisUrl: `redis://127.0.0.1:${await freePort()}`,
      redisKeyPrefix: 'x:',
      logger,
    });
    try {
      expect(store).toBeInstanceOf(FailOpenRateLimitStore);
      expect((await store.increment('k', 60_000)).count).toBe(1);
      expect(logger.warnings).toHaveLength(1);
    } finally {
      await store.close();
    }
  });

  it('reads REDIS_KEY_PREFIX with a default and refuses one with spaces', () => {
    expect(loadConfig({}).redisKeyPrefix).toBe('invoicing:rl:');
    expect(loadConfig({ REDIS_KEY_PREFIX: 'tenant-a:' }).redisKeyPrefix).toBe('tenant-a:');
    expect(() => loadConfig({ REDIS_KEY_PREFIX: 'has space' })).toThrow(/REDIS_KEY_PREFIX/);
  });
});
