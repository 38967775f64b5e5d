import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { lockingClients, statementBlockedBy } from '../helpers/pg-waits.js';

// A payment, refund or void (or a credit note that changes the invoice's status) reads the
// invoice, its lines and what its answer shows (payments, credit notes, messages, link, reminders)
// in one statement, so the row and its lists agree and the change costs one round trip before its
// write; a credit note that leaves the status reads the row and its lines only, in one statement.
// A credit note's GET reads it with its lines, messages and link in one statement too. On
// PostgreSQL a client that locks a table shows which statement waits on it.

// 2 × 50 at 19 %: 119.00.
const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];

type Change = { path: (invoiceId: string) => string; body: (invoiceId: string) => Record<string, unknown> };

const CHANGES: Record<string, Change & { paidFirst?: boolean }> = {
  payment: { path: (id) => `/invoice/${id}/payment`, body: () => ({ amount: '19.00' }) },
  refund: { path: (id) => `/invoice/${id}/refund`, body: () => ({ amount: '19.00' }), paidFirst: true },
  // Crediting it all voids the invoice: its answer is read too.
  'credit note': { path: () => '/credit-note', body: (id) => ({ invoiceId: id, reason: 'Returned' }) },
  void: { path: (id) => `/invoice/${id}/void`, body: () => ({}) },
};

describe.skipIf(!DIALECTS.includes('postgres'))('reads for a change in one statement on PostgreSQL', () => {
  let t: TestApp;
  let key: string;
  let buyerId: string;
  let client: pg.Client;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp('postgres');
    ({ key } = await t.tenant());
    buyerId = (await t.post('/organization', { name: 'Reading Buyer', isCustomer: true }, key)).json().data.id;
    ({ client, observer } = await lockingClients(t.database.url));
  });
  afterAll(async () => {
    await Promise.all([client?.end(), observer?.end()]);
    await t?.close();
  });

  for (const [name, change] of Object.entries(CHANGES)) {
    it(`reads the invoice with its lines and payments in the one statement a ${name} waits in, then answers as a GET shows it`, async () => {
      const invoice = (await t.post('/invoice', { organizationId: buyerId, lines: LINES }, key)).json().data;
      if (change.paidFirst) {
        const paid = await t.post(`/invoice/${invoice.id}/payment`, { amount: '119.00' }, key);
        const credited = await t.post('/credit-note', { invoiceId: invoice.id, reason: 'Returned' }, key);
        expect([paid.statusCode, credited.statusCode], credited.body).toEqual([201, 201]);
      }

      await client.query('begin');
      await client.query('lock table payments in access exclusive mode');
      const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
      const changing = t.post(change.path(invoice.id), change.body(invoice.id), key);
      try {
        const waiting = await statementBlockedBy(observer, clientPid, `the ${name} to wait for the payments table`);
        // The waiting statement reads the invoice's row and, as columns of it, its lines and payments.
        expect(waiting.query).toMatch(/^select "i"\.\*, \(select .* from invoice_lines l\b/s);
      } finally {
        await client.query('commit');
      }

      const res = await changing;
      expect(res.statusCode, res.body).toBeLessThan(300);
      const answer = res.json().data;
      const invoiceId = name === 'credit note' ? answer.invoiceId : answer.id;
      expect(invoiceId).toBe(invoice.id);
      if (name !== 'credit note') expect(answer).toEqual((await t.get(`/invoice/${invoice.id}`, key)).json().data);
      else expect(answer).toEqual((await t.get(`/credit-note/${answer.id}`, key)).json().data);
    });
  }

  it("reads only the invoice and its lines, in one statement, for a credit note that leaves the invoice's status", async () => {
    const invoice = (await t.post('/invoice', { organizationId: buyerId, lines: LINES }, key)).json().data;
    await client.query('begin');
    await client.query('lock table invoice_lines in access exclusive mode');
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const crediting = t.post(
      '/credit-note',
      { invoiceId: invoice.id, reason: 'One unit', lines: [{ ...LINES[0], quantity: '1' }] },
      key,
    );
    try {
      const waiting = await statementBlockedBy(observer, clientPid, 'the credit note to wait for the lines');
      // The whole statement: the row with its lines as a column, and nothing of what its answer shows.
      expect(waiting.query).toMatch(
        /^select "i"\.\*, \(select .* from invoice_lines l\b.* from "invoices" as "i" where .*\$3$/s,
      );
      expect(waiting.query).not.toMatch(/payments|credit_notes|email_deliveries|hosted_links|invoice_reminders/);
    } finally {
      await client.query('commit');
    }
    const res = await crediting;
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toEqual((await t.get(`/credit-note/${res.json().data.id}`, key)).json().data);
    expect((await t.get(`/invoice/${invoice.id}`, key)).json().data).toMatchObject({
      status: 'issued',
      amountDue: '59.50',
    });
  });

  it('reads a credit note with its lines, messages and hosted link in the one statement its GET waits in', async () => {
    const invoice = (await t.post('/invoice', { organizationId: buyerId, lines: LINES }, key)).json().data;
    const created = (await t.post('/credit-note', { invoiceId: invoice.id, reason: 'Returned' }, key)).json().data;
    await client.query('begin');
    await client.query('lock table credit_note_lines in access exclusive mode');
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const reading = t.get(`/credit-note/${created.id}`, key);
    try {
      const waiting = await statementBlockedBy(observer, clientPid, 'the credit note GET to wait for its lines');
      // The waiting statement reads the credit note's row and, as a column of it, its lines.
      expect(waiting.query).toMatch(/^select "c"\.\*, \(select .* from credit_note_lines l\b/s);
    } finally {
      await client.query('commit');
    }
    const res = await reading;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual(created);
  });
});
