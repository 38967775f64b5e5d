import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';

// A statement PostgreSQL gives up on (statement_timeout, lock_timeout) or an operator cancels
// (pg_cancel_backend) has written nothing that stays, and the same request may succeed a moment
// later: the answer is 503 SERVICE_UNAVAILABLE with Retry-After, as for a database that is down,
// never a 500 and never the driver's text. The test holds a draft's row locked so its finalize
// waits, sees the backend waiting, and cancels it: what a timeout does, without the wait.

describe.skipIf(!DIALECTS.includes('postgres'))('a statement cancelled on PostgreSQL', () => {
  let t: TestApp;
  let key: string;
  let locker: pg.Client;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp('postgres');
    ({ key } = await t.tenant());
    locker = new pg.Client({ connectionString: t.database.url });
    observer = new pg.Client({ connectionString: t.database.url });
    await Promise.all([locker.connect(), observer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([locker?.end(), observer?.end()]);
    await t?.close();
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After and no driver text, and the draft can be finalized afterwards', async () => {
    const buyer = await t.post('/organization', { name: 'Cancel Buyer', isCustomer: true }, key);
    const draft = await t.post(
      '/invoice',
      {
        organizationId: buyer.json().data.id,
        status: 'draft',
        lines: [{ name: 'Work', quantity: 1, unitPrice: '100.00', vatRate: '19' }],
      },
      key,
    );
    expect(draft.statusCode).toBe(201);
    const id = draft.json().data.id as string;

    await locker.query('begin');
    await locker.query('select id from invoices where id = $1 for update', [id]);
    const lockerPid = (await locker.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const finalizing = t.post(`/invoice/${id}/finalize`, undefined, key);
    const waiting = await eventually(
      async () => {
        const { rows } = await observer.query<{ pid: number }>(
          'select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))',
          [lockerPid],
        );
        return rows.length === 1 ? rows[0]!.pid : false;
      },
      { what: "the finalize's backend to wait on the locked draft" },
    );
    await observer.query('select pg_cancel_backend($1)', [waiting]);

    const res = await finalizing;
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.body).not.toMatch(/cancel|statement|57014/i);

    await locker.query('rollback');
    const retried = await t.post(`/invoice/${id}/finalize`, undefined, key);
    expect(retried.statusCode, retried.body).toBe(200);
    expect(retried.json().data.number).toMatch(/^\d{4}-00001$/);
  });
});
