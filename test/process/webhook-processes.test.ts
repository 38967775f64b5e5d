import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { cliJson, startServer, type ServerProcess } from '../helpers/servers.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { eventually } from '../helpers/eventually.js';

// Deliveries across real server processes (the built dist/server.js): one killed with SIGKILL in
// the middle of a burst and started again, and two instances sharing one database.

interface Created {
  status: number;
  id?: string;
}

async function post(
  baseUrl: string,
  key: string,
  path: string,
  body: unknown,
): Promise<{ status: number; data?: { id: string; secret?: string } }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data?: { id: string } };
  return { status: res.status, ...(json.data ? { data: json.data } : {}) };
}

function deliveredObjectIds(receiver: Receiver): Set<string> {
  return new Set(
    receiver.received.map((r) => (JSON.parse(r.body) as { data: { object: { id: string } } }).data.object.id),
  );
}

for (const dialect of DIALECTS) {
  describe(`webhook delivery across processes on ${dialect}`, () => {
    let database: TestDatabase | undefined;
    const servers: ServerProcess[] = [];
    const receivers: Receiver[] = [];

    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      await Promise.all(receivers.splice(0).map((r) => r.close()));
      await database?.drop();
      database = undefined;
    });

    async function setUp() {
      database = await createTestDatabase(dialect);
      const env = {
        DATABASE_URL: database.url,
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_RETRY_SCHEDULE_MS: '100,100,100,100',
        RATE_LIMIT_MAX: '100000',
      };
      const { id: companyId } = await cliJson<{ id: string }>(
        ['company', 'create', '--name', 'Webhook Processes GmbH'],
        env,
      );
      const { key } = await cliJson<{ key: string }>(
        [
          'key',
          'create',
          '--company',
          companyId,
          '--name',
          'hooks',
          '--permissions',
          'organization.create,webhook.manage',
        ],
        env,
      );
      return { env, key };
    }

    it('delivers the event of every resource created before a SIGKILL, after the restart, at least once', async () => {
      const { env, key } = await setUp();
      const receiver = await startReceiver({ answer: () => ({ status: 200, delayMs: 30 }) });
      receivers.push(receiver);
      const first = await startServer(env, { quiet: true });
      servers.push(first);
      expect(
        (await post(first.baseUrl, key, '/webhook-endpoint', { url: receiver.url, events: ['organization.created'] }))
          .status,
      ).toBe(201);

      // A burst of creates, 10 at a time; the server is killed while it is in full swing.
      const created: Created[] = [];
      let killed = false;
      const burst = Array.from({ length: 10 }, async (_, worker) => {
        for (let i = 0; !killed && i < 40; i++) {
          const answer = await post(first.baseUrl, key, '/organization', {
            name: `Burst ${worker}-${i}`,
            isCustomer: true,
          }).catch(() => ({ status: 0 }) as Created);
          created.push({ status: answer.status, ...('data' in answer && answer.data ? { id: answer.data.id } : {}) });
          if (created.length === 150 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        }
      });
      await Promise.all(burst);
      if (first.child.exitCode === null && first.child.signalCode === null) await once(first.child, 'exit');
      const answered = created.filter((c) => c.status === 201).map((c) => c.id!);
      expect(answered.length).toBeGreaterThanOrEqual(150);
      const beforeRestart = deliveredObjectIds(receiver);

      const second = await startServer(env, { quiet: true });
      servers.push(second);
      // Leases held by the killed process run out (30 s) and are taken up again.
      await receiver.waitFor(() => answered.every((id) => deliveredObjectIds(receiver).has(id)), 60_000);
      expect(answered.filter((id) => !deliveredObjectIds(receiver).has(id))).toEqual([]);
      // Some were delivered before the kill, the rest after the restart.
      expect(beforeRestart.size).toBeLessThan(answered.length);
    }, 120_000);

    it('makes each attempt from one instance only when two instances share the database', async () => {
      const { env, key } = await setUp();
      const receiver = await startReceiver({ answer: () => ({ status: 200, delayMs: 150 }) });
      receivers.push(receiver);
      servers.push(...(await Promise.all([startServer(env, { quiet: true }), startServer(env, { quiet: true })])));
      expect(
        (await post(servers[0]!.baseUrl, key, '/webhook-endpoint', { url: receiver.url, events: ['*'] })).status,
      ).toBe(201);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          post(servers[i % 2]!.baseUrl, key, '/organization', { name: `Shared ${i}`, isCustomer: true }),
        ),
      );
      expect(answers.every((a) => a.status === 201)).toBe(true);

      await receiver.waitFor((got) => new Set(got.map((r) => r.headers['webhook-id'])).size === 40, 30_000);
      const storage = database!.open();
      try {
        // Every delivery settled and none leased: no instance has an attempt left to make, so
        // a second attempt of any of them, were there one, has shown by now.
        await eventually(
          async () => {
            const open = await storage.db
              .selectFrom('webhook_deliveries')
              .select('id')
              .where((w) => w.or([w('status', '!=', 'succeeded'), w('lease_owner', 'is not', null)]))
              .execute();
            return open.length === 0;
          },
          { timeoutMs: 30_000, intervalMs: 50, what: 'every delivery to have succeeded with no lease held' },
        );
        expect(receiver.maxOpenPerId).toBe(1);
        expect(receiver.received).toHaveLength(40);
        const attempts = await storage.db.selectFrom('webhook_attempts').select(['delivery_id', 'succeeded']).execute();
        expect(attempts).toHaveLength(40);
        expect(new Set(attempts.map((a) => a.delivery_id)).size).toBe(40);
        expect(attempts.every((a) => a.succeeded === 1)).toBe(true);
      } finally {
        await storage.close();
      }
    }, 90_000);
  });
}
