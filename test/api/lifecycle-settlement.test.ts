import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { MODES, numberPrefix } from '../helpers/modes.js';

// Payments, credit notes and voiding: amounts stay exact (amountDue = payable − credited − paid),
// statuses follow the rules, and racing changes never overpay or over-credit.

type Body = Record<string, unknown>;

const LINES = [
  { name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' },
  { name: 'Books', quantity: '3', unitPrice: '10', vatRate: '7' },
];
const year = () => new Date().toISOString().slice(0, 4);

for (const dialect of DIALECTS)
  for (const mode of MODES) {
    describe(`payments, credit notes and voiding on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;

      beforeAll(async () => {
        t = await buildTestApp(dialect);
      });
      afterAll(async () => t.close());

      async function company(currency = 'EUR') {
        const { companyId, key } = await t.tenant(undefined, { mode });
        const buyer = (await t.post('/organization', { name: 'Paying Buyer', isCustomer: true }, key)).json().data;
        const post = (path: string, body?: Body, headers: Record<string, string> = {}) =>
          t.request({
            method: 'POST',
            url: `${BASE_PATH}${path}`,
            headers: { 'x-api-key': key, ...headers },
            ...(body ? { payload: body } : {}),
          });
        const issue = async (body: Body = {}) => {
          const res = await t.post('/invoice', { organizationId: buyer.id, currency, lines: LINES, ...body }, key);
          expect(res.statusCode, res.body).toBe(201);
          return res.json().data;
        };
        const pay = (id: string, amount: string | number, extra: Body = {}) =>
          post(`/invoice/${id}/payment`, { amount, ...extra });
        const credit = (invoiceId: string, extra: Body = {}) =>
          post('/credit-note', { invoiceId, reason: 'Returned goods', ...extra });
        const get = async (id: string) => (await t.get(`/invoice/${id}`, key)).json().data;
        return { companyId, key, buyer, post, issue, pay, credit, get };
      }

      // 2 × 50 at 19 % and 3 × 10 at 7 %: 100 + 19 + 30 + 2.10 = 151.10
      const PAYABLE = '151.10';

      it('records a partial payment, then the rest: issued, then paid with paidAt', async () => {
        const c = await company();
        const invoice = await c.issue();
        expect(invoice.totals.payable).toBe(PAYABLE);
        const first = await c.pay(invoice.id, '100.10', { reference: 'SEPA 1', method: 'card', date: '2026-05-01' });
        expect(first.statusCode, first.body).toBe(201);
        expect(first.json().data).toMatchObject({
          status: 'issued',
          amountPaid: '100.10',
          amountDue: '51.00',
          statusTransitions: { paidAt: null },
        });
        expect(first.json().data.payments).toEqual([
          {
            id: expect.stringMatching(/^pay_/),
            amount: '100.10',
            date: '2026-05-01',
            method: 'card',
            reference: 'SEPA 1',
            createdAt: expect.any(String),
            livemode: mode === 'live',
          },
        ]);
        const rest = (await c.pay(invoice.id, 51)).json().data;
        expect(rest).toMatchObject({ status: 'paid', amountPaid: PAYABLE, amountDue: '0.00', isOverdue: false });
        expect(rest.payments[1]).toMatchObject({
          amount: '51.00',
          method: 'credit_transfer',
          date: new Date().toISOString().slice(0, 10),
          reference: null,
        });
        expect(rest.statusTransitions.paidAt).not.toBeNull();
        expect(await c.get(invoice.id)).toEqual(rest);
      });

      it('refuses a payment over the amount due, of nothing, or with more decimals than the currency has', async () => {
        const c = await company();
        const invoice = await c.issue();
        expect((await c.pay(invoice.id, '151.11')).json().error.code).toBe('PAYMENT_EXCEEDS_AMOUNT_DUE');
        const zero = await c.pay(invoice.id, '0');
        expect(zero.statusCode).toBe(400);
        expect(zero.json().error.details).toEqual([
          { field: 'amount', code: 'not_positive', message: expect.any(String) },
        ]);
        expect((await c.pay(invoice.id, '1.001')).json().error.details[0]).toMatchObject({
          field: 'amount',
          code: 'too_many_decimals',
        });
        const yen = await company('JPY');
        const jpy = await yen.issue({ lines: [{ name: 'Item', quantity: '1', unitPrice: '1000', vatRate: '10' }] });
        expect((await yen.pay(jpy.id, '0.5')).json().error.details[0]).toMatchObject({
          field: 'amount',
          code: 'too_many_decimals',
        });
        expect((await yen.pay(jpy.id, '1100')).json().data).toMatchObject({
          status: 'paid',
          amountPaid: '1100',
          amountDue: '0',
        });
        expect((await c.get(invoice.id)).amountPaid).toBe('0.00');
      });

      it('takes no payment on a draft or a void invoice: 409 INVOICE_NOT_PAYABLE', async () => {
        const c = await company();
        const draft = await c.issue({ status: 'draft' });
        expect((await c.pay(draft.id, '1')).json().error.code).toBe('INVOICE_NOT_PAYABLE');
        const voided = await c.issue();
        expect((await c.post(`/invoice/${voided.id}/void`)).statusCode).toBe(200);
        expect((await c.pay(voided.id, '1')).json().error.code).toBe('INVOICE_NOT_PAYABLE');
      });

      it('lets exactly one of ten parallel payments of the full amount through', async () => {
        const c = await company();
        const invoice = await c.issue();
        const answers = await Promise.all(Array.from({ length: 10 }, () => c.pay(invoice.id, PAYABLE)));
        expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(1);
        expect(
          answers
            .filter((a) => a.statusCode === 409)
            .every((a) => a.json().error.code === 'PAYMENT_EXCEEDS_AMOUNT_DUE'),
        ).toBe(true);
        const final = await c.get(invoice.id);
        expect(final).toMatchObject({ status: 'paid', amountPaid: PAYABLE, amountDue: '0.00' });
        expect(final.payments).toHaveLength(1);
      });

      it('never overpays with parallel partial payments: exactly as many as fit are taken', async () => {
        const c = await company();
        const invoice = await c.issue();
        // 30.22 × 5 = 151.10: ten parallel payments of 30.22, five fit.
        const answers = await Promise.all(Array.from({ length: 10 }, () => c.pay(invoice.id, '30.22')));
        expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(5);
        expect(await c.get(invoice.id)).toMatchObject({ status: 'paid', amountPaid: PAYABLE, amountDue: '0.00' });
      });

      it('credits an invoice in full without lines: CN numbered from its own sequence, positive amounts, the invoice void', async () => {
        const c = await company();
        const invoice = await c.issue();
        const res = await c.credit(invoice.id);
        expect(res.statusCode, res.body).toBe(201);
        const note = res.json().data;
        expect(note).toMatchObject({
          number: `${numberPrefix(mode)}CN-${year()}-00001`,
          invoiceId: invoice.id,
          invoiceNumber: invoice.number,
          reason: 'Returned goods',
          currency: 'EUR',
          buyer: invoice.buyer,
          seller: invoice.seller,
          totals: invoice.totals,
          vatBreakdown: invoice.vatBreakdown,
        });
        expect(note.lines).toEqual(invoice.lines);
        const after = await c.get(invoice.id);
        expect(after).toMatchObject({
          status: 'void',
          amountCredited: PAYABLE,
          amountDue: '0.00',
          creditNoteIds: [note.id],
        });
        expect(after.statusTransitions.voidedAt).not.toBeNull();
        expect((await t.get(`/credit-note/${note.id}`, c.key)).json().data).toEqual(note);
        // The invoice's own sequence is untouched.
        expect((await c.issue()).number).toBe(`${numberPrefix(mode)}${year()}-00002`);
      });

      it('credits part of an invoice: the invoice stays issued with less due; a paid invoice credited owes a refund', async () => {
        const c = await company();
        const invoice = await c.issue();
        const note = (
          await c.credit(invoice.id, { lines: [{ name: 'Books', quantity: '1', unitPrice: '10', vatRate: '7' }] })
        ).json().data;
        expect(note.totals.payable).toBe('10.70');
        expect(await c.get(invoice.id)).toMatchObject({
          status: 'issued',
          amountCredited: '10.70',
          amountDue: '140.40',
        });
        expect((await c.pay(invoice.id, '140.40')).json().data).toMatchObject({ status: 'paid', amountDue: '0.00' });
        const refund = (
          await c.credit(invoice.id, { lines: [{ name: 'Books', quantity: '1', unitPrice: '10', vatRate: '7' }] })
        ).json().data;
        expect(refund.number).toBe(`${numberPrefix(mode)}CN-${year()}-00002`);
        expect(await c.get(invoice.id)).toMatchObject({ status: 'paid', amountCredited: '21.40', amountDue: '-10.70' });
      });

      it('refuses credit beyond the payable amount, on drafts and void invoices, and for unknown invoices', async () => {
        const c = await company();
        const invoice = await c.issue();
        const tooMuch = await c.credit(invoice.id, {
          lines: [{ name: 'Consulting', quantity: '3', unitPrice: '50', vatRate: '19' }],
        });
        expect(tooMuch.statusCode).toBe(409);
        expect(tooMuch.json().error.code).toBe('CREDIT_EXCEEDS_INVOICE');
        const draft = await c.issue({ status: 'draft' });
        expect((await c.credit(draft.id)).json().error.code).toBe('INVOICE_NOT_CREDITABLE');
        await c.credit(invoice.id);
        expect((await c.credit(invoice.id)).json().error.code).toBe('INVOICE_NOT_CREDITABLE');
        const other = await company();
        const foreign = await other.credit(invoice.id);
        expect(foreign.statusCode).toBe(400);
        expect(foreign.json().error.code).toBe('INVOICE_NOT_FOUND');
        const negative = await c.credit((await c.issue()).id, {
          lines: [{ name: 'Back', quantity: '-1', unitPrice: '10', vatRate: '19' }],
        });
        expect(negative.json().error.details).toEqual([
          { field: 'lines', code: 'not_positive', message: expect.any(String) },
        ]);
      });

      it('never over-credits with parallel credit notes', async () => {
        const c = await company();
        const invoice = await c.issue();
        const answers = await Promise.all(
          Array.from({ length: 8 }, () =>
            c.credit(invoice.id, { lines: [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }] }),
          ),
        );
        // 59.50 each: two fit into 151.10.
        expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(2);
        const numbers = answers
          .filter((a) => a.statusCode === 201)
          .map((a) => a.json().data.number)
          .sort();
        expect(numbers).toEqual([`${numberPrefix(mode)}CN-${year()}-00001`, `${numberPrefix(mode)}CN-${year()}-00002`]);
        expect(await c.get(invoice.id)).toMatchObject({
          status: 'issued',
          amountCredited: '119.00',
          amountDue: '32.10',
        });
      });

      it('voids an issued invoice with a credit note for the remaining amount, also after a partial credit', async () => {
        const c = await company();
        const whole = await c.issue();
        const voided = (await c.post(`/invoice/${whole.id}/void`)).json().data;
        expect(voided).toMatchObject({ status: 'void', amountCredited: PAYABLE, amountDue: '0.00' });
        expect(voided.creditNoteIds).toHaveLength(1);
        const note = (await t.get(`/credit-note/${voided.creditNoteIds[0]}`, c.key)).json().data;
        expect(note.totals.payable).toBe(PAYABLE);
        expect(note.reason).toContain(whole.number);

        const partly = await c.issue();
        await c.credit(partly.id, { lines: [{ name: 'Books', quantity: '1', unitPrice: '10', vatRate: '7' }] });
        const rest = (await c.post(`/invoice/${partly.id}/void`)).json().data;
        expect(rest).toMatchObject({ status: 'void', amountCredited: PAYABLE, amountDue: '0.00' });
        const second = (await t.get(`/credit-note/${rest.creditNoteIds[1]}`, c.key)).json().data;
        expect(second.totals.payable).toBe('140.40');
        expect(second.lines.map((l: { name: string; quantity: string }) => `${l.name} ${l.quantity}`)).toEqual([
          'Consulting 2',
          'Books 3',
          'Books -1',
        ]);
      });

      it('voids an invoice with nothing due (a free sample) or less than nothing (a negative line outweighs the rest)', async () => {
        const c = await company();
        const free = await c.issue({ lines: [{ name: 'Free sample', quantity: '1', unitPrice: '0', vatRate: '19' }] });
        expect(free).toMatchObject({ status: 'issued', amountDue: '0.00' });
        const voidedFree = await c.post(`/invoice/${free.id}/void`);
        expect(voidedFree.statusCode, voidedFree.body).toBe(200);
        expect(voidedFree.json().data).toMatchObject({ status: 'void', amountCredited: '0.00', amountDue: '0.00' });
        const zeroNote = (await t.get(`/credit-note/${voidedFree.json().data.creditNoteIds[0]}`, c.key)).json().data;
        expect(zeroNote.totals.payable).toBe('0.00');

        const negative = await c.issue({
          lines: [
            { name: 'Deposit returned', quantity: '-1', unitPrice: '100', vatRate: '19' },
            { name: 'Cleaning', quantity: '1', unitPrice: '10', vatRate: '19' },
          ],
        });
        expect(negative.amountDue).toBe('-107.10');
        const voidedNegative = (await c.post(`/invoice/${negative.id}/void`)).json().data;
        expect(voidedNegative).toMatchObject({ status: 'void', amountCredited: '-107.10', amountDue: '0.00' });
      });

      it('refuses to void a draft, a void invoice and an invoice with payments', async () => {
        const c = await company();
        const draft = await c.issue({ status: 'draft' });
        expect((await c.post(`/invoice/${draft.id}/void`)).json().error.code).toBe('INVOICE_NOT_ISSUED');
        const invoice = await c.issue();
        await c.post(`/invoice/${invoice.id}/void`);
        expect((await c.post(`/invoice/${invoice.id}/void`)).json().error.code).toBe('INVOICE_ALREADY_VOID');
        const paid = await c.issue();
        await c.pay(paid.id, '1');
        const refused = await c.post(`/invoice/${paid.id}/void`);
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.code).toBe('INVOICE_HAS_PAYMENTS');
      });

      it('keeps the invoice consistent when a void races a payment: exactly one of them wins', async () => {
        for (let round = 0; round < 5; round++) {
          const c = await company();
          const invoice = await c.issue();
          const [voided, paid] = await Promise.all([c.post(`/invoice/${invoice.id}/void`), c.pay(invoice.id, '10')]);
          const final = await c.get(invoice.id);
          if (voided.statusCode === 200) {
            expect(paid.statusCode).toBe(409);
            expect(final).toMatchObject({ status: 'void', amountPaid: '0.00', amountDue: '0.00', payments: [] });
          } else {
            expect(paid.statusCode).toBe(201);
            expect(voided.json().error.code).toBe('INVOICE_HAS_PAYMENTS');
            expect(final).toMatchObject({
              status: 'issued',
              amountPaid: '10.00',
              amountDue: '141.10',
              creditNoteIds: [],
            });
          }
        }
      });

      it('flags an issued invoice past its due date as overdue and lists it with overdue=true', async () => {
        const c = await company();
        const late = await c.issue({ issueDate: '2020-01-01', dueDate: '2020-01-31' });
        const onTime = await c.issue({ issueDate: '2020-01-01', dueDate: '2999-01-31' });
        const paidLate = await c.issue({ issueDate: '2020-01-01', dueDate: '2020-01-31' });
        await c.pay(paidLate.id, PAYABLE);
        expect(late.isOverdue).toBe(true);
        expect(onTime.isOverdue).toBe(false);
        expect((await c.get(paidLate.id)).isOverdue).toBe(false);
        const overdue = (await t.get('/invoice?overdue=true', c.key))
          .json()
          .data.items.map((i: { id: string }) => i.id);
        expect(overdue).toEqual([late.id]);
        const notOverdue = (await t.get('/invoice?overdue=false', c.key))
          .json()
          .data.items.map((i: { id: string }) => i.id);
        expect(notOverdue.sort()).toEqual([onTime.id, paidLate.id].sort());
      });

      it('lists credit notes newest first, filtered by invoice, and hides other companies', async () => {
        const c = await company();
        const a = await c.issue();
        const b = await c.issue();
        const one = (
          await c.credit(a.id, { lines: [{ name: 'Books', quantity: '1', unitPrice: '10', vatRate: '7' }] })
        ).json().data;
        const two = (await c.credit(b.id)).json().data;
        const list = async (query = '', key = c.key) =>
          (await t.get(`/credit-note${query}`, key)).json().data.items.map((n: { id: string }) => n.id);
        expect(await list()).toEqual([two.id, one.id]);
        expect(await list(`?invoiceId=${a.id}`)).toEqual([one.id]);
        const other = await company();
        expect(await list('', other.key)).toEqual([]);
        expect((await t.get(`/credit-note/${one.id}`, other.key)).statusCode).toBe(404);
      });

      it('replays a payment sent again with the same Idempotency-Key and records it once', async () => {
        const c = await company();
        const invoice = await c.issue();
        const first = await c.post(`/invoice/${invoice.id}/payment`, { amount: '10' }, { 'idempotency-key': 'pay-1' });
        const again = await c.post(`/invoice/${invoice.id}/payment`, { amount: '10' }, { 'idempotency-key': 'pay-1' });
        expect(again.headers['idempotent-replayed']).toBe('true');
        expect(again.json().data).toEqual(first.json().data);
        expect((await c.get(invoice.id)).payments).toHaveLength(1);
      });
    });
  }
