import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// Refunds: after credit notes on a paid invoice the buyer is owed money (amountDue < 0); a refund
// records it paid back, never more than is owed, also when refunds race.

type Body = Record<string, unknown>;

// 2 × 50 at 19 %: 119.00; one unit credited: 59.50.
const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];
const ONE_UNIT = [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`refunds on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    async function company() {
      const { companyId, key } = await t.tenant();
      const buyer = (await t.post('/organization', { name: 'Refunded Buyer', isCustomer: true }, key)).json().data;
      const post = (path: string, body?: Body, headers: Record<string, string> = {}) =>
        t.request({
          method: 'POST',
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key, ...headers },
          ...(body ? { payload: body } : {}),
        });
      const issue = async (body: Body = {}) =>
        (await t.post('/invoice', { organizationId: buyer.id, lines: LINES, ...body }, key)).json().data;
      const refund = (id: string, amount: string | number, extra: Body = {}, headers: Record<string, string> = {}) =>
        post(`/invoice/${id}/refund`, { amount, ...extra }, headers);
      /** An invoice paid in full, then credited one unit: the buyer is owed 59.50. */
      const owing = async () => {
        const invoice = await issue();
        expect((await post(`/invoice/${invoice.id}/payment`, { amount: '119.00' })).statusCode).toBe(201);
        expect(
          (await post('/credit-note', { invoiceId: invoice.id, reason: 'One hour not delivered', lines: ONE_UNIT }))
            .statusCode,
        ).toBe(201);
        return invoice;
      };
      const get = async (id: string) => (await t.get(`/invoice/${id}`, key)).json().data;
      return { companyId, key, post, issue, refund, owing, get };
    }

    it('records a refund of what the buyer is owed: amountDue reaches 0 and the invoice lists it', async () => {
      const c = await company();
      const invoice = await c.owing();
      expect(await c.get(invoice.id)).toMatchObject({
        status: 'paid',
        amountPaid: '119.00',
        amountCredited: '59.50',
        amountRefunded: '0.00',
        amountDue: '-59.50',
        refunds: [],
      });

      const res = await c.refund(invoice.id, '59.50', {
        date: '2026-05-04',
        method: 'credit_transfer',
        reference: 'Refund CN 1',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().message).toBe(`Refund recorded on invoice ${invoice.number}.`);
      const refunded = res.json().data;
      expect(refunded).toMatchObject({
        status: 'paid',
        amountPaid: '119.00',
        amountCredited: '59.50',
        amountRefunded: '59.50',
        amountDue: '0.00',
      });
      expect(refunded.refunds).toEqual([
        {
          id: expect.stringMatching(/^rfd_/),
          livemode: true,
          amount: '59.50',
          date: '2026-05-04',
          method: 'credit_transfer',
          reference: 'Refund CN 1',
          createdAt: expect.any(String),
        },
      ]);
      // The payment stays a payment; the refund is not one of them.
      expect(refunded.payments).toHaveLength(1);
      expect(await c.get(invoice.id)).toEqual(refunded);
    });

    it('records the invoice.refunded event with the invoice as it was answered', async () => {
      const c = await company();
      const invoice = await c.owing();
      const refunded = (await c.refund(invoice.id, '20')).json().data;
      const events = (await t.get('/event?type=invoice.refunded', c.key)).json().data.items;
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ type: 'invoice.refunded', data: { object: refunded } });
      expect(refunded).toMatchObject({ amountRefunded: '20.00', amountDue: '-39.50' });
    });

    it('refuses a refund above what the buyer is owed, naming that amount in the message and the detail', async () => {
      const c = await company();
      const invoice = await c.owing();
      const res = await c.refund(invoice.id, '59.51');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({
        code: 'REFUND_EXCEEDS_AMOUNT_OWED',
        message: 'The refund of 59.51 is more than the buyer is owed: at most 59.50 can be refunded.',
        details: [
          {
            field: 'amount',
            code: 'exceeds_amount_owed',
            message: 'At most 59.50 (what the buyer is owed).',
            maximum: '59.50',
          },
        ],
      });
      expect((await c.get(invoice.id)).amountRefunded).toBe('0.00');
    });

    it('refuses any refund of an invoice that owes the buyer nothing, naming 0 as the most', async () => {
      const c = await company();
      const unpaid = await c.issue();
      const res = await c.refund(unpaid.id, '1');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'REFUND_EXCEEDS_AMOUNT_OWED', details: [{ maximum: '0.00' }] });
      const paid = await c.issue();
      await c.post(`/invoice/${paid.id}/payment`, { amount: '119.00' });
      expect((await c.refund(paid.id, '0.01')).json().error).toMatchObject({
        code: 'REFUND_EXCEEDS_AMOUNT_OWED',
        details: [{ maximum: '0.00' }],
      });
    });

    it('refunds no more than was paid: an invoice whose negative lines leave the buyer owed with nothing paid is voided, not refunded', async () => {
      const c = await company();
      const negative = await c.issue({
        lines: [{ name: 'Returned goods', quantity: '-1', unitPrice: '10', vatRate: '19' }],
      });
      expect(negative.amountDue).toBe('-11.90');
      const res = await c.refund(negative.id, '11.90');
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toMatchObject({ code: 'REFUND_EXCEEDS_AMOUNT_OWED', details: [{ maximum: '0.00' }] });
      expect(await c.get(negative.id)).toMatchObject({
        status: 'issued',
        amountRefunded: '0.00',
        statusTransitions: { voidedAt: null },
      });
      expect((await c.post(`/invoice/${negative.id}/void`)).json().data).toMatchObject({
        status: 'void',
        amountDue: '0.00',
      });
    });

    it('takes no refund on a draft or a void invoice: 409 INVOICE_NOT_REFUNDABLE', async () => {
      const c = await company();
      const draft = await c.issue({ status: 'draft' });
      const onDraft = await c.refund(draft.id, '1');
      expect(onDraft.statusCode).toBe(409);
      expect(onDraft.json().error).toEqual({
        code: 'INVOICE_NOT_REFUNDABLE',
        message: 'The invoice cannot take a refund: it is a draft or void, so nothing was paid on it.',
      });
      const voided = await c.issue();
      await c.post(`/invoice/${voided.id}/void`);
      expect((await c.refund(voided.id, '1')).json().error.code).toBe('INVOICE_NOT_REFUNDABLE');
      expect((await c.refund('inv_nope', '1')).json().error).toMatchObject({
        code: 'NOT_FOUND',
        message: 'No invoice with this id.',
      });
    });

    it('refuses an amount of nothing, with more decimals than the currency has, or above the largest amount there is', async () => {
      const c = await company();
      const invoice = await c.owing();
      expect((await c.refund(invoice.id, '0')).json().error.details).toEqual([
        { field: 'amount', code: 'not_positive', message: expect.any(String) },
      ]);
      expect((await c.refund(invoice.id, '1.001')).json().error.details[0]).toMatchObject({
        field: 'amount',
        code: 'too_many_decimals',
      });
      const huge = await c.refund(invoice.id, '1000000000000000');
      expect(huge.statusCode).toBe(400);
      expect(huge.json().error.details).toEqual([
        {
          field: 'amount',
          code: 'too_large',
          message: 'Must be at most 999999999999999.99, the largest amount there is.',
          maximum: '999999999999999.99',
        },
      ]);
    });

    it('never refunds more than is owed when refunds race: of ten refunds of everything owed exactly one is recorded', async () => {
      const c = await company();
      const invoice = await c.owing();
      const answers = await Promise.all(Array.from({ length: 10 }, () => c.refund(invoice.id, '59.50')));
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array(9).fill(409)]);
      for (const losing of answers.filter((a) => a.statusCode === 409))
        expect(losing.json().error).toMatchObject({
          code: 'REFUND_EXCEEDS_AMOUNT_OWED',
          details: [{ maximum: '0.00' }],
        });
      const after = await c.get(invoice.id);
      expect(after).toMatchObject({ amountRefunded: '59.50', amountDue: '0.00' });
      expect(after.refunds).toHaveLength(1);
    });

    it('never refunds more than is owed when partial refunds race: their sum stays within what is owed', async () => {
      const c = await company();
      const invoice = await c.owing();
      const answers = await Promise.all(Array.from({ length: 8 }, () => c.refund(invoice.id, '20.00')));
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
      const after = await c.get(invoice.id);
      expect(after).toMatchObject({ amountRefunded: '40.00', amountDue: '-19.50' });
    });

    it('answers a repeated refund with the same Idempotency-Key once, and records it once', async () => {
      const c = await company();
      const invoice = await c.owing();
      const headers = { 'idempotency-key': 'refund-4711' };
      const first = await c.refund(invoice.id, '10', {}, headers);
      const again = await c.refund(invoice.id, '10', {}, headers);
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
      expect((await c.get(invoice.id)).refunds).toHaveLength(1);
      expect((await c.refund(invoice.id, '11', {}, headers)).json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    });

    it('keeps test mode and other tenants apart: a refund reaches only an invoice of its own company and mode', async () => {
      const c = await company();
      const invoice = await c.owing();
      const other = await t.tenant();
      expect((await t.post(`/invoice/${invoice.id}/refund`, { amount: '1' }, other.key)).statusCode).toBe(404);
      const testKey = (await t.createKey(c.companyId, ['payment.create', 'invoice.read'], { mode: 'test' })).key;
      expect((await t.post(`/invoice/${invoice.id}/refund`, { amount: '1' }, testKey)).statusCode).toBe(404);
      expect((await c.get(invoice.id)).amountRefunded).toBe('0.00');
    });

    it('needs payment.create', async () => {
      const c = await company();
      const invoice = await c.owing();
      const reader = (await t.createKey(c.companyId, ['invoice.read', 'payment.read'])).key;
      expect((await t.post(`/invoice/${invoice.id}/refund`, { amount: '1' }, reader)).json().error.code).toBe(
        'FORBIDDEN',
      );
    });
  });
}
