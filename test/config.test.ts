import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    expect(loadConfig({})).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
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
    expect(config).toMatchObject({ host: '0.0.0.0', port: 8080, databaseUrl: 'postgres://u@db:5432/inv', databasePoolMax: 20, redisUrl: 'redis://cache:6379', rateLimitMax: 100, rateLimitWindowMs: 1000, authFailureLimit: 5, bodyLimitBytes: 4096, logLevel: 'warn', apiKeyCacheTtlMs: 0 });
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
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
