import { createHash } from 'node:crypto';
import pgModule from 'pg';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';
import { lockingClients, statementBlockedBy } from '../helpers/pg-waits.js';

// On PostgreSQL a numbered write (finalize, an issued create) is one statement of its own: a
// finalize claims the draft, takes its number and writes its hosted link and event in it; a create
// makes its invoice, lines, hosted link and events in it. A client's number that is still
// uncommitted when the statement takes the same one makes it wait. Once the client commits, a
// finalize's statement breaks the unique index and rolls back whole, the counter's step with it; a
// create's INSERT, whose conflict arbiter is that index, writes nothing. Either way the next try
// skips the client's number: no gap, no duplicate, and the event shows the number the answer shows.

describe.skipIf(!DIALECTS.includes('postgres'))('numbering in one statement on PostgreSQL', () => {
  let t: TestApp;
  let key: string;
  let client: pg.Client;
  let observer: pg.Client;

  /** Every query the app's connections send (they bind `query` when they connect), passed through. */
  let sent: MockInstance<pg.Client['query']>;

  beforeAll(async () => {
    sent = vi.spyOn(pgModule.Client.prototype, 'query');
    t = await buildTestApp('postgres', { webhookAllowPrivateUrls: true });
    ({ key } = await t.tenant());
    ({ client, observer } = await lockingClients(t.database.url));
  });
  afterAll(async () => {
    await Promise.all([client?.end(), observer?.end()]);
    await t?.close();
    sent?.mockRestore();
  });

  /** Waits until one backend waits on the client's transaction (the statement under test). */
  const blockedBy = (clientPid: number, what: string) => statementBlockedBy(observer, clientPid, what);

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
    const waiting = await blockedBy(clientPid, "the finalize's statement to wait on the client's uncommitted number");
    // The claim, the number and the event are one statement of its own: no claim or savepoint
    // before it (which would give its writes a subtransaction id besides the transaction's).
    expect(waiting.query).toMatch(/^with "draft" as \(select "id" from "invoices"/);
    const { rows: ownIds } = await observer.query<{ n: number }>(
      "select count(*)::int as n from pg_locks where pid = $1 and locktype = 'transactionid' and granted",
      [waiting.pid],
    );
    expect(ownIds).toEqual([{ n: 1 }]);
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
      const { rows } = await observer.query<{ id: string; type: string; object: string }>(
        'select id, type, object from events where object like $1 order by id',
        [`%"id":"${invoice.id}"%`],
      );
      expect(rows.map((r) => r.type)).toEqual(['invoice.created', 'invoice.finalized']);
      for (const row of rows) expect(JSON.parse(row.object)).toEqual(invoice);
      // Both went into the outbox, which the worker empties once it made their deliveries (it
      // passes a row only when every transaction older than it ended, other tests' too).
      await eventually(
        async () => {
          await t.container.deliveryWorker.drain();
          const { rows: made } = await observer.query(
            'select event_id from webhook_deliveries where endpoint_id = $1 and event_id = any($2::text[])',
            [endpoint.json().data.id, rows.map((r) => r.id)],
          );
          return made.length === rows.length;
        },
        { what: "the create's two events to be delivered to the endpoint" },
      );
    }
  });
  it('makes an issued create wait for an uncommitted client number, then skip it and a committed one, its lines written once', async () => {
    const { key: ownKey } = await t.tenant();
    const buyer = (await t.post('/organization', { name: 'Create Buyer', isCustomer: true }, ownKey)).json().data;
    const lines = [
      { name: 'Work', quantity: 2, unitPrice: '100.00', vatRate: '19' },
      { name: 'Books', quantity: 3, unitPrice: '19.99', vatRate: '7' },
    ];
    const body = { organizationId: buyer.id, lines };
    const year = new Date().getUTCFullYear();
    const given = async (number: string) => {
      const res = await t.post('/invoice', { ...body, number }, ownKey);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const [first, third] = [await given('OWN-A'), await given('OWN-C')];

    // 00001 held by a client's open transaction; 00003 already committed by another.
    await observer.query('update invoices set number = $1 where id = $2', [`${year}-00003`, third]);
    await client.query('begin');
    await client.query('update invoices set number = $1 where id = $2', [`${year}-00001`, first]);
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    sent.mockClear();
    const creating = t.post('/invoice', body, ownKey);
    const waiting = await blockedBy(clientPid, "the create's statement to wait on the client's uncommitted number");
    // The taken number is found by the unique index, as the INSERT's conflict arbiter, not by a
    // read whose plan could walk every invoice of the company while the counter is locked.
    const statement = sent.mock.calls
      .map(([query]) => (typeof query === 'string' ? query : ((query as { text?: string }).text ?? '')))
      .find((text) => text.startsWith('with "n" as (insert into "number_sequences"'));
    expect(statement).toContain('on conflict ("company_id", "livemode", "number") do nothing');
    expect(statement).not.toContain('not exists');
    // Its own transaction: no savepoint before it (which would give its writes a subtransaction
    // id besides the transaction's), so the counter lock it holds lasts for this statement alone,
    // with no COMMIT round trip after it.
    expect(waiting.query).toMatch(/^with "n" as \(insert into "number_sequences"/);
    const { rows: ownIds } = await observer.query<{ n: number }>(
      "select count(*)::int as n from pg_locks where pid = $1 and locktype = 'transactionid' and granted",
      [waiting.pid],
    );
    expect(ownIds).toEqual([{ n: 1 }]);
    await client.query('commit');
    const created = await creating;
    expect(created.statusCode, created.body).toBe(201);
    const invoice = created.json().data;
    expect(invoice.number).toBe(`${year}-00002`);
    const next = await t.post('/invoice', body, ownKey);
    expect(next.statusCode, next.body).toBe(201);
    expect(next.json().data.number).toBe(`${year}-00004`);

    for (const answer of [invoice, next.json().data]) {
      const read = await t.get(`/invoice/${answer.id}`, ownKey);
      expect(read.json().data).toEqual(answer);
      const { rows: stored } = await observer.query<{ count: number }>(
        'select count(*)::int as count from invoice_lines where invoice_id = $1',
        [answer.id],
      );
      expect(stored).toEqual([{ count: lines.length }]);
      const { rows: events } = await observer.query<{ type: string; object: string }>(
        'select type, object from events where object like $1 order by id',
        [`%"id":"${answer.id}"%`],
      );
      expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.finalized']);
      for (const event of events) expect(JSON.parse(event.object)).toEqual(answer);
    }
    const { rows: counter } = await observer.query<{ last_value: number }>(
      "select last_value from number_sequences where sequence = 'invoice' and year = $1 and company_id = (select company_id from invoices where id = $2)",
      [year, invoice.id],
    );
    expect(counter).toEqual([{ last_value: 4 }]);
  });

  it("writes an issued create's hosted link in its one statement, once, though the statement ran twice", async () => {
    const linked = await buildTestApp('postgres', { publicBaseUrl: 'https://pay.example' });
    const clients = await lockingClients(linked.database.url);
    try {
      const { key: ownKey } = await linked.tenant();
      const buyer = (await linked.post('/organization', { name: 'Link Buyer', isCustomer: true }, ownKey)).json().data;
      const body = {
        organizationId: buyer.id,
        lines: [{ name: 'Work', quantity: 1, unitPrice: '50.00', vatRate: '19' }],
      };
      const year = new Date().getUTCFullYear();
      const own = await linked.post('/invoice', { ...body, number: 'OWN-L' }, ownKey);
      expect(own.statusCode, own.body).toBe(201);

      // The first try takes 00001, held by the client: it fails once the client commits, and
      // nothing of it stays, its link included; the second try writes the invoice with its link.
      await clients.client.query('begin');
      await clients.client.query('update invoices set number = $1 where id = $2', [
        `${year}-00001`,
        own.json().data.id,
      ]);
      const clientPid = (await clients.client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const creating = linked.post('/invoice', body, ownKey);
      const waiting = await statementBlockedBy(clients.observer, clientPid, "the create's statement to wait");
      expect(waiting.query).toMatch(/^with "n" as \(insert into "number_sequences"/);
      await clients.client.query('commit');
      const created = await creating;
      expect(created.statusCode, created.body).toBe(201);
      const invoice = created.json().data;
      expect(invoice.number).toBe(`${year}-00002`);
      expect(invoice.hostedUrl).toMatch(/^https:\/\/pay\.example\/hosted\/[A-Za-z0-9_-]{43}$/);

      const token = invoice.hostedUrl.split('/').at(-1);
      const { rows: links } = await clients.observer.query<{ document_kind: string; token_hash: string }>(
        'select document_kind, token_hash from hosted_links where document_id = $1',
        [invoice.id],
      );
      expect(links).toEqual([
        { document_kind: 'invoice', token_hash: createHash('sha256').update(token).digest('hex') },
      ]);
      // Both events show the answer, link included; the page opens with that link (its first
      // view is then on the invoice), and a read shows the same link.
      const { rows: events } = await clients.observer.query<{ type: string; object: string }>(
        'select type, object from events where object like $1 order by id',
        [`%"id":"${invoice.id}"%`],
      );
      expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.finalized']);
      expect(events.map((e) => JSON.parse(e.object))).toEqual([invoice, invoice]);
      const page = await linked.request({ method: 'GET', url: new URL(invoice.hostedUrl).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(invoice.number);
      expect((await linked.get(`/invoice/${invoice.id}`, ownKey)).json().data).toEqual({
        ...invoice,
        viewedAt: expect.any(String),
      });
    } finally {
      await Promise.all([clients.client.end(), clients.observer.end()]);
      await linked.close();
    }
  });

  it('claims a draft changed while it waited only as it is then, writing its number, hosted link and event once, with no number taken for the failed claim', async () => {
    const linked = await buildTestApp('postgres', { publicBaseUrl: 'https://pay.example' });
    const clients = await lockingClients(linked.database.url);
    try {
      const { key: ownKey } = await linked.tenant();
      const buyer = (await linked.post('/organization', { name: 'Claim Buyer', isCustomer: true }, ownKey)).json().data;
      const lines = [{ name: 'Work', quantity: 1, unitPrice: '50.00', vatRate: '19' }];
      const draft = await linked.post('/invoice', { organizationId: buyer.id, lines, status: 'draft' }, ownKey);
      expect(draft.statusCode, draft.body).toBe(201);
      const id = draft.json().data.id as string;
      const year = new Date().getUTCFullYear();

      // A client changes the draft in a transaction still open: the finalize's statement waits
      // for the draft's row, then finds it changed, takes no number, reads it again and issues it.
      await clients.client.query('begin');
      await clients.client.query(
        "update invoices set note = 'Changed meanwhile', version = version + 1 where id = $1",
        [id],
      );
      const clientPid = (await clients.client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const finalizing = linked.post(`/invoice/${id}/finalize`, undefined, ownKey);
      const waiting = await statementBlockedBy(clients.observer, clientPid, "the finalize's statement to wait");
      expect(waiting.query).toMatch(/^with "draft" as \(select "id" from "invoices"/);
      await clients.client.query('commit');

      const res = await finalizing;
      expect(res.statusCode, res.body).toBe(200);
      const invoice = res.json().data;
      expect(invoice).toMatchObject({ status: 'issued', number: `${year}-00001`, note: 'Changed meanwhile' });
      expect(invoice.hostedUrl).toMatch(/^https:\/\/pay\.example\/hosted\/[A-Za-z0-9_-]{43}$/);
      const token = invoice.hostedUrl.split('/').at(-1);
      const { rows: links } = await clients.observer.query<{ token_hash: string }>(
        'select token_hash from hosted_links where document_id = $1',
        [id],
      );
      expect(links).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
      const { rows: counter } = await clients.observer.query<{ last_value: number }>(
        "select last_value from number_sequences where sequence = 'invoice' and year = $1 and company_id = (select company_id from invoices where id = $2)",
        [year, id],
      );
      expect(counter).toEqual([{ last_value: 1 }]);
      const { rows: events } = await clients.observer.query<{ type: string; object: string }>(
        'select type, object from events where object like $1 order by id',
        [`%"id":"${id}"%`],
      );
      expect(events.map((e) => e.type)).toEqual(['invoice.created', 'invoice.finalized']);
      expect(JSON.parse(events[1]!.object)).toEqual(invoice);
      expect((await linked.get(`/invoice/${id}`, ownKey)).json().data).toEqual(invoice);
      const page = await linked.request({ method: 'GET', url: new URL(invoice.hostedUrl).pathname });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(invoice.number);
    } finally {
      await Promise.all([clients.client.end(), clients.observer.end()]);
      await linked.close();
    }
  });
});
