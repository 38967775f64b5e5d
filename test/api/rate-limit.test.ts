import { afterEach, describe, expect, it } from 'vitest';
import { MemoryRateLimitStore } from '../../src/rate-limit/store.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

describe('the in-process rate-limit store', () => {
  it('counts hits in a fixed window and starts over when it ends', async () => {
    let now = 1_000;
    const store = new MemoryRateLimitStore(() => now);
    expect(await store.increment('k', 100)).toEqual({ count: 1, resetAt: 1_100 });
    expect(await store.increment('k', 100)).toEqual({ count: 2, resetAt: 1_100 });
    expect(await store.peek('k')).toEqual({ count: 2, resetAt: 1_100 });
    now = 1_100;
    expect(await store.peek('k')).toBeNull();
    expect(await store.increment('k', 100)).toEqual({ count: 1, resetAt: 1_200 });
    await store.close();
  });
});

describe('rate limiting', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('answers 429 with Retry-After past the limit, with rate-limit headers on every response', async () => {
    t = await buildTestApp('sqlite', { rateLimitMax: 3, rateLimitWindowMs: 60_000 });
    const { key } = await t.tenant(['organization.create']);
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await t.post('/organization', { name: `Org ${i}`, isCustomer: true }, key);
      expect(res.statusCode).toBe(201);
      expect(res.headers['ratelimit-limit']).toBe('3');
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
      expect(res.headers['ratelimit-policy']).toBe('3;w=60');
      remaining.push(String(res.headers['ratelimit-remaining']));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await t.post('/organization', { name: 'One too many', isCustomer: true }, key, {
      'x-request-id': 'rl-1',
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED' },
      meta: { requestId: 'rl-1' },
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
  });

  it('has no side effect on a request it refuses', async () => {
    t = await buildTestApp('sqlite', { rateLimitMax: 1 });
    const { key } = await t.tenant(['organization.create']);
    expect((await t.post('/organization', { name: 'First', isCustomer: true }, key)).statusCode).toBe(201);
    expect((await t.post('/organization', { name: 'Second', isCustomer: true }, key)).statusCode).toBe(429);
    const names = (await t.storage.db.selectFrom('organizations').select('name').execute()).map((r) => r.name);
    expect(names).toEqual(['First']);
  });

  it('counts each key on its own and anonymous callers per address', async () => {
    t = await buildTestApp('sqlite', { rateLimitMax: 2 });
    const a = await t.tenant(['organization.create']);
    const b = await t.tenant(['organization.create']);
    for (let i = 0; i < 2; i++) expect((await t.get('', a.key)).statusCode).toBe(200);
    expect((await t.get('', a.key)).statusCode).toBe(429);
    expect((await t.get('', b.key)).statusCode).toBe(200);
    expect((await t.get('')).statusCode).toBe(200);
    expect((await t.get('')).statusCode).toBe(200);
    expect((await t.get('')).statusCode).toBe(429);
    expect((await t.request({ method: 'GET', url: '/no/such/page', remoteAddress: '10.0.0.9' })).statusCode).toBe(404);
  });

  it('stops checking keys from an address after too many failed checks', async () => {
    t = await buildTestApp('sqlite', { authFailureLimit: 3 });
    const { key } = await t.tenant(['organization.create']);
    for (let i = 0; i < 3; i++) {
      expect((await t.get('', `inv_live_ABCDEFG${i}_abcdefghijklmnopqrstuvwx`)).statusCode).toBe(401);
    }
    const blocked = await t.get('', key);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await t.request({
      method: 'GET',
      url: '/api/v1.0.0/public',
      headers: { 'x-api-key': key },
      remoteAddress: '10.1.2.3',
    });
    expect(elsewhere.statusCode).toBe(200);
  });
});
