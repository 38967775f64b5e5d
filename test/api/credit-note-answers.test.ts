import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';
import { lockingClients, statementBlockedBy } from '../helpers/pg-waits.js';

// A credit note (asked for, or written by a void) takes its number, is stored with its lines and
// writes its events in one statement on PostgreSQL (steps in one transaction on SQLite), with the
// invoice's compare-and-set before it. The answers and events are built from what was read and
// written, not read back: these tests hold them (to the byte) to what a GET shows right after,
// also when credit notes race on one invoice, and the numbers to a gapless sequence.

type Body = Record<string, unknown>;
interface EventAnswer {
  type: string;
  data: { object: Record<string, unknown> };
}

/** The same value, and the same JSON text (keys in the same order). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

// 2 × 50 at 19 %: 119.00; one unit credited: 59.50.
const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];
const ONE_UNIT = [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }];
const YEAR = new Date().getUTCFullYear();

for (const dialect of DIALECTS) {
  describe(`credit note answers on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      // With a public address, so that the answers show a hosted page link too.
      t = await buildTestApp(dialect, { publicBaseUrl: 'https://pay.example.com' });
    });
    afterAll(async () => t.close());

    async function company(mode: 'live' | 'test' = 'live') {
      const { key } = await t.tenant(undefined, { mode });
      const request = (path: string, body?: Body, headers: Record<string, string> = {}) =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key, ...headers },
          ...(body ? { payload: body } : {}),
        });
      const post = async (path: string, body?: Body) => {
        const res = await request(path, body);
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json().data as Body & { id: string };
      };
      const buyer = await post('/organization', { name: 'Credited Buyer', isCustomer: true });
      const issue = () => post('/invoice', { organizationId: buyer.id, lines: LINES });
      const get = async (path: string) => {
        const res = await t.get(path, key);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as Body;
      };
      /** Every event of a type, newest first. */
      const events = async (type: string) => {
        const res = await t.get(`/event?limit=100&type=${type}`, key);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().data.items as EventAnswer[]).map((event) => event.data.object);
      };
      return { key, request, post, issue, get, events };
    }

    it('answers a credit note with the credit note a GET shows after it, as is its credit-note.created event', async () => {
      const c = await company();
      const invoice = await c.issue();
      const answer = await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      const shown = await c.get(`/credit-note/${answer.id}`);
      expectSame(answer, shown);
      expect(shown).toMatchObject({ number: `CN-${YEAR}-00001`, invoiceId: invoice.id });
      expect(shown.hostedUrl).toEqual(expect.stringMatching(/^https:\/\/pay\.example\.com\/hosted\//));
      expect(await c.events('credit-note.created')).toEqual([shown]);
      // The invoice is still issued, with the credit note listed and no status event.
      expect(await c.get(`/invoice/${invoice.id}`)).toMatchObject({
        status: 'issued',
        amountCredited: '59.50',
        creditNoteIds: [answer.id],
      });
      expect(await c.events('invoice.voided')).toEqual([]);
    });

    it('writes the invoice.voided event of a credit note that credits it all as a GET of the invoice shows it', async () => {
      const c = await company('test');
      const invoice = await c.issue();
      const answer = await c.post('/credit-note', { invoiceId: invoice.id, reason: 'Everything' });
      expectSame(answer, await c.get(`/credit-note/${answer.id}`));
      expect(answer.number).toBe(`TEST-CN-${YEAR}-00001`);
      const shown = await c.get(`/invoice/${invoice.id}`);
      expect(shown).toMatchObject({ status: 'void', amountCredited: '119.00', creditNoteIds: [answer.id] });
      expect(await c.events('invoice.voided')).toEqual([shown]);
      expect(await c.events('credit-note.created')).toEqual([answer]);
    });

    it('writes the invoice.paid event of a credit note that settles a partly paid invoice as a GET shows it', async () => {
      const c = await company();
      const invoice = await c.issue();
      await c.post(`/invoice/${invoice.id}/payment`, { amount: '59.50' });
      const answer = await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      expectSame(answer, await c.get(`/credit-note/${answer.id}`));
      const shown = await c.get(`/invoice/${invoice.id}`);
      expect(shown).toMatchObject({ status: 'paid', amountDue: '0.00', creditNoteIds: [answer.id] });
      expect(await c.events('invoice.paid')).toEqual([shown]);
    });

    it("answers a void with the invoice a GET shows, and writes its credit note's event as a GET of the credit note shows it", async () => {
      const c = await company();
      const invoice = await c.issue();
      const first = await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      const voided = await c.post(`/invoice/${invoice.id}/void`);
      expectSame(voided, await c.get(`/invoice/${invoice.id}`));
      const ids = voided.creditNoteIds as string[];
      expect(ids).toHaveLength(2);
      expect(ids[0]).toBe(first.id);
      const written = await c.get(`/credit-note/${ids[1]}`);
      expect(written).toMatchObject({ number: `CN-${YEAR}-00002`, totals: { payable: '59.50' } });
      expect(await c.events('credit-note.created')).toEqual([written, first]);
      expect(await c.events('invoice.voided')).toEqual([voided]);
    });

    it('answers a credit note with an Idempotency-Key, written in its transaction, as a GET shows it, and replays it', async () => {
      const c = await company();
      const invoice = await c.issue();
      const crediting = () =>
        c.request('/credit-note', { invoiceId: invoice.id, reason: 'Everything' }, { 'idempotency-key': 'cn-1' });
      const credited = await crediting();
      expect(credited.statusCode, credited.body).toBe(201);
      const answer = credited.json().data as Body;
      expectSame(answer, await c.get(`/credit-note/${answer.id as string}`));
      const replayed = await crediting();
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.json().data).toEqual(answer);
      expect(await c.events('invoice.voided')).toEqual([await c.get(`/invoice/${invoice.id}`)]);
    });

    it('answers each of racing credit notes on one invoice as a GET shows it; the losers are refused, the numbers have no gap', async () => {
      const c = await company();
      const invoice = await c.issue();
      // Two of six fit the 119.00; the second to win voids the invoice.
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          c.request('/credit-note', { invoiceId: invoice.id, reason: `Race ${i}`, lines: ONE_UNIT }),
        ),
      );
      const won = answers.filter((res) => res.statusCode === 201).map((res) => res.json().data as Body);
      const lost = answers.filter((res) => res.statusCode !== 201);
      expect(won).toHaveLength(2);
      // Refused on the state the winners left: too much to credit, or already void.
      for (const res of lost)
        expect(['CREDIT_EXCEEDS_INVOICE', 'INVOICE_NOT_CREDITABLE']).toContain(res.json().error.code);
      for (const answer of won) expectSame(answer, await c.get(`/credit-note/${answer.id as string}`));
      expect(won.map((answer) => answer.number).sort()).toEqual([`CN-${YEAR}-00001`, `CN-${YEAR}-00002`]);
      const shown = await c.get(`/invoice/${invoice.id}`);
      expect(shown).toMatchObject({ status: 'void', amountCredited: '119.00' });
      expect(await c.events('invoice.voided')).toEqual([shown]);
      expect(await c.events('credit-note.created')).toHaveLength(2);
    });

    it('numbers racing credit notes and voids of many invoices of one company without a gap or a repeat', async () => {
      const c = await company();
      const invoices = await Promise.all(Array.from({ length: 8 }, () => c.issue()));
      // Half are voided, half credited in two racing halves: 4 + 8 credit notes, all at once.
      const answers = await Promise.all(
        invoices.flatMap((invoice, i) =>
          i % 2 === 0
            ? [c.request(`/invoice/${invoice.id}/void`)]
            : [1, 2].map((half) =>
                c.request('/credit-note', { invoiceId: invoice.id, reason: `Half ${half}`, lines: ONE_UNIT }),
              ),
        ),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBeLessThan(300);
      const notes = (await c.events('credit-note.created')) as { id: string; number: string }[];
      expect(notes).toHaveLength(12);
      expect(notes.map((note) => note.number).sort()).toEqual(
        Array.from({ length: 12 }, (_, i) => `CN-${YEAR}-${String(i + 1).padStart(5, '0')}`),
      );
      for (const note of notes) expect((await c.get(`/credit-note/${note.id}`)).number).toBe(note.number);
    });
  });
}

describe.skipIf(!DIALECTS.includes('postgres'))('a credit note in one statement on PostgreSQL', () => {
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

  it('writes the events of a credit note that voids its invoice in order, each object as a GET shows it, each for the endpoint', async () => {
    const { key, companyId } = await t.tenant();
    const endpoint = await t.post('/webhook-endpoint', { url: 'http://127.0.0.1:9/never-sent', events: ['*'] }, key);
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const buyer = (await t.post('/organization', { name: 'Outbox Buyer', isCustomer: true }, key)).json().data;
    const invoice = (await t.post('/invoice', { organizationId: buyer.id, lines: LINES }, key)).json().data;
    const res = await t.post('/credit-note', { invoiceId: invoice.id, reason: 'Everything' }, key);
    expect(res.statusCode, res.body).toBe(201);
    const creditNote = (await t.get(`/credit-note/${res.json().data.id}`, key)).json().data;
    const voided = (await t.get(`/invoice/${invoice.id}`, key)).json().data;
    const { rows } = await observer.query<{ id: string; type: string; object: string }>(
      `select id, type, object from events
        where company_id = $1 and type in ('credit-note.created', 'invoice.voided') order by id`,
      [companyId],
    );
    expect(rows.map((row) => row.type)).toEqual(['credit-note.created', 'invoice.voided']);
    expect(rows.map((row) => JSON.parse(row.object))).toEqual([creditNote, voided]);
    // Both went into the outbox, which the worker empties once it made their deliveries (it passes
    // a row only when every transaction older than it ended, other tests' too).
    const delivered = await eventually(
      async () => {
        await t.container.deliveryWorker.drain();
        const { rows: made } = await observer.query<{ event_id: string }>(
          'select event_id from webhook_deliveries where endpoint_id = $1 and event_id = any($2::text[]) order by event_id',
          [endpoint.json().data.id, rows.map((row) => row.id)],
        );
        return made.length === rows.length ? made : false;
      },
      { what: "the credit note's two events to be delivered to the endpoint" },
    );
    expect(delivered.map((row) => row.event_id)).toEqual(rows.map((row) => row.id));
  });

  it("waits for the counter's lock in the statement that stores the credit note, then takes the next number", async () => {
    const { key, companyId } = await t.tenant();
    const buyer = (await t.post('/organization', { name: 'Locked Buyer', isCustomer: true }, key)).json().data;
    const invoice = (await t.post('/invoice', { organizationId: buyer.id, lines: LINES }, key)).json().data;
    const first = await t.post('/credit-note', { invoiceId: invoice.id, reason: 'First', lines: ONE_UNIT }, key);
    expect(first.statusCode, first.body).toBe(201);

    // Another transaction holds the company's credit note counter.
    await client.query('begin');
    await client.query(
      "update number_sequences set last_value = last_value where company_id = $1 and sequence = 'credit-note'",
      [companyId],
    );
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const crediting = t.post('/credit-note', { invoiceId: invoice.id, reason: 'Second', lines: ONE_UNIT }, key);
    const { query: waiting } = await statementBlockedBy(observer, clientPid, 'the credit note to wait for the counter');
    // The statement that waits for the counter is the one that changes the invoice (its
    // compare-and-set comes first) and stores the credit note (the counter, the credit note, its
    // lines and events follow in the same statement, past what pg_stat_activity shows of it).
    expect(waiting).toMatch(/^with "guarded" as \(update "invoices" set "amount_paid" = \$1/);
    await client.query('commit');

    const res = await crediting;
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.number).toBe(`CN-${YEAR}-00002`);
    const get = await t.get(`/credit-note/${res.json().data.id}`, key);
    expect(res.json().data).toEqual(get.json().data);
  });

  it('takes no number for a credit note whose invoice changed while it waited, and stores it once on the next try', async () => {
    const { key, companyId } = await t.tenant();
    const buyer = (await t.post('/organization', { name: 'Changed Buyer', isCustomer: true }, key)).json().data;
    const invoice = (await t.post('/invoice', { organizationId: buyer.id, lines: LINES }, key)).json().data;

    // Another transaction changes what the invoice has credited (a credit note that other code
    // stored): the credit note's statement waits for the invoice's row, then finds it changed.
    await client.query('begin');
    await client.query("update invoices set amount_credited = '0.01' where id = $1", [invoice.id]);
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const crediting = t.post('/credit-note', { invoiceId: invoice.id, reason: 'Once', lines: ONE_UNIT }, key);
    const { query: waiting } = await statementBlockedBy(
      observer,
      clientPid,
      "the credit note to wait for the invoice's row",
    );
    expect(waiting).toMatch(/^with "guarded" as \(update "invoices"/);
    await client.query('commit');

    const res = await crediting;
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.number).toBe(`CN-${YEAR}-00001`);
    const { rows: counter } = await observer.query<{ last_value: number }>(
      "select last_value from number_sequences where company_id = $1 and sequence = 'credit-note'",
      [companyId],
    );
    expect(counter).toEqual([{ last_value: 1 }]);
    const { rows: stored } = await observer.query<{ count: number }>(
      'select count(*)::int as count from credit_notes where invoice_id = $1',
      [invoice.id],
    );
    expect(stored).toEqual([{ count: 1 }]);
    // The next try read the invoice as the other transaction left it, and added to it.
    const read = (await t.get(`/invoice/${invoice.id}`, key)).json().data;
    expect(read.creditNoteIds).toEqual([res.json().data.id]);
    const { rows: credited } = await observer.query<{ amount_credited: string }>(
      'select amount_credited from invoices where id = $1',
      [invoice.id],
    );
    // 0.01 from the other transaction, 59.50 (50 and 19 % VAT) from this credit note.
    expect(credited).toEqual([{ amount_credited: '59.51' }]);
  });
});
