import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { openStorage, type Storage } from '../src/db/database.js';
import { BASE_PATH } from '../src/http/api-version.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from './helpers/dialects.js';
import { freePort } from './helpers/redis.js';
import { runServerToExit, startServer, TcpProxy, type ServerProcess } from './helpers/servers.js';

// PostgreSQL goes away for real: the app reaches it through a TCP proxy that the test cuts and
// restores. The machine's PostgreSQL itself is never stopped.

const FAIL_FAST_MS = 5000;

function throughProxy(url: string, port: number): string {
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return proxied.toString();
}

function targetOf(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname, port: Number(parsed.port || 5432) };
}

describe.skipIf(!DIALECTS.includes('postgres'))('the API while PostgreSQL is down or restarting', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let storage: Storage;
  let direct: Storage;
  let app: FastifyInstance;
  let key: string;
  let companyId: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    proxy = await TcpProxy.start(targetOf(database.url));
    storage = openStorage(throughProxy(database.url, proxy.port), { poolMax: 5 });
    direct = database.open({ poolMax: 2 });
    app = await buildApp({ config: { ...loadConfig({}), databaseUrl: database.url, logLevel: 'silent' }, storage });
    await app.ready();
    const company = await app.container.companies.create({ name: 'Outage GmbH', currency: 'EUR' });
    if (!company.ok) throw new Error(company.detail);
    companyId = company.value.id;
    const created = await app.container.apiKeys.create({ companyId, name: 'outage', permissions: ['organization.create'], expiresAt: null });
    if (!created.ok) throw new Error(created.detail);
    key = created.value.key;
  });
  afterEach(async () => proxy.restore());
  afterAll(async () => {
    await app.close();
    await storage.close();
    await direct.close();
    await proxy.close();
    await database.drop();
  });

  const createOrganization = (name: string) =>
    app.inject({ method: 'POST', url: `${BASE_PATH}/organization`, headers: { 'x-api-key': key }, payload: { name, isCustomer: true } });
  const health = () => app.inject({ method: 'GET', url: BASE_PATH });
  const stored = async (name: string) =>
    (await direct.db.selectFrom('organizations').select('id').where('company_id', '=', companyId).where('name', '=', name).execute()).length;

  async function eventually(name: string): Promise<number> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await createOrganization(name);
      if (res.statusCode === 201 || Date.now() > deadline) return res.statusCode;
      expect(res.statusCode).toBe(503);
      await new Promise((done) => setTimeout(done, 100));
    }
  }

  function expectUnavailable(res: Awaited<ReturnType<typeof health>>): void {
    expect(res.statusCode).toBe(503);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.meta.requestId).toBe(res.headers['x-request-id']);
    expect(res.body).not.toMatch(/ECONNREFUSED|Connection terminated|timeout exceeded|127\.0\.0\.1|postgres/i);
  }

  it('answers 503 SERVICE_UNAVAILABLE quickly while the database refuses connections, and recovers without a restart', async () => {
    expect((await createOrganization('Before the outage')).statusCode).toBe(201);
    expect((await health()).statusCode).toBe(200);

    await proxy.cut();
    const started = Date.now();
    const during = await createOrganization('During the outage');
    expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
    expectUnavailable(during);
    expectUnavailable(await health());

    await proxy.restore();
    expect(await eventually('After the outage')).toBe(201);
    expect((await health()).statusCode).toBe(200);
    expect(await stored('Before the outage')).toBe(1);
    expect(await stored('During the outage')).toBe(0);
    expect(await stored('After the outage')).toBe(1);
  });

  it('answers 503 within a few seconds while the database accepts connections but never answers', async () => {
    await proxy.blackhole();
    const started = Date.now();
    const [create, check] = await Promise.all([createOrganization('Into the void'), health()]);
    expect(Date.now() - started).toBeLessThan(FAIL_FAST_MS);
    expectUnavailable(create);
    expectUnavailable(check);

    await proxy.restore();
    expect(await eventually('Out of the void')).toBe(201);
    expect(await stored('Into the void')).toBe(0);
  });

  it('leaves every create cut off mid-flight either committed and answered 201 or absent', async () => {
    const names = Array.from({ length: 40 }, (_, i) => `Mid-flight ${i}`);
    const responses = Promise.all(names.map((name) => createOrganization(name)));
    await new Promise((done) => setTimeout(done, 5));
    await proxy.cut();
    const settled = await responses;
    await proxy.restore();

    for (const [i, res] of settled.entries()) {
      expect([201, 503]).toContain(res.statusCode);
      expect(await stored(names[i]!)).toBe(res.statusCode === 201 ? 1 : 0);
    }
  });
});

describe.skipIf(!DIALECTS.includes('postgres'))('the server started while PostgreSQL is unreachable', () => {
  const databases: TestDatabase[] = [];
  const processes: ServerProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all(databases.map((d) => d.drop()));
  });

  it('waits for the database, then exits non-zero with a clear message when it never comes', async () => {
    const database = await createTestDatabase('postgres');
    databases.push(database);
    const closedPort = await freePort();
    const { code, output } = await runServerToExit({
      DATABASE_URL: throughProxy(database.url, closedPort),
      DATABASE_STARTUP_WAIT_MS: '1500',
    });
    expect(code).toBe(1);
    expect(output).toContain('database unreachable at start; waiting for it');
    expect(output).toMatch(/Failed to start: the database could not be reached within 2 s \(DATABASE_STARTUP_WAIT_MS\)/);
  });

  it('starts and serves once the database comes up within the wait', async () => {
    const database = await createTestDatabase('postgres');
    databases.push(database);
    const proxy = await TcpProxy.start(targetOf(database.url));
    try {
      await proxy.cut();
      let waited = false;
      const server = await startServer(
        { DATABASE_URL: throughProxy(database.url, proxy.port), DATABASE_STARTUP_WAIT_MS: '20000' },
        {
          // The database comes up once the server has found it missing and started waiting.
          onLine: (line) => {
            if (!waited && line.includes('database unreachable at start; waiting for it')) {
              waited = true;
              void proxy.restore();
            }
          },
        },
      );
      processes.push(server);
      expect(waited).toBe(true);
      const res = await fetch(server.baseUrl);
      expect(res.status).toBe(200);
    } finally {
      await proxy.close();
    }
  });
});

describe('DATABASE_STARTUP_WAIT_MS', () => {
  it('defaults to 30 s, accepts 0 (try once) and refuses a non-number', () => {
    expect(loadConfig({}).databaseStartupWaitMs).toBe(30_000);
    expect(loadConfig({ DATABASE_STARTUP_WAIT_MS: '0' }).databaseStartupWaitMs).toBe(0);
    expect(() => loadConfig({ DATABASE_STARTUP_WAIT_MS: 'soon' })).toThrow(ConfigError);
  });
});
