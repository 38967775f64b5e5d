import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { RedisRateLimitStore } from '../../src/rate-limit/redis-store.js';
import { deleteRedisKeys, REDIS_AVAILABLE, TEST_REDIS_URL, uniqueRedisPrefix } from '../helpers/redis.js';
import { cliJson, startServer, type ServerProcess } from '../helpers/servers.js';
import { claimInstance, PanelClient, PASSWORD, signedInAs } from '../helpers/panel-client.js';

// Every limiter holds under parallel load: of N parallel attempts exactly the limit are let
// through and the rest are answered 429, on both databases, with in-process counters and with
// Redis, on one instance and across two.

const AUTH_FAILURE_LIMIT = 30;
const RATE_LIMIT_MAX = 50;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomText(length: number): string {
  return [...randomBytes(length)].map((b) => BASE62[b % 62]).join('');
}

/** A well-formed key that does not exist. */
const randomKey = () => `inv_live_${randomText(8)}_${randomText(24)}`;

function tally(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

const stores = [
  { name: 'in-process counters', redis: false },
  ...(REDIS_AVAILABLE ? [{ name: 'Redis', redis: true }] : []),
];

for (const dialect of DIALECTS) {
  for (const store of stores) {
    describe(`atomic limits on ${dialect} with ${store.name}`, () => {
      let t: TestApp;
      const prefix = uniqueRedisPrefix('atomic');

      beforeAll(async () => {
        // Redis is given directly, without the fail-open fallback and with a command timeout far
        // above any stall of a busy machine: these tests count what Redis admits, and a fallback
        // to this process's counters (its own tests) would count elsewhere.
        t = await buildTestApp(
          dialect,
          { authFailureLimit: AUTH_FAILURE_LIMIT, rateLimitMax: RATE_LIMIT_MAX },
          store.redis
            ? {
                rateLimitStore: new RedisRateLimitStore({
                  url: TEST_REDIS_URL,
                  keyPrefix: prefix,
                  commandTimeoutMs: 30_000,
                }),
              }
            : {},
        );
      });
      afterAll(async () => {
        await t.close();
        if (store.redis) await deleteRedisKeys(prefix);
      });

      const health = (headers: Record<string, string>, ip: string) =>
        t.request({ method: 'GET', url: `${BASE_PATH}/`, headers, remoteAddress: ip });

      it('checks exactly the failed-key limit of 300 parallel unknown keys from one address and answers 429 to the rest', async () => {
        const statuses = await Promise.all(
          Array.from({ length: 300 }, () => health({ 'x-api-key': randomKey() }, '10.0.0.1')),
        );
        expect(tally(statuses.map((r) => r.statusCode))).toEqual({
          401: AUTH_FAILURE_LIMIT,
          429: 300 - AUTH_FAILURE_LIMIT,
        });
      });

      it('holds the same limit for a parallel mix of wrong secrets, malformed keys and one unknown key sent many times', async () => {
        const { key } = await t.tenant();
        const known = key.slice(0, 'inv_live_'.length + 8);
        const repeated = randomKey();
        const attempts = Array.from({ length: 120 }, (_, i) =>
          i % 3 === 0 ? `${known}_${randomText(24)}` : i % 3 === 1 ? `not-a-key-${i}` : repeated,
        );
        const statuses = await Promise.all(attempts.map((k) => health({ 'x-api-key': k }, '10.0.0.2')));
        expect(tally(statuses.map((r) => r.statusCode))).toEqual({
          401: AUTH_FAILURE_LIMIT,
          429: 120 - AUTH_FAILURE_LIMIT,
        });
      });

      it('lets any number of parallel requests with valid keys through without touching the failed-key budget', async () => {
        const keys = await Promise.all(Array.from({ length: 5 }, async () => (await t.tenant()).key));
        const statuses = await Promise.all(
          Array.from({ length: 5 * (RATE_LIMIT_MAX - 5) }, (_, i) => health({ 'x-api-key': keys[i % 5]! }, '10.0.0.3')),
        );
        expect(tally(statuses.map((r) => r.statusCode))).toEqual({ 200: 5 * (RATE_LIMIT_MAX - 5) });
        // The budget is whole: the limit of failures is still checked, and only then refused.
        const failures = await Promise.all(
          Array.from({ length: AUTH_FAILURE_LIMIT + 5 }, () => health({ 'x-api-key': randomKey() }, '10.0.0.3')),
        );
        expect(tally(failures.map((r) => r.statusCode))).toEqual({ 401: AUTH_FAILURE_LIMIT, 429: 5 });
      });

      it('admits exactly the rate limit of 120 parallel requests with one key', async () => {
        const { key } = await t.tenant();
        const statuses = await Promise.all(Array.from({ length: 120 }, () => health({ 'x-api-key': key }, '10.0.0.4')));
        expect(tally(statuses.map((r) => r.statusCode))).toEqual({ 200: RATE_LIMIT_MAX, 429: 120 - RATE_LIMIT_MAX });
      });

      it('checks exactly ten of 40 parallel wrong passwords for one panel account and answers 429 to the rest', async () => {
        const { companyId } = await claimInstance(t.app);
        const email = `target-${randomText(8).toLowerCase()}@example.com`;
        await signedInAs(t.app, companyId, email, 'member');
        const attacker = new PanelClient(t.app);
        await attacker.get('/panel/sign-in');
        const statuses = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            attacker.post('/panel/sign-in', { email, password: `wrong guess ${i}` }),
          ),
        );
        expect(tally(statuses.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 30 });
        // The right password is refused too while the account is locked.
        expect((await new PanelClient(t.app).signIn(email, PASSWORD)).statusCode).toBe(429);
      });
    });
  }
}

describe.skipIf(!DIALECTS.includes('postgres') || !REDIS_AVAILABLE)(
  'atomic limits across two instances on PostgreSQL and Redis',
  () => {
    const redisPrefix = uniqueRedisPrefix('atomic-multi');
    let database: TestDatabase;
    let servers: ServerProcess[] = [];

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const env = {
        DATABASE_URL: database.url,
        REDIS_URL: TEST_REDIS_URL,
        REDIS_KEY_PREFIX: redisPrefix,
        AUTH_FAILURE_LIMIT: String(AUTH_FAILURE_LIMIT),
        RATE_LIMIT_MAX: '100000',
      };
      servers = await Promise.all([startServer(env), startServer(env)]);
      const company = await cliJson<{ id: string }>(['company', 'create', '--name', 'Two Instances'], env);
      await cliJson(
        [
          'user',
          'create',
          '--company',
          company.id,
          '--email',
          'locked@example.com',
          '--role',
          'member',
          '--password-stdin',
        ],
        env,
        { stdin: PASSWORD },
      );
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database?.drop();
      await deleteRedisKeys(redisPrefix);
    });

    it('checks exactly the failed-key limit of 300 parallel unknown keys spread over both instances', async () => {
      const statuses = await Promise.all(
        Array.from(
          { length: 300 },
          async (_, i) => (await fetch(servers[i % 2]!.baseUrl, { headers: { 'x-api-key': randomKey() } })).status,
        ),
      );
      expect(tally(statuses)).toEqual({ 401: AUTH_FAILURE_LIMIT, 429: 300 - AUTH_FAILURE_LIMIT });
    });

    it('checks exactly ten of 40 parallel wrong passwords for one account spread over both instances', async () => {
      const forms = await Promise.all(
        servers.map(async (server) => {
          const origin = new URL(server.baseUrl).origin;
          const page = await fetch(`${origin}/panel/sign-in`);
          const cookie = page.headers
            .getSetCookie()
            .map((c) => c.split(';')[0])
            .join('; ');
          const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
          return { origin, cookie, csrf };
        }),
      );
      const statuses = await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const form = forms[i % 2]!;
          const body = new URLSearchParams({
            _csrf: form.csrf,
            email: 'locked@example.com',
            password: `wrong guess ${i}`,
          });
          const res = await fetch(`${form.origin}/panel/sign-in`, {
            method: 'POST',
            headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' },
            body,
            redirect: 'manual',
          });
          return res.status;
        }),
      );
      expect(tally(statuses)).toEqual({ 401: 10, 429: 30 });
    });
  },
);
