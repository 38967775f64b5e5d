import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';

// On PostgreSQL a finalize takes its number and writes its event in one statement. A client's
// number that is still uncommitted when the finalize takes the same one makes the statement wait;
// once the client commits, the statement breaks the unique index. The savepoint before it gives
// the counter's step back, and the next try skips the client's number: no gap, no duplicate, and
// the event shows the number the answer shows.

describe.skipIf(!DIALECTS.includes('postgres'))('a finalize racing a client number on PostgreSQL', () => {
  let t: TestApp;
  let key: string;
  let client: pg.Client;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp('postgres');
    ({ key } = await t.tenant());
    client = new pg.Client({ connectionString: t.database.url });
    observer = new pg.Client({ connectionString: t.database.url });
    await Promise.all([client.connect(), observer.connect()]);
  });
  afterAll(async () => {
    await Promise.all([client?.end(), observer?.end()]);
    await t?.close();
  });

  it('waits for the uncommitted client number, then skips it and takes the next, with the same number in its event', async () => {
    const buyer = (await t.post('/organization', { name: 'Race Buyer', isCustomer: true }, key)).json().data;
    const body = {
      organizationId: buyer.id,
      lines: [{ name: 'Work', quantity: 1, unitPrice: '100.00', vatRate: '19' }],
    };
    const year = new Date().getUTCFullYear();
    const own = await t.post('/invoice', { ...body, number: 'OWN-1' }, key);
    expect(own.statusCode, own.body).toBe(201);
    const draft = await t.post('/invoice', { ...body, status: 'draft' }, key);
    expect(draft.statusCode, draft.body).toBe(201);
    const id = draft.json().data.id as string;

    // The client's invoice takes the sequence's next number, in a transaction still open.
    await client.query('begin');
    await client.query('update invoices set number = $1 where id = $2', [`${year}-00001`, own.json().data.id]);
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const finalizing = t.post(`/invoice/${id}/finalize`, undefined, key);
    await eventually(
      async () =>
        (
          await observer.query('select pid from pg_stat_activity where $1::int = any(pg_blocking_pids(pid))', [
            clientPid,
          ])
        ).rows.length === 1,
      { what: "the finalize's statement to wait on the client's uncommitted number" },
    );
    await client.query('commit');

    const res = await finalizing;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.number).toBe(`${year}-00002`);
    const { rows: events } = await observer.query<{ object: string }>(
      "select object from events where type = 'invoice.finalized' and object like $1",
      [`%"id":"${id}"%`],
    );
    expect(events.map((e) => JSON.parse(e.object))).toEqual([res.json().data]);
    const { rows: counter } = await observer.query<{ last_value: number }>(
      "select last_value from number_sequences where sequence = 'invoice' and year = $1 and company_id = (select company_id from invoices where id = $2)",
      [year, id],
    );
    expect(counter).toEqual([{ last_value: 2 }]);
  });
});
