import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../src/db/database.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { createTestDatabase, DIALECTS, TEST_POSTGRES_URL, type TestDatabase } from '../helpers/dialects.js';
import { REDIS_AVAILABLE, ThrowawayRedis } from '../helpers/redis.js';
import { cliJson, startServer, TcpProxy, type ServerProcess } from '../helpers/servers.js';
import { eventually } from '../helpers/eventually.js';

// What happens when things go wrong: processes killed or stopped mid-load, hostile bodies,
// Redis and PostgreSQL going away and coming back. Everything here runs against real processes,
// sockets and databases.

const INVOICE_LINES = [
  { name: 'Consulting', quantity: '7.5', unitPrice: '120', vatRate: '19' },
  { name: 'Travel', quantity: 1, unitPrice: '245.30', vatRate: '19' },
  { name: 'Books', quantity: 3, unitPrice: '19.99', vatRate: '7' },
];

async function bootstrap(databaseUrl: string, permissions = 'organization.create,invoice.create') {
  const company = await cliJson<{ id: string }>(['company', 'create', '--name', 'Fault GmbH'], {
    DATABASE_URL: databaseUrl,
  });
  const { key } = await cliJson<{ key: string }>(
    ['key', 'create', '--company', company.id, '--name', 'faults', '--permissions', permissions],
    {
      DATABASE_URL: databaseUrl,
    },
  );
  return { companyId: company.id, key };
}

function post(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': key },
    body: JSON.stringify(body),
  });
}

for (const dialect of DIALECTS) {
  describe(`a server killed with SIGKILL mid-burst on ${dialect}`, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    afterAll(async () => {
      for (const server of servers) server.child.kill('SIGKILL');
      await database?.drop();
    });

    it('keeps every invoice it answered 201 for, whole, and leaves no partial invoice and no gap', async () => {
      database = await createTestDatabase(dialect);
      const env = { DATABASE_URL: database.url, RATE_LIMIT_MAX: '100000' };
      const first = await startServer(env);
      servers.push(first);
      const { key } = await bootstrap(database.url);
      const buyer = (await (
        await post(`${first.baseUrl}/organization`, key, { name: 'Buyer', isCustomer: true })
      ).json()) as { data: { id: string } };
      const body = { organizationId: buyer.data.id, issueDate: '2026-03-01', lines: INVOICE_LINES };

      const acknowledged: { id: string; number: string }[] = [];
      let stop = false;
      const worker = async () => {
        while (!stop) {
          try {
            const res = await post(`${first.baseUrl}/invoice`, key, body);
            if (res.status === 201)
              acknowledged.push(((await res.json()) as { data: { id: string; number: string } }).data);
          } catch {
            return; // the server is gone
          }
        }
      };
      const workers = Array.from({ length: 16 }, worker);
      await eventually(() => acknowledged.length >= 40, {
        timeoutMs: 60_000,
        intervalMs: 5,
        what: 'forty acknowledged invoices',
      });
      first.child.kill('SIGKILL');
      stop = true;
      await Promise.all(workers);

      const second = await startServer(env);
      servers.push(second);
      const storage = database.open();
      try {
        const invoices = await storage.db.selectFrom('invoices').select(['id', 'number']).execute();
        const lineCounts = await storage.db
          .selectFrom('invoice_lines')
          .select(['invoice_id', (eb) => eb.fn.countAll().as('n')])
          .groupBy('invoice_id')
          .execute();
        const linesOf = new Map(lineCounts.map((r) => [r.invoice_id, Number(r.n)]));
        const stored = new Set(invoices.map((i) => i.id));
        for (const invoice of acknowledged)
          expect(stored.has(invoice.id), `acknowledged ${invoice.number} is missing`).toBe(true);
        for (const invoice of invoices)
          expect(linesOf.get(invoice.id), `invoice ${invoice.number} is partial`).toBe(INVOICE_LINES.length);
        const numbers = invoices.map((i) => Number(i.number!.split('-')[1])).sort((a, b) => a - b);
        expect(numbers).toEqual(numbers.map((_, i) => i + 1));

        // And the restarted server goes on from the next number.
        const next = await post(`${second.baseUrl}/invoice`, key, body);
        expect(next.status).toBe(201);
        expect(((await next.json()) as { data: { number: string } }).data.number).toBe(
          `2026-${String(numbers.length + 1).padStart(5, '0')}`,
        );
      } finally {
        await storage.close();
      }
    });
  });
}

describe('a server stopped with SIGTERM under load', () => {
  let database: TestDatabase;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await database?.drop();
  });

  it('finishes in-flight requests, refuses new connections and exits 0 before its shutdown deadline', async () => {
    database = await createTestDatabase('sqlite');
    server = await startServer({ DATABASE_URL: database.url, RATE_LIMIT_MAX: '100000' });
    const { key } = await bootstrap(database.url, 'organization.create');
    const url = new URL(`${server.baseUrl}/organization`);

    // Requests whose bodies are still arriving when the signal comes.
    const inFlight = Array.from({ length: 5 }, (_, i) => {
      const body = JSON.stringify({ name: `In flight ${i}`, isCustomer: true });
      return new Promise<{ request: ReturnType<typeof httpRequest>; response: Promise<number> }>((ready) => {
        // Expect: 100-continue makes the server say when it has taken the request (Node answers
        // 100 Continue as it hands the request to the app): from then on it is in flight.
        const request = httpRequest(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-api-key': key,
            expect: '100-continue',
          },
        });
        const response = new Promise<number>((done, fail) => {
          request.on('response', (res) => {
            res.resume();
            res.on('end', () => done(res.statusCode ?? 0));
          });
          request.on('error', fail);
        });
        request.once('continue', () => {
          request.write(body.slice(0, 10));
          ready({ request, response });
        });
        request.flushHeaders();
      });
    });
    const pending = await Promise.all(inFlight);
    const exited = new Promise<number | null>((done) => server!.child.once('exit', (code) => done(code)));
    server.child.kill('SIGTERM');

    // The listener closes on the signal: ask until a new connection is refused.
    const refused = await eventually(
      async () => {
        const answer = await fetch(`${server!.baseUrl}`, { headers: { connection: 'close' } }).then(
          () => 'answered',
          () => 'refused',
        );
        return answer === 'refused' && answer;
      },
      { intervalMs: 50, what: 'the listener to close' },
    ).catch(() => 'answered');
    expect(refused).toBe('refused');

    pending.forEach(({ request }, i) =>
      request.end(JSON.stringify({ name: `In flight ${i}`, isCustomer: true }).slice(10)),
    );
    const statuses = await Promise.all(pending.map((p) => p.response));
    expect(statuses).toEqual([201, 201, 201, 201, 201]);

    // Exit 0 is the graceful path: past its 10-second shutdown deadline the server says so and exits 1.
    const code = await exited;
    expect(code).toBe(0);
    expect(server.output.filter((line) => line.includes('shutdown deadline passed'))).toEqual([]);
    expect(server.output.some((line) => line.includes('shutting down: finishing in-flight requests'))).toBe(true);

    const storage = database.open();
    const names = (await storage.db.selectFrom('organizations').select('name').execute()).map((r) => r.name).sort();
    await storage.close();
    expect(names).toEqual(['In flight 0', 'In flight 1', 'In flight 2', 'In flight 3', 'In flight 4']);
  });
});

describe('hostile bodies', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('answers a 10,000-deep JSON body with 400, never 500', async () => {
    t = await buildTestApp('sqlite');
    const { key } = await t.tenant();
    const deepArray = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepObject = `{"name":"Deep","isCustomer":true,"address":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`;
    for (const [path, payload] of [
      ['/organization', deepArray],
      ['/organization', deepObject],
      ['/invoice', deepObject],
    ] as const) {
      const res = await t.request({
        method: 'POST',
        url: `/api/v1.0.0/public${path}`,
        payload,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      });
      expect(res.statusCode, `${path} ${payload.slice(0, 20)}`).toBe(400);
      expect(res.json().success).toBe(false);
    }
  });

  it('lets neither __proto__ nor constructor keys set anything', async () => {
    t = await buildTestApp('sqlite');
    const { key } = await t.tenant();
    const payloads = [
      '{"name":"P1","isCustomer":true,"__proto__":{"polluted":true}}',
      '{"name":"P2","isCustomer":true,"constructor":{"prototype":{"polluted":true}}}',
      '{"name":"P3","isCustomer":true,"address":{"__proto__":{"polluted":true}}}',
    ];
    for (const payload of payloads) {
      const res = await t.request({
        method: 'POST',
        url: '/api/v1.0.0/public/organization',
        payload,
        headers: { 'content-type': 'application/json', 'x-api-key': key },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().success).toBe(false);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await t.storage.db.selectFrom('organizations').selectAll().execute()).toEqual([]);
  });
});

describe.runIf(REDIS_AVAILABLE)('Redis stopped and started again under load', () => {
  it('answers no 5xx while Redis is away and resumes shared counting when it returns', async () => {
    const redis = await ThrowawayRedis.start();
    const t = await buildTestApp('sqlite', { redisUrl: redis.url, redisKeyPrefix: 'faults:', rateLimitMax: 100_000 });
    let stop = false;
    try {
      const { key } = await t.tenant(['organization.create']);
      const statuses: number[] = [];
      let n = 0;
      const load = async () => {
        while (!stop)
          statuses.push((await t.post('/organization', { name: `Load ${n++}`, isCustomer: true }, key)).statusCode);
      };
      const loaders = Array.from({ length: 4 }, load);
      const degraded = async () =>
        /^rate_limit_store_degraded 1$/m.test((await t.request({ method: 'GET', url: '/metrics' })).body);
      /** Until `more` further requests are answered after now, and `also` holds. */
      const answeredMore = (more: number, what: string, also: () => Promise<boolean> = async () => true) => {
        const from = statuses.length;
        return eventually(async () => statuses.length >= from + more && (await also()), { timeoutMs: 30_000, what });
      };
      await answeredMore(20, 'the load to run with Redis up');
      await redis.stop();
      // Counting falls back to this process, and the load goes on through it.
      await answeredMore(40, 'the load to go on with Redis away', degraded);
      await redis.start();
      await answeredMore(40, 'the load to go on with Redis back, counted there again', async () => !(await degraded()));
      stop = true;
      await Promise.all(loaders);
      expect(statuses.length).toBeGreaterThan(20);
      expect(statuses.filter((s) => s !== 201)).toEqual([]);

      // Counting is shared again: the restarted Redis holds this key's window.
      const { Redis } = await import('ioredis');
      const client = new Redis(redis.url);
      const keys = await client.keys('faults:*');
      client.disconnect();
      expect(keys.length).toBeGreaterThan(0);
      const metrics = await t.request({ method: 'GET', url: '/metrics' });
      expect(metrics.body).toMatch(/rate_limit_store_degraded 0/);
    } finally {
      stop = true;
      await t.close();
      await redis.stop();
    }
  });
});

describe.runIf(DIALECTS.includes('postgres'))('PostgreSQL going away under load', () => {
  it('answers 503 while it is down and serves fully again when it returns, without a restart', async () => {
    const target = new URL(TEST_POSTGRES_URL);
    const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    const database = await createTestDatabase('postgres');
    const proxiedUrl = database.url.replace(`${target.hostname}:${target.port || 5432}`, `127.0.0.1:${proxy.port}`);
    const storage = openStorage(proxiedUrl, { poolMax: 4 });
    const { buildApp } = await import('../../src/app.js');
    const { loadConfig } = await import('../../src/config.js');
    const app = await buildApp({
      config: {
        ...loadConfig({}),
        dataEncryptionKeys: [randomBytes(32)],
        databaseUrl: proxiedUrl,
        logLevel: 'silent',
        rateLimitMax: 100_000,
      },
      storage,
    });
    try {
      const company = await app.container.companies.create({ name: 'Outage GmbH' });
      if (!company.ok) throw new Error(company.problems[0]!.message);
      const created = await app.container.apiKeys.create({
        companyId: company.value.id,
        name: 'k',
        permissions: ['organization.create'],
      });
      if (!created.ok) throw new Error(created.detail);
      const key = created.value.key;
      let n = 0;
      const create = () =>
        app.inject({
          method: 'POST',
          url: '/api/v1.0.0/public/organization',
          headers: { 'x-api-key': key },
          payload: { name: `Outage ${n++}`, isCustomer: true },
        });

      expect((await create()).statusCode).toBe(201);
      await proxy.cut();
      // Each is answered while the database is still away (it returns only after the last): a
      // request queued behind the dead database would not be answered at all.
      const during: number[] = [];
      for (let i = 0; i < 10; i++) {
        const res = await create();
        during.push(res.statusCode);
        if (res.statusCode === 503) expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
      }
      expect(during.every((s) => s === 503)).toBe(true);
      expect((await app.inject({ method: 'GET', url: '/api/v1.0.0/public' })).statusCode).toBe(503);

      await proxy.restore();
      let status = 0;
      await eventually(async () => (status = (await create()).statusCode) === 201, {
        intervalMs: 200,
        what: 'a create to succeed again',
      }).catch(() => {});
      expect(status).toBe(201);
      expect((await app.inject({ method: 'GET', url: '/api/v1.0.0/public' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await storage.close();
      await proxy.close();
      await database.drop();
    }
  });
});
