import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      clusterWorkers: 1,
      databaseUrl: 'sqlite:./data/invoicing.db',
      databasePoolMax: 10,
      redisUrl: undefined,
      rateLimitMax: 600,
      rateLimitWindowMs: 60_000,
      authFailureLimit: 30,
      bodyLimitBytes: 1_048_576,
      logLevel: 'info',
      apiKeyCacheTtlMs: 2000,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      HOST: '0.0.0.0',
      PORT: '8080',
      CLUSTER_WORKERS: '4',
      DATABASE_URL: 'postgres://u@db:5432/inv',
      DATABASE_POOL_MAX: '20',
      REDIS_URL: 'redis://cache:6379',
      RATE_LIMIT_MAX: '100',
      RATE_LIMIT_WINDOW_MS: '1000',
      AUTH_FAILURE_LIMIT: '5',
      BODY_LIMIT_BYTES: '4096',
      LOG_LEVEL: 'warn',
      API_KEY_CACHE_TTL_MS: '0',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      clusterWorkers: 4,
      databaseUrl: 'postgres://u@db:5432/inv',
      databasePoolMax: 20,
      redisUrl: 'redis://cache:6379',
      rateLimitMax: 100,
      rateLimitWindowMs: 1000,
      authFailureLimit: 5,
      bodyLimitBytes: 4096,
      logLevel: 'warn',
      apiKeyCacheTtlMs: 0,
    });
  });

  it('reads the limits of received e-invoices', () => {
    expect(loadConfig({})).toMatchObject({
      receiveMaxBytes: 20 * 1024 * 1024,
      receiveQueueMax: 32,
      receiveTimeoutMs: 20_000,
      receiveWorkerMemoryMb: 512,
    });
    expect(loadConfig({}).receiveWorkers).toBeLessThanOrEqual(2);
    expect(
      loadConfig({
        RECEIVE_MAX_BYTES: '4096',
        RECEIVE_WORKERS: '3',
        RECEIVE_QUEUE_MAX: '0',
        RECEIVE_TIMEOUT_MS: '500',
        RECEIVE_WORKER_MEMORY_MB: '128',
      }),
    ).toMatchObject({
      receiveMaxBytes: 4096,
      receiveWorkers: 3,
      receiveQueueMax: 0,
      receiveTimeoutMs: 500,
      receiveWorkerMemoryMb: 128,
    });
    expect(() => loadConfig({ RECEIVE_MAX_BYTES: '200000000' })).toThrow(
      /RECEIVE_MAX_BYTES must be between 1024 and 104857600/,
    );
    expect(() => loadConfig({ RECEIVE_WORKER_MEMORY_MB: '16' })).toThrow(/RECEIVE_WORKER_MEMORY_MB/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['RATE_LIMIT_MAX', '0'],
    ['RATE_LIMIT_MAX', '1.5'],
    ['RATE_LIMIT_WINDOW_MS', '10'],
    ['AUTH_FAILURE_LIMIT', 'many'],
    ['BODY_LIMIT_BYTES', '12'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'invoicing.db'],
    ['REDIS_URL', 'localhost:6379'],
    ['API_KEY_CACHE_TTL_MS', '60000'],
    ['DATA_ENCRYPTION_KEY', 'c2hvcnQ='],
    ['DATA_ENCRYPTION_KEY', 'not base64 at all, not at all, not at all!!'],
    ['WEBHOOK_ALLOW_PRIVATE_URLS', 'yes'],
    ['WEBHOOK_RETRY_SCHEDULE_MS', '5s,5m'],
    ['WEBHOOK_RETRY_SCHEDULE_MS', '-1'],
    ['WEBHOOK_MAX_CONCURRENT', '0'],
    ['CLUSTER_WORKERS', '0'],
    ['CLUSTER_WORKERS', '65'],
    ['CLUSTER_WORKERS', 'auto'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('refuses CLUSTER_WORKERS above 1 unless PostgreSQL and Redis are configured, saying why', () => {
    const shared = { DATABASE_URL: 'postgres://u@db:5432/inv', REDIS_URL: 'redis://cache:6379' };
    expect(loadConfig({ ...shared, CLUSTER_WORKERS: '2' }).clusterWorkers).toBe(2);
    expect(loadConfig({ CLUSTER_WORKERS: '1' }).clusterWorkers).toBe(1);

    const withoutRedis = () => loadConfig({ CLUSTER_WORKERS: '2', DATABASE_URL: shared.DATABASE_URL });
    expect(withoutRedis).toThrow(ConfigError);
    expect(withoutRedis).toThrow(/REDIS_URL \(rate limits .* each would count alone/);
    const onSqlite = () =>
      loadConfig({ CLUSTER_WORKERS: '2', DATABASE_URL: 'sqlite:./x.db', REDIS_URL: shared.REDIS_URL });
    expect(onSqlite).toThrow(ConfigError);
    expect(onSqlite).toThrow(
      /PostgreSQL DATABASE_URL \(SQLite's group-commit writer .* one process per database file\)/,
    );
    // The default database is SQLite: both reasons at once.
    expect(() => loadConfig({ CLUSTER_WORKERS: '3' })).toThrow(
      /CLUSTER_WORKERS=3 .*PostgreSQL DATABASE_URL.* and REDIS_URL/,
    );
  });

  it('reads the webhook and data key variables: keys newest first, a schedule of delays', () => {
    const newest = Buffer.alloc(32, 7);
    const older = Buffer.alloc(32, 9);
    const config = loadConfig({
      DATA_ENCRYPTION_KEY: `${newest.toString('base64')}, ${older.toString('base64')}`,
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      WEBHOOK_RETRY_SCHEDULE_MS: '100, 2000,0',
      WEBHOOK_MAX_CONCURRENT: '5',
    });
    expect(config.dataEncryptionKeys).toEqual([newest, older]);
    expect(config).toMatchObject({
      webhookAllowPrivateUrls: true,
      webhookRetryScheduleMs: [100, 2000, 0],
      webhookMaxConcurrent: 5,
    });
    expect(loadConfig({})).toMatchObject({
      dataEncryptionKeys: [],
      webhookAllowPrivateUrls: false,
      webhookRetryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      webhookMaxConcurrent: 20,
    });
  });
});
