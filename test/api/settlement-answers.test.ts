import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// A payment, a refund and a void answer with the invoice built from what was read before the
// change and what the change wrote, not read back: these tests hold that answer (to the byte) and
// the events written with it (their object's values) to what a GET of the invoice shows right after.

type Body = Record<string, unknown>;
interface EventAnswer {
  type: string;
  data: { object: Record<string, unknown> };
}

// 2 × 50 at 19 %: 119.00; one unit credited: 59.50.
/** The same value, and the same JSON text (keys in the same order). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];
const ONE_UNIT = [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`settlement answers on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      // With a public address, so that the answers show a hosted page link too.
      t = await buildTestApp(dialect, { publicBaseUrl: 'https://pay.example.com' });
    });
    afterAll(async () => t.close());

    async function company() {
      const { key } = await t.tenant();
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
      const buyer = await post('/organization', { name: 'Settling Buyer', isCustomer: true });
      const issue = () =>
        post('/invoice', { organizationId: buyer.id, lines: LINES, issueDate: '2020-01-02', dueDate: '2020-01-31' });
      const get = async (id: string) => (await t.get(`/invoice/${id}`, key)).json().data as Body;
      /** The newest event of a type. */
      const lastEvent = async (type: string) => {
        const res = await t.get(`/event?limit=100&type=${type}`, key);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json().data.items as EventAnswer[])[0]!.data.object;
      };
      return { key, request, post, issue, get, lastEvent };
    }

    it('answers a partial payment with the invoice a GET shows after it, and its event with the payment listed', async () => {
      const c = await company();
      const invoice = await c.issue();
      await c.post(`/invoice/${invoice.id}/payment`, { amount: '19.00', reference: 'first' });
      const answer = await c.post(`/invoice/${invoice.id}/payment`, { amount: '20.00', reference: 'second' });
      const shown = await c.get(invoice.id);
      expectSame(answer, shown);
      expect(shown).toMatchObject({ status: 'issued', amountPaid: '39.00', isOverdue: true });
      expect(shown.hostedUrl).toEqual(expect.stringMatching(/^https:\/\/pay\.example\.com\/hosted\//));
      const payments = shown.payments as Body[];
      expect(payments.map((p) => p.reference)).toEqual(['first', 'second']);
      expect(await c.lastEvent('payment.created')).toEqual({ ...payments[1], invoiceId: invoice.id });
    });

    it('answers a payment that pays the invoice with the paid invoice a GET shows, as is its invoice.paid event', async () => {
      const c = await company();
      const invoice = await c.issue();
      const answer = await c.post(`/invoice/${invoice.id}/payment`, { amount: '119.00' });
      const shown = await c.get(invoice.id);
      expectSame(answer, shown);
      expect(shown).toMatchObject({ status: 'paid', amountDue: '0.00', isOverdue: false });
      expect((shown.statusTransitions as Body).paidAt).not.toBeNull();
      expect(await c.lastEvent('invoice.paid')).toEqual(shown);
    });

    it('answers a payment on an invoice with a credit note with the invoice a GET shows, credit note listed', async () => {
      const c = await company();
      const invoice = await c.issue();
      const creditNote = await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      const answer = await c.post(`/invoice/${invoice.id}/payment`, { amount: '59.50' });
      const shown = await c.get(invoice.id);
      expectSame(answer, shown);
      expect(shown).toMatchObject({ status: 'paid', amountCredited: '59.50', creditNoteIds: [creditNote.id] });
      expect(await c.lastEvent('invoice.paid')).toEqual(shown);
    });

    it('answers a refund with the invoice a GET shows after it, as is its invoice.refunded event', async () => {
      const c = await company();
      const invoice = await c.issue();
      await c.post(`/invoice/${invoice.id}/payment`, { amount: '119.00' });
      await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      const answer = await c.post(`/invoice/${invoice.id}/refund`, { amount: '20.00', method: 'card' });
      const shown = await c.get(invoice.id);
      expectSame(answer, shown);
      expect(shown).toMatchObject({ status: 'paid', amountRefunded: '20.00', amountDue: '-39.50' });
      expect((shown.refunds as Body[]).map((r) => r.method)).toEqual(['card']);
      expect(await c.lastEvent('invoice.refunded')).toEqual(shown);
    });

    it('answers a payment and a refund with an Idempotency-Key, written in its transaction, as a GET shows them, and replays them', async () => {
      const c = await company();
      const invoice = await c.issue();
      const paying = () =>
        c.request(`/invoice/${invoice.id}/payment`, { amount: '119.00' }, { 'idempotency-key': 'pay-1' });
      const paid = await paying();
      expect(paid.statusCode, paid.body).toBe(201);
      expectSame(paid.json().data, await c.get(invoice.id));
      await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      const refunded = await c.request(
        `/invoice/${invoice.id}/refund`,
        { amount: '9.50' },
        { 'idempotency-key': 'rfd-1' },
      );
      expect(refunded.statusCode, refunded.body).toBe(201);
      const shown = await c.get(invoice.id);
      expectSame(refunded.json().data, shown);
      const replayed = await paying();
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      expect(replayed.json().data).toEqual(paid.json().data);
      expect(shown).toMatchObject({ amountPaid: '119.00', amountRefunded: '9.50', payments: [{ amount: '119.00' }] });
    });

    it('answers each of racing payments with the state it was written on, and records events of the winners only', async () => {
      const c = await company();
      const invoice = await c.issue();
      // 30.00 × 3 = 90.00 of 119.00 fit; the losers are refused on the state the winners left.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () => c.request(`/invoice/${invoice.id}/payment`, { amount: '30.00' })),
      );
      const taken = answers.filter((res) => res.statusCode === 201).map((res) => res.json().data as Body);
      expect(taken).toHaveLength(3);
      expect(taken.map((answer) => answer.amountPaid).sort()).toEqual(['30.00', '60.00', '90.00']);
      for (const answer of taken) expect(answer.payments).toHaveLength(Number(answer.amountPaid) / 30);
      const shown = await c.get(invoice.id);
      expectSame(
        taken.find((answer) => answer.amountPaid === '90.00'),
        shown,
      );
      const events = (await t.get(`/event?limit=100&type=payment.created`, c.key)).json().data.items as EventAnswer[];
      expect(events.filter((event) => event.data.object.invoiceId === invoice.id)).toHaveLength(3);
    });

    it('answers a void with the invoice a GET shows after it, as is its invoice.voided event', async () => {
      const c = await company();
      const invoice = await c.issue();
      await c.post('/credit-note', { invoiceId: invoice.id, reason: 'One hour', lines: ONE_UNIT });
      const answer = await c.post(`/invoice/${invoice.id}/void`);
      const shown = await c.get(invoice.id);
      expectSame(answer, shown);
      expect(shown).toMatchObject({ status: 'void', amountCredited: '119.00' });
      expect(shown.creditNoteIds).toHaveLength(2);
      expect(await c.lastEvent('invoice.voided')).toEqual(shown);
    });
  });
}
