import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// GET /payment and GET /payment/{id}: payments and refunds across invoices, newest first, paged
// by cursor, filtered by invoice, kind and date; scoped by company and mode.

const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`listing payments and refunds on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let companyId: string;
    let first: { id: string; number: string };
    let second: { id: string; number: string };
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key, companyId } = await t.tenant());
      const buyer = (await t.post('/organization', { name: 'Listed Buyer', isCustomer: true }, key)).json().data;
      const issue = async () => (await t.post('/invoice', { organizationId: buyer.id, lines: LINES }, key)).json().data;
      first = await issue();
      second = await issue();
      const pay = async (id: string, amount: string, date: string) =>
        (await t.post(`/invoice/${id}/payment`, { amount, date }, key)).json().data;
      ids.firstPayment = (await pay(first.id, '100.00', '2026-04-01')).payments[0].id;
      ids.secondPayment = (await pay(first.id, '19.00', '2026-04-10')).payments[1].id;
      ids.thirdPayment = (await pay(second.id, '119.00', '2026-04-20')).payments[0].id;
      await t.post(
        '/credit-note',
        {
          invoiceId: first.id,
          reason: 'Discount agreed',
          lines: [{ name: 'Discount', quantity: '1', unitPrice: '10', vatRate: '19' }],
        },
        key,
      );
      ids.refund = (
        await t.post(
          `/invoice/${first.id}/refund`,
          { amount: '11.90', date: '2026-04-25', reference: 'Back to you' },
          key,
        )
      ).json().data.refunds[0].id;
    });
    afterAll(async () => t.close());

    const list = async (query = '', withKey = key) => {
      const res = await t.get(`/payment${query}`, withKey);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: Record<string, unknown>[]; nextCursor: string | null };
    };

    it('lists payments and refunds newest first, each with its kind, invoice and currency', async () => {
      const page = await list();
      expect(page.items.map((p) => p.id)).toEqual([ids.refund, ids.thirdPayment, ids.secondPayment, ids.firstPayment]);
      expect(page.nextCursor).toBeNull();
      expect(page.items[0]).toEqual({
        id: ids.refund,
        kind: 'refund',
        invoiceId: first.id,
        invoiceNumber: first.number,
        currency: 'EUR',
        livemode: true,
        amount: '11.90',
        date: '2026-04-25',
        method: 'credit_transfer',
        reference: 'Back to you',
        createdAt: expect.any(String),
      });
      expect(page.items[1]).toMatchObject({
        kind: 'payment',
        invoiceId: second.id,
        amount: '119.00',
        date: '2026-04-20',
      });
    });

    it('filters by invoice, by kind and by the day the money moved', async () => {
      expect((await list(`?invoiceId=${first.id}`)).items.map((p) => p.id)).toEqual([
        ids.refund,
        ids.secondPayment,
        ids.firstPayment,
      ]);
      expect((await list('?kind=refund')).items.map((p) => p.id)).toEqual([ids.refund]);
      expect((await list('?kind=payment')).items.map((p) => p.id)).toEqual([
        ids.thirdPayment,
        ids.secondPayment,
        ids.firstPayment,
      ]);
      expect((await list('?dateFrom=2026-04-10&dateTo=2026-04-20')).items.map((p) => p.id)).toEqual([
        ids.thirdPayment,
        ids.secondPayment,
      ]);
      expect((await list(`?invoiceId=${second.id}&kind=refund`)).items).toEqual([]);
    });

    it('pages with the cursor, never repeating or skipping one', async () => {
      const seen: unknown[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.items.length).toBe(1);
        seen.push(page.items[0]!.id);
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual([ids.refund, ids.thirdPayment, ids.secondPayment, ids.firstPayment]);
    });

    it('refuses unknown kinds, bad dates, bad cursors and unknown parameters with 400', async () => {
      for (const query of ['?kind=chargeback', '?dateFrom=2026-13-01', '?cursor=nope', '?status=paid']) {
        const res = await t.get(`/payment${query}`, key);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('reads one payment or refund by id', async () => {
      const payment = await t.get(`/payment/${ids.firstPayment}`, key);
      expect(payment.statusCode).toBe(200);
      expect(payment.json()).toMatchObject({
        message: 'Payment found.',
        data: { id: ids.firstPayment, kind: 'payment', amount: '100.00', invoiceNumber: first.number },
      });
      expect((await t.get(`/payment/${ids.refund}`, key)).json()).toMatchObject({
        message: 'Refund found.',
        data: { kind: 'refund' },
      });
      expect((await t.get('/payment/pay_missing', key)).json().error).toEqual({
        code: 'NOT_FOUND',
        message: 'No payment or refund with this id.',
      });
    });

    it("shows another company's and test mode's payments to nobody else: lists are empty, ids are 404", async () => {
      const other = await t.tenant();
      expect((await list('', other.key)).items).toEqual([]);
      expect((await t.get(`/payment/${ids.firstPayment}`, other.key)).statusCode).toBe(404);
      const testKey = (await t.createKey(companyId, ['payment.read'], { mode: 'test' })).key;
      expect((await list('', testKey)).items).toEqual([]);
      expect((await t.get(`/payment/${ids.firstPayment}`, testKey)).statusCode).toBe(404);
    });

    it('needs payment.read', async () => {
      const writer = (await t.createKey(companyId, ['payment.create', 'invoice.read'])).key;
      expect((await t.get('/payment', writer)).json().error.code).toBe('FORBIDDEN');
      expect((await t.get(`/payment/${ids.firstPayment}`, writer)).json().error.code).toBe('FORBIDDEN');
    });
  });
}
