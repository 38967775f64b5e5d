import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { atOnce, eventually, GiveUp } from '../helpers/eventually.js';
import { cliJson, startServer, type ServerProcess } from '../helpers/servers.js';

// Gapless numbering makes one company's finalizes take turns on its counter row's lock. This
// file proves, with two server processes on one PostgreSQL schema, that this lock is the only
// thing companies wait for each other on: while the test itself holds company A's counter rows
// locked, A's finalizes wait inside their transactions (holding whatever they took before the
// counter) and company B's finalizes, creates, payments and credit notes go through both
// processes. Any lock, queue or connection the two companies shared would hold B up as well.
// The one clock involved is the server's: a statement gives up after 10 s (statement_timeout),
// so A's finalizes answer early if B's seven requests are held up that long, and the test then
// fails naming what B was still waiting for.

interface Response {
  status: number;
  body: { success: boolean; data?: Record<string, unknown>; error?: { code: string } };
}

async function call(baseUrl: string, path: string, key: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Response['body'] };
}

/** Requests in flight whose answers can be looked at without waiting for them. */
interface InFlight<T> {
  /** Set once they answered (or failed, which `done` then throws). */
  answered: boolean;
  value: T | null;
  done: Promise<T>;
}

function inFlight<T>(requests: Promise<T>): InFlight<T> {
  const tracked: InFlight<T> = { answered: false, value: null, done: requests };
  void requests.then(
    (value) => Object.assign(tracked, { answered: true, value }),
    () => Object.assign(tracked, { answered: true }),
  );
  return tracked;
}

/** The sequence part of an invoice number (2026-00007 → 7), checking that it is one of `year`'s. */
function sequenceOf(number: unknown, year: string, prefix = ''): number {
  const match = new RegExp(`^${prefix}${year}-(\\d+)$`).exec(String(number));
  if (!match) throw new Error(`${String(number)} is not a number ${prefix}${year}-NNNNN`);
  return Number(match[1]);
}

const LINE = { name: 'Consulting', quantity: '1', unitPrice: '100.00', vatRate: '19' };
const PERMISSIONS = 'organization.create,invoice.create,invoice.update,payment.create,credit-note.create';

interface Company {
  id: string;
  key: string;
  organizationId: string;
}

describe.skipIf(!DIALECTS.includes('postgres'))("two server processes with one company's counter row locked", () => {
  let database: TestDatabase;
  let servers: ServerProcess[] = [];
  let env: Record<string, string>;
  /** Holds company A's counter rows locked, as a finalize in another transaction would. */
  let locker: pg.Client;
  /** Looks at pg_stat_activity from outside the locker's transaction (whose view would stand still). */
  let observer: pg.Client;
  let a: Company;
  let b: Company;

  const process1 = () => servers[0]!.baseUrl;
  const process2 = () => servers[1]!.baseUrl;

  async function company(name: string): Promise<Company> {
    const { id } = await cliJson<{ id: string }>(['company', 'create', '--name', name], env);
    const { key } = await cliJson<{ key: string }>(
      ['key', 'create', '--company', id, '--name', 'lock test', '--permissions', PERMISSIONS],
      env,
    );
    const buyer = await call(process1(), '/organization', key, { name: `Buyer of ${name}`, isCustomer: true });
    expect(buyer.status).toBe(201);
    return { id, key, organizationId: buyer.body.data!.id as string };
  }

  async function drafts(owner: Company, count: number): Promise<string[]> {
    const created = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        call(servers[i % 2]!.baseUrl, '/invoice', owner.key, {
          organizationId: owner.organizationId,
          status: 'draft',
          lines: [LINE],
        }),
      ),
    );
    expect(created.map((r) => r.status)).toEqual(Array.from({ length: count }, () => 201));
    return created.map((r) => r.body.data!.id as string);
  }

  const finalize = (baseUrl: string, owner: Company, id: string) => call(baseUrl, `/invoice/${id}/finalize`, owner.key);

  /**
   * The backends waiting, directly or behind another waiter, for a lock the locker holds: a
   * second finalize of a company queues for the row behind the first, not behind the locker.
   */
  async function waitingOnLocker(): Promise<{ pid: number; wait_event_type: string | null }[]> {
    const { rows } = await observer.query<{ pid: number; wait_event_type: string | null }>(
      `with recursive waiting(pid) as (
         select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))
         union
         select a.pid from pg_stat_activity a join waiting w on w.pid = any(pg_blocking_pids(a.pid))
       )
       select a.pid, a.wait_event_type from pg_stat_activity a join waiting using (pid) order by a.pid`,
      [lockerPid],
    );
    return rows;
  }
  let lockerPid: number;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    env = { DATABASE_URL: database.url, RATE_LIMIT_MAX: '100000' };
    servers = await Promise.all([startServer(env), startServer(env)]);
    a = await company('Locked Numbers GmbH');
    b = await company('Free Numbers GmbH');
    locker = new pg.Client({ connectionString: database.url });
    observer = new pg.Client({ connectionString: database.url });
    await Promise.all([locker.connect(), observer.connect()]);
    lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
  });
  afterAll(async () => {
    // A failed test may leave the lock held; ending the session releases it.
    await locker?.end().catch(() => {});
    await observer?.end().catch(() => {});
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
  });

  it("lets company B finalize, create, pay and credit through both processes while company A's finalizes wait for A's locked counter, and numbers A's gaplessly once it is released", async () => {
    const [firstOfA, ...waitingOfA] = await drafts(a, 3);
    const draftsOfB = await drafts(b, 4);

    // A's counter row exists once A has numbered one invoice.
    const first = await finalize(process1(), a, firstOfA!);
    expect(first.status).toBe(200);
    const year = /^(\d{4})-/.exec(String(first.body.data!.number))![1]!;
    expect(sequenceOf(first.body.data!.number, year)).toBe(1);

    await locker.query('begin');
    const locked = await locker.query<{ company_id: string }>(
      'select company_id from number_sequences where company_id = $1 for update',
      [a.id],
    );
    expect(locked.rows.length).toBeGreaterThan(0);

    // One of A's finalizes on each process; each claims its draft and then needs A's counter.
    const finalizesOfA = [
      inFlight(finalize(process1(), a, waitingOfA[0]!)),
      inFlight(finalize(process2(), a, waitingOfA[1]!)),
    ];
    /** Fails at once should one of A's finalizes answer while the test still holds A's counter. */
    const stillWaiting = (meanwhile: string) =>
      atOnce(() =>
        expect(
          finalizesOfA.filter((f) => f.answered).map((f) => f.value),
          `company A's finalizes answered, with A's counter still locked, before ${meanwhile}`,
        ).toEqual([]),
      );
    /** Waits for requests of company B to answer, failing at once should one of A's answer first. */
    const whileAWaits = <T>(requests: InFlight<T>, what: string) =>
      eventually(
        async () => {
          stillWaiting(`${what} answered`);
          if (!requests.answered) return false;
          return requests.done.catch((error: unknown) => {
            throw new GiveUp(error);
          });
        },
        { timeoutMs: 30_000, intervalMs: 20, what: `${what} to answer while A's counter is locked` },
      );

    const waiters = await eventually(
      async () => {
        stillWaiting('both were seen waiting for the lock');
        const rows = await waitingOnLocker();
        return rows.length === 2 && rows;
      },
      { timeoutMs: 30_000, intervalMs: 20, what: "both of company A's finalizes to wait for A's locked counter row" },
    );
    expect(waiters.map((w) => w.wait_event_type)).toEqual(['Lock', 'Lock']);

    // Meanwhile company B: four finalizes spread over both processes, then an issued invoice, a
    // payment and a credit note, also spread over both.
    const finalizesOfB = inFlight(Promise.all(draftsOfB.map((id, i) => finalize(servers[i % 2]!.baseUrl, b, id))));
    const finalizedOfB = await whileAWaits(finalizesOfB, "company B's finalizes");
    expect(finalizedOfB.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const numbersOfB = finalizedOfB.map((r) => sequenceOf(r.body.data!.number, year)).sort((x, y) => x - y);
    expect(numbersOfB).toEqual([1, 2, 3, 4]);

    const [paid, credited] = finalizedOfB.map((r) => r.body.data!.id as string);
    const othersOfB = inFlight(
      Promise.all([
        call(process2(), '/invoice', b.key, { organizationId: b.organizationId, lines: [LINE] }),
        call(process1(), `/invoice/${paid}/payment`, b.key, { amount: '50.00' }),
        call(process2(), '/credit-note', b.key, { invoiceId: credited, reason: 'Returned goods' }),
      ]),
    );
    const [created, payment, creditNote] = await whileAWaits(othersOfB, "company B's create, payment and credit note");
    expect([created!.status, payment!.status, creditNote!.status]).toEqual([201, 201, 201]);
    expect(sequenceOf(created!.body.data!.number, year)).toBe(5);
    expect(payment!.body.data!.amountPaid).toBe('50.00');
    expect(sequenceOf(creditNote!.body.data!.number, year, 'CN-')).toBe(1);

    // Still waiting after all of B's work: the same two backends, on the lock.
    stillWaiting('the lock was released');
    expect((await waitingOnLocker()).map((w) => w.pid)).toEqual(waiters.map((w) => w.pid));

    await locker.query('rollback');
    const answers = await Promise.all(finalizesOfA.map((f) => f.done));
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const numbersOfA = answers.map((r) => sequenceOf(r.body.data!.number, year)).sort((x, y) => x - y);
    expect(numbersOfA).toEqual([2, 3]);
    const counters = await observer.query<{ company_id: string; sequence: string; last_value: number }>(
      'select company_id, sequence, last_value from number_sequences order by sequence, last_value',
    );
    expect(counters.rows).toEqual([
      { company_id: b.id, sequence: 'credit-note', last_value: 1 },
      { company_id: a.id, sequence: 'invoice', last_value: 3 },
      { company_id: b.id, sequence: 'invoice', last_value: 5 },
    ]);
  });
});
