import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';
import { lockingClients, statementBlockedBy } from '../helpers/pg-waits.js';

// On PostgreSQL a draft's create is one statement: the invoice, its lines (one JSON parameter,
// however many), its `invoice.created` event and the event's outbox row, with no BEGIN and COMMIT
// around it. The statement that writes the event is then its transaction's first and only one,
// and when it fails nothing of the draft stays. SQLite writes the same rows in steps of one
// transaction; on both a draft of more lines than one statement of steps takes keeps them all.

const LINE = { name: 'Work', quantity: 1, unitPrice: '10.00', vatRate: '19' };

for (const dialect of DIALECTS) {
  describe(`a draft of many lines on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t?.close());

    it('stores every line of a draft of 250, in order, and its one event shows the answer', async () => {
      const { key } = await t.tenant();
      const buyer = (await t.post('/organization', { name: 'Many Lines Buyer', isCustomer: true }, key)).json().data;
      const lines = Array.from({ length: 250 }, (_, i) => ({ ...LINE, name: `Item ${i + 1}`, quantity: i + 1 }));
      const created = await t.post('/invoice', { organizationId: buyer.id, status: 'draft', lines }, key);
      expect(created.statusCode, created.body).toBe(201);
      const draft = created.json().data;
      expect(draft.lines.map((line: { name: string }) => line.name)).toEqual(lines.map((line) => line.name));
      expect((await t.get(`/invoice/${draft.id}`, key)).json().data).toEqual(draft);
      const events = await t.get('/event?type=invoice.created', key);
      expect(events.statusCode, events.body).toBe(200);
      expect(events.json().data.items.map((event: { data: { object: unknown } }) => event.data.object)).toEqual([
        draft,
      ]);
    });
  });
}

describe.skipIf(!DIALECTS.includes('postgres'))("a draft's create in one statement on PostgreSQL", () => {
  let t: TestApp;
  let client: pg.Client;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp('postgres', { webhookAllowPrivateUrls: true });
    ({ client, observer } = await lockingClients(t.database.url));
  });
  afterAll(async () => {
    await Promise.all([client?.end(), observer?.end()]);
    await t?.close();
  });

  /** What is stored of a company's invoices: invoices, lines and `invoice.created` events. */
  async function storedOf(companyId: string) {
    const count = async (query: string) => (await observer.query<{ n: number }>(query, [companyId])).rows[0]!.n;
    return {
      invoices: await count('select count(*)::int as n from invoices where company_id = $1'),
      lines: await count('select count(*)::int as n from invoice_lines where company_id = $1'),
      events: await count("select count(*)::int as n from events where company_id = $1 and type = 'invoice.created'"),
    };
  }

  it('writes a draft of 250 lines with all its lines, its event equal to the answer and its outbox row', async () => {
    const { key, companyId } = await t.tenant();
    const endpoint = await t.post('/webhook-endpoint', { url: 'http://127.0.0.1:9/never-sent', events: ['*'] }, key);
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const buyer = (await t.post('/organization', { name: 'Many Lines Buyer', isCustomer: true }, key)).json().data;
    const lines = Array.from({ length: 250 }, (_, i) => ({ ...LINE, name: `Item ${i + 1}`, quantity: i + 1 }));
    const created = await t.post('/invoice', { organizationId: buyer.id, status: 'draft', lines }, key);
    expect(created.statusCode, created.body).toBe(201);
    const draft = created.json().data;
    expect(draft.lines).toHaveLength(250);
    expect((await t.get(`/invoice/${draft.id}`, key)).json().data).toEqual(draft);

    const { rows: stored } = await observer.query<{ position: number; name: string }>(
      'select position, name from invoice_lines where invoice_id = $1 order by position',
      [draft.id],
    );
    expect(stored).toEqual(lines.map((line, i) => ({ position: i + 1, name: line.name })));
    const { rows: events } = await observer.query<{ id: string; object: string }>(
      "select id, object from events where company_id = $1 and type = 'invoice.created'",
      [companyId],
    );
    expect(events.map((event) => JSON.parse(event.object))).toEqual([draft]);
    // It went into the outbox, which the worker empties once it made the endpoint's delivery (it
    // passes a row only when every transaction older than it ended, other tests' too).
    const delivered = await eventually(
      async () => {
        await t.container.deliveryWorker.drain();
        const { rows } = await observer.query<{ event_id: string }>(
          'select event_id from webhook_deliveries where endpoint_id = $1 and event_id = any($2::text[])',
          [endpoint.json().data.id, events.map((event) => event.id)],
        );
        return rows.length > 0 ? rows : false;
      },
      { what: "the draft's event to be delivered to the endpoint" },
    );
    expect(delivered.map((row) => row.event_id)).toEqual(events.map((event) => event.id));
  });

  it("writes invoice, lines and event in the transaction's one statement, and nothing when that statement fails", async () => {
    const { key, companyId } = await t.tenant();
    const buyer = (await t.post('/organization', { name: 'Locked Buyer', isCustomer: true }, key)).json().data;
    const body = { organizationId: buyer.id, status: 'draft', lines: [LINE, { ...LINE, name: 'More' }] };

    // Another transaction keeps every event from being written.
    await client.query('begin');
    await client.query('lock table events in share mode');
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const waitingStatement = () =>
      statementBlockedBy(observer, clientPid, "the draft's statement to wait for the events table");

    const cancelled = t.post('/invoice', body, key);
    const first = await waitingStatement();
    // The statement that writes the event inserts the invoice (and, past what pg_stat_activity
    // shows of it, the lines): it started its transaction, so nothing was written before it.
    expect(first.query).toMatch(/^with "change" as \(insert into "invoices" /);
    expect(first.first).toBe(true);
    await observer.query('select pg_cancel_backend($1)', [first.pid]);
    const refused = await cancelled;
    expect(refused.statusCode, refused.body).toBe(503);

    const creating = t.post('/invoice', body, key);
    await waitingStatement();
    await client.query('commit');
    const created = await creating;
    expect(created.statusCode, created.body).toBe(201);
    // Of the cancelled create nothing stayed: one invoice, its two lines and its event.
    expect(await storedOf(companyId)).toEqual({ invoices: 1, lines: 2, events: 1 });
    const draft = created.json().data;
    expect((await t.get(`/invoice/${draft.id}`, key)).json().data).toEqual(draft);
  });
});
