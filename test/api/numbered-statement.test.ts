import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';

// On PostgreSQL a numbered write (finalize, an issued create) takes its number and writes its
// events in one statement. A client's
// number that is still uncommitted when the finalize takes the same one makes the statement wait;
// once the client commits, the statement breaks the unique index. The savepoint before it gives
// the counter's step back, and the next try skips the client's number: no gap, no duplicate, and
// the event shows the number the answer shows.

describe.skipIf(!DIALECTS.includes('postgres'))('numbering in one statement on PostgreSQL', () => {
  let t: TestApp;
  let key: string;
  let client: pg.Client;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp('postgres', { webhookAllowPrivateUrls: true });
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

  it("writes an issued create's two events in order, each with the number of the answer, and test mode's TEST- prefix", async () => {
    const { key: testKey } = await t.tenant(undefined, { mode: 'test' });
    for (const apiKey of [key, testKey]) {
      const endpoint = await t.post(
        '/webhook-endpoint',
        { url: 'http://127.0.0.1:9/never-sent', events: ['*'] },
        apiKey,
      );
      expect(endpoint.statusCode, endpoint.body).toBe(201);
      const buyer = (await t.post('/organization', { name: 'Order Buyer', isCustomer: true }, apiKey)).json().data;
      const created = await t.post(
        '/invoice',
        { organizationId: buyer.id, lines: [{ name: 'Work', quantity: 1, unitPrice: '10.00', vatRate: '19' }] },
        apiKey,
      );
      expect(created.statusCode, created.body).toBe(201);
      const invoice = created.json().data;
      expect(invoice.number).toMatch(apiKey === key ? /^\d{4}-\d{5}$/ : /^TEST-\d{4}-\d{5}$/);
      const { rows } = await observer.query<{ type: string; object: string }>(
        `select e.type, e.object from webhook_outbox o join events e on e.id = o.event_id
          where e.object like $1 order by o.seq`,
        [`%"id":"${invoice.id}"%`],
      );
      expect(rows.map((r) => r.type)).toEqual(['invoice.created', 'invoice.finalized']);
      for (const row of rows) expect(JSON.parse(row.object)).toEqual(invoice);
    }
  });
});
