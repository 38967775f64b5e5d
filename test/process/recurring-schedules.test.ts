import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { localDate } from '../../src/recurring/schedule.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { eventually, GiveUp } from '../helpers/eventually.js';
import { cliJson, spawnCli, startServer, type ServerProcess } from '../helpers/servers.js';

// Recurring invoices across processes: two scheduler passes for the same instant make one invoice
// per period; a pass killed with SIGKILL in the middle and run again leaves no period without
// its invoice and none with two; and a server's in-service scheduler runs what is due.

type Data = Record<string, unknown> & { id: string };

async function call(baseUrl: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as { data: Data } };
}

/** Every invoice of the key's company, through the list's cursor. */
async function allInvoices(baseUrl: string, key: string): Promise<Data[]> {
  const invoices: Data[] = [];
  let cursor: string | null = null;
  do {
    const page = (await call(baseUrl, key, 'GET', `/invoice?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json
      .data as unknown as { items: Data[]; nextCursor: string | null };
    invoices.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return invoices;
}

function exited(child: ReturnType<typeof spawnCli>): Promise<unknown> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit');
}

const TEMPLATES = 12;
/** 31 January to 30 June 2027: six monthly periods due. */
const AS_OF = '2027-06-30T12:00:00Z';
const PERIODS = ['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30'];

for (const dialect of DIALECTS) {
  describe(`recurring invoices across processes on ${dialect}`, () => {
    let database: TestDatabase | undefined;
    const servers: ServerProcess[] = [];

    afterEach(async () => {
      await Promise.all(servers.splice(0).map((s) => s.stop()));
      await database?.drop();
      database = undefined;
    });

    /** A server with the in-service scheduler off (or on), a key, a buyer and `count` templates. */
    async function setUp(count: number, schedulerSeconds = '0', anchorDate = '2027-01-31') {
      database = await createTestDatabase(dialect);
      const env = { DATABASE_URL: database.url, RECURRING_INTERVAL_SECONDS: schedulerSeconds };
      const { id: companyId } = await cliJson<{ id: string }>(
        ['company', 'create', '--name', 'Subscriptions GmbH'],
        env,
      );
      const { key } = await cliJson<{ key: string }>(
        [
          'key',
          'create',
          '--company',
          companyId,
          '--name',
          'recurring',
          '--permissions',
          'organization.create,invoice.read,recurring-invoice.manage',
        ],
        env,
      );
      const server = await startServer(env, { quiet: true });
      servers.push(server);
      const buyer = await call(server.baseUrl, key, 'POST', '/organization', {
        name: 'Subscriber AG',
        isCustomer: true,
      });
      const ids: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const made = await call(server.baseUrl, key, 'POST', '/recurring-invoice', {
          template: {
            organizationId: buyer.json.data.id,
            lines: [{ name: `Plan ${i}`, quantity: '1', unitPrice: '10', vatRate: '19' }],
          },
          schedule: { interval: 'month', anchorDate, timeZone: 'Europe/Berlin' },
        });
        expect(made.status).toBe(201);
        ids.push(made.json.data.id);
      }
      return { env, key, server, ids };
    }

    /** Every template has one made run per period, each with its own invoice, and the numbers have no gap. */
    async function expectOneInvoicePerPeriod(baseUrl: string, key: string, ids: string[]) {
      const invoiceIds = new Set<string>();
      for (const id of ids) {
        const runs = (await call(baseUrl, key, 'GET', `/recurring-invoice/${id}`)).json.data.runs as {
          period: { start: string };
          status: string;
          invoiceId: string;
        }[];
        expect(runs.map((run) => run.period.start).sort()).toEqual(PERIODS);
        expect(runs.every((run) => run.status === 'made')).toBe(true);
        for (const run of runs) invoiceIds.add(run.invoiceId);
      }
      const invoices = await allInvoices(baseUrl, key);
      expect(invoices).toHaveLength(ids.length * PERIODS.length);
      expect(new Set(invoices.map((i) => i.id))).toEqual(invoiceIds);
      const numbers = invoices.map((i) => i.number as string).sort();
      expect(numbers).toEqual(
        Array.from({ length: invoices.length }, (_, n) => `2027-${String(n + 1).padStart(5, '0')}`),
      );
    }

    it('makes one invoice per period when two processes run the scheduler for the same instant', async () => {
      const { env, key, server, ids } = await setUp(TEMPLATES);
      const passes = [0, 1].map(() => spawnCli(['schedules', 'run', '--as-of', AS_OF, '--json'], env));
      await Promise.all(passes.map(exited));
      for (const pass of passes) expect(pass.exitCode, pass.stdoutText()).toBe(0);
      const made = passes.map((pass) => (JSON.parse(pass.stdoutText()) as { made: number }).made);
      expect(made[0]! + made[1]!).toBe(TEMPLATES * PERIODS.length);
      await expectOneInvoicePerPeriod(server.baseUrl, key, ids);
    }, 120_000);

    it('leaves no gap and no duplicate when a pass is killed with SIGKILL and run again', async () => {
      const { env, key, server, ids } = await setUp(TEMPLATES * 4);
      const killed = spawnCli(['schedules', 'run', '--as-of', AS_OF, '--json'], env);
      // Killed once it has made some invoices, while it is still making more.
      await eventually(
        async () => {
          if (killed.exitCode !== null) throw new GiveUp(`the pass ended before it was killed: ${killed.stdoutText()}`);
          const page = (await call(server.baseUrl, key, 'GET', '/invoice?limit=5')).json.data as unknown as {
            items: unknown[];
          };
          return page.items.length >= 1;
        },
        { timeoutMs: 60_000, intervalMs: 20, what: 'the pass to make its first invoices' },
      );
      killed.kill('SIGKILL');
      await exited(killed);
      expect(killed.signalCode).toBe('SIGKILL');
      const partial = (await allInvoices(server.baseUrl, key)).length;
      expect(partial).toBeLessThan(ids.length * PERIODS.length);
      const again = await cliJson<{ made: number }>(['schedules', 'run', '--as-of', AS_OF], env);
      expect(again.made).toBe(ids.length * PERIODS.length - partial);
      await expectOneInvoicePerPeriod(server.baseUrl, key, ids);
    }, 120_000);

    it("runs what is due in the server's own scheduler", async () => {
      // Anchored on today's date in the template's time zone: its first run is today, due now.
      // (Today's UTC date would be yesterday in Berlin from 23:00 UTC, and its first run a month off.)
      const today = localDate(new Date(), 'Europe/Berlin');
      const { key, server, ids } = await setUp(1, '1', today);
      const runs = await eventually(
        async () => {
          const found = (await call(server.baseUrl, key, 'GET', `/recurring-invoice/${ids[0]}`)).json.data.runs as {
            invoiceId: string;
          }[];
          return found.length === 1 ? found : false;
        },
        { timeoutMs: 30_000, intervalMs: 100, what: 'the in-service scheduler to run the template' },
      );
      expect((await call(server.baseUrl, key, 'GET', `/invoice/${runs[0]!.invoiceId}`)).status).toBe(200);
    }, 120_000);
  });
}
