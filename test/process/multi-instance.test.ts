import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import {
  deleteRedisKeys,
  REDIS_AVAILABLE,
  REDIS_SERVER_INSTALLED,
  sharedStoresEnv,
  ThrowawayRedis,
  uniqueRedisPrefix,
} from '../helpers/redis.js';
import { cliJson, startServer, type ServerProcess } from '../helpers/servers.js';
import { atOnce, eventually } from '../helpers/eventually.js';

// Two server processes (the built dist/server.js) on loopback ports, one PostgreSQL schema, one
// Redis: every promise of the API must hold across instances as it does in one process.

const RATE_LIMIT_MAX = 100;

interface Response {
  status: number;
  body: { success: boolean; data?: Record<string, unknown>; error?: { code: string } };
}

async function call(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  key?: string,
  body?: unknown,
): Promise<Response> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      ...(key ? { 'x-api-key': key } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Response['body'] };
}

const counts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(!DIALECTS.includes('postgres') || !REDIS_AVAILABLE)(
  'two instances on one PostgreSQL and one Redis',
  () => {
    const redisPrefix = uniqueRedisPrefix('multi');
    let database: TestDatabase;
    let servers: ServerProcess[] = [];
    let env: Record<string, string>;
    let companyId: string;

    const instance = (i: number) => servers[i % servers.length]!.baseUrl;
    const createKey = async (permissions: string) =>
      cliJson<{ id: string; key: string }>(
        ['key', 'create', '--company', companyId, '--name', 'multi', '--permissions', permissions],
        env,
      );

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      env = sharedStoresEnv(database.url, redisPrefix, RATE_LIMIT_MAX);
      // Both start together on a fresh schema: the migration lock lets exactly one migrate.
      servers = await Promise.all([startServer(env), startServer(env)]);
      ({ id: companyId } = await cliJson<{ id: string }>(['company', 'create', '--name', 'Multi Instance GmbH'], env));
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await database?.drop();
      await deleteRedisKeys(redisPrefix);
    });

    it('gives exactly one 201 for 30 concurrent creates of one name spread over both instances', async () => {
      const { key } = await createKey('organization.create');
      const responses = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          call(instance(i), 'POST', '/organization', key, {
            name: i % 2 ? 'Race Corp' : ' RACE corp ',
            isCustomer: true,
          }),
        ),
      );
      expect(counts(responses.map((r) => r.status))).toEqual({ 201: 1, 409: 29 });
      expect(responses.filter((r) => r.status === 409).every((r) => r.body.error?.code === 'NAME_CONFLICT')).toBe(true);
    });

    it('gives 60 concurrent invoice creates spread over both instances 60 consecutive numbers', async () => {
      const { key } = await createKey('organization.create,invoice.create');
      const buyer = await call(instance(0), 'POST', '/organization', key, {
        name: 'Invoice Buyer AG',
        isCustomer: true,
      });
      expect(buyer.status).toBe(201);
      const organizationId = buyer.body.data!.id as string;
      const responses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          call(instance(i), 'POST', '/invoice', key, {
            organizationId,
            lines: [{ name: `Consulting ${i}`, quantity: '1', unitPrice: '100.00', vatRate: '19' }],
          }),
        ),
      );
      expect(counts(responses.map((r) => r.status))).toEqual({ 201: 60 });
      const numbers = responses.map((r) => r.body.data!.number as string);
      const year = /^(\d{4})-/.exec(numbers[0]!)![1];
      const sequence = numbers.map((n) => Number(/^(\d{4})-(\d+)$/.exec(n)![2])).sort((a, b) => a - b);
      expect(numbers.every((n) => n.startsWith(`${year}-`))).toBe(true);
      expect(sequence).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    });

    it('admits exactly the rate limit in total across both instances', async () => {
      const { key } = await createKey('organization.create');
      const responses = await Promise.all(
        Array.from({ length: RATE_LIMIT_MAX + 30 }, (_, i) => call(instance(i), 'GET', '', key)),
      );
      expect(counts(responses.map((r) => r.status))).toEqual({ 200: RATE_LIMIT_MAX, 429: 30 });
      expect(responses.filter((r) => r.status === 429).every((r) => r.body.error?.code === 'RATE_LIMITED')).toBe(true);
    });

    it('refuses a key on every instance once its revocation elsewhere outlives the key cache, and never admits it again', async () => {
      const { id, key } = await createKey('organization.create');
      // Both instances have the key cached as valid.
      expect((await call(instance(0), 'GET', '', key)).status).toBe(200);
      expect((await call(instance(1), 'GET', '', key)).status).toBe(200);

      await cliJson(['key', 'revoke', id], env);
      for (const server of servers) {
        await eventually(
          async () => {
            const res = await call(server.baseUrl, 'GET', '', key);
            if (res.status === 401) {
              atOnce(() => expect(res.body.error?.code).toBe('INVALID_API_KEY'));
              return true;
            }
            atOnce(() => expect(res.status).toBe(200));
            return false;
          },
          { timeoutMs: 30_000, intervalMs: 100, what: `${server.baseUrl} to refuse the revoked key` },
        );
      }
      // Refused for good on both, not by one instance's chance.
      for (let i = 0; i < 10; i++) expect((await call(instance(i), 'GET', '', key)).status).toBe(401);
      // How soon is bounded by the key cache, which no setting makes longer than 5 seconds.
      expect(loadConfig({}).apiKeyCacheTtlMs).toBeLessThanOrEqual(5000);
      expect(() => loadConfig({ API_KEY_CACHE_TTL_MS: '5001' })).toThrow(ConfigError);
    });
  },
);

describe.skipIf(!DIALECTS.includes('postgres') || !REDIS_SERVER_INSTALLED)(
  'two instances whose Redis stops mid-test',
  () => {
    let database: TestDatabase;
    let redis: ThrowawayRedis;
    let servers: ServerProcess[] = [];
    let key: string;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      redis = await ThrowawayRedis.start();
      const env = { DATABASE_URL: database.url, REDIS_URL: redis.url, RATE_LIMIT_MAX: '1000' };
      servers = await Promise.all([startServer(env), startServer(env)]);
      const { id: companyId } = await cliJson<{ id: string }>(['company', 'create', '--name', 'Redisless GmbH'], env);
      ({ key } = await cliJson<{ key: string }>(
        ['key', 'create', '--company', companyId, '--name', 'redisless', '--permissions', 'organization.create'],
        env,
      ));
    });
    afterAll(async () => {
      await Promise.all(servers.map((s) => s.stop()));
      await redis?.stop();
      await database?.drop();
    });

    it('keeps both instances serving without a 5xx, each logging one warning', async () => {
      const before = await Promise.all(servers.map((s) => call(s.baseUrl, 'GET', '', key)));
      expect(before.map((r) => r.status)).toEqual([200, 200]);

      await redis.stop();
      const during = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          i % 4 === 0
            ? call(servers[i % 2]!.baseUrl, 'GET', '', key)
            : call(servers[i % 2]!.baseUrl, 'POST', '/organization', key, {
                name: `Without Redis ${i}`,
                isCustomer: true,
              }),
        ),
      );
      expect(counts(during.map((r) => r.status))).toEqual({ 200: 10, 201: 30 });

      for (const server of servers) {
        const warnings = server.output.filter((line) => line.includes('shared rate-limit store unavailable'));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toContain('"level":40');
      }
    });
  },
);
