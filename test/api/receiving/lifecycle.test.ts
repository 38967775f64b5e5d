import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import { receive, supplierDocument, type SupplierDocument } from '../../helpers/purchase-documents.js';

// A purchase invoice's life: received → approved or disputed → paid, by payments (partial or
// full, never more than is due, also when they race) and by the supplier's credit notes, which
// reduce what we owe; with its events; and the list with its filters and pages.

type Json = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`a purchase invoice's life on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const send = (key: string, method: 'GET' | 'POST', path: string, body?: Json) =>
      t.request({
        method,
        url: `${BASE_PATH}${path}`,
        headers: { 'x-api-key': key },
        ...(body ? { payload: body } : {}),
      });
    const received = async (key: string, document: SupplierDocument = {}) => {
      const res = await receive(t, key, supplierDocument(document));
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as Json & { id: string };
    };
    const eventTypes = async (key: string) =>
      ((await send(key, 'GET', '/event?type=purchase_invoice.*')).json().data.items as { type: string }[])
        .map((e) => e.type)
        .reverse();

    it('is approved, disputed with a reason and approved again, each with its event; a paid one is neither', async () => {
      const { key } = await t.tenant();
      const invoice = await received(key, { price: '100' });
      const approved = await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`);
      expect(approved.statusCode).toBe(200);
      expect(approved.json().data).toMatchObject({ state: 'approved', approvedAt: expect.any(String) });
      // Approving an approved one changes nothing.
      expect((await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`)).json().data.state).toBe('approved');
      const blank = await send(key, 'POST', `/purchase-invoice/${invoice.id}/dispute`, { reason: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().error.details[0]).toMatchObject({ field: 'reason', code: 'required' });
      const disputed = await send(key, 'POST', `/purchase-invoice/${invoice.id}/dispute`, {
        reason: 'Only three chairs arrived.',
      });
      expect(disputed.json().data).toMatchObject({ state: 'disputed', disputeReason: 'Only three chairs arrived.' });
      const refused = await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '10.00' });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'PURCHASE_INVOICE_NOT_PAYABLE',
        message: 'Purchase invoice R-1001 is disputed: approve it before paying it.',
      });
      expect((await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`)).json().data).toMatchObject({
        state: 'approved',
        disputeReason: null,
      });
      const paid = await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, {
        amount: '119.00',
        date: '2026-03-20',
      });
      expect(paid.statusCode).toBe(201);
      expect(paid.json().data).toMatchObject({
        state: 'paid',
        amountPaid: '119.00',
        amountDue: '0.00',
        paidAt: expect.any(String),
      });
      expect((await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`)).json().error.code).toBe(
        'PURCHASE_INVOICE_NOT_APPROVABLE',
      );
      expect(
        (await send(key, 'POST', `/purchase-invoice/${invoice.id}/dispute`, { reason: 'Too late' })).json().error.code,
      ).toBe('PURCHASE_INVOICE_NOT_DISPUTABLE');
      expect(await eventTypes(key)).toEqual([
        'purchase_invoice.received',
        'purchase_invoice.approved',
        'purchase_invoice.disputed',
        'purchase_invoice.approved',
        'purchase_invoice.paid',
      ]);
    });

    it('takes partial payments in exact decimals up to what is due, and refuses more, naming what is due', async () => {
      const { key } = await t.tenant();
      const invoice = await received(key, { price: '100' });
      expect(
        (await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '1.00' })).json().error.message,
      ).toBe('Purchase invoice R-1001 is received: approve it before paying it.');
      await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`);
      const first = await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, {
        amount: '0.1',
        reference: 'SEPA 1',
      });
      expect(first.statusCode).toBe(201);
      expect(first.json().data).toMatchObject({
        state: 'approved',
        amountPaid: '0.10',
        amountDue: '118.90',
        payments: [{ amount: '0.10', method: 'credit_transfer', reference: 'SEPA 1' }],
      });
      const tooMuch = await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '118.91' });
      expect(tooMuch.statusCode).toBe(409);
      expect(tooMuch.json().error).toMatchObject({
        code: 'PAYMENT_EXCEEDS_AMOUNT_DUE',
        details: [{ field: 'amount', maximum: '118.90' }],
      });
      expect((await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '1.001' })).statusCode).toBe(
        400,
      );
      const rest = await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, {
        amount: '118.90',
        method: 'card',
      });
      expect(rest.json().data).toMatchObject({ state: 'paid', amountPaid: '119.00', amountDue: '0.00' });
      expect(
        (await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '0.01' })).json().error.message,
      ).toBe('Purchase invoice R-1001 is paid already.');
    });

    it('never pays more than is due when payments race: 10 parallel payments of 20.00 on 119.00 pay 100.00', async () => {
      const { key } = await t.tenant();
      const invoice = await received(key, { price: '100' });
      await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`);
      const answers = await Promise.all(
        Array.from({ length: 10 }, () =>
          send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '20.00' }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(5);
      for (const refused of answers.filter((a) => a.statusCode !== 201)) {
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.details[0].maximum).toBe('19.00');
      }
      expect((await send(key, 'GET', `/purchase-invoice/${invoice.id}`)).json().data).toMatchObject({
        amountPaid: '100.00',
        amountDue: '19.00',
        state: 'approved',
      });
    }, 60_000);

    it("takes the supplier's credit notes off what we owe, linked by the number they correct (BT-25), whichever arrives first", async () => {
      const { key } = await t.tenant();
      const invoice = await received(key, { number: 'R-10', price: '100' });
      const note = await received(key, { number: 'G-1', corrects: 'R-10', price: '50' });
      expect(note).toMatchObject({
        kind: 'credit-note',
        correctsNumber: 'R-10',
        correctsId: invoice.id,
        amountDue: '59.50',
      });
      const after = (await send(key, 'GET', `/purchase-invoice/${invoice.id}`)).json().data;
      expect(after).toMatchObject({ amountCredited: '59.50', amountDue: '59.50', creditNoteIds: [note.id] });
      const notPayable = await send(key, 'POST', `/purchase-invoice/${note.id}/payment`, { amount: '1.00' });
      expect(notPayable.json().error).toMatchObject({
        code: 'PURCHASE_INVOICE_NOT_PAYABLE',
        message: expect.stringMatching(/is a credit note/),
      });

      // The credit note before its invoice: linked when the invoice arrives.
      const early = await received(key, { number: 'G-2', corrects: 'R-11', price: '100' });
      expect(early.correctsId).toBeNull();
      const late = await received(key, { number: 'R-11', price: '100' });
      expect(late).toMatchObject({ amountCredited: '119.00', amountDue: '0.00', creditNoteIds: [early.id] });
      expect((await send(key, 'GET', `/purchase-invoice/${early.id}`)).json().data.correctsId).toBe(late.id);
      await send(key, 'POST', `/purchase-invoice/${late.id}/approve`);
      const nothing = await send(key, 'POST', `/purchase-invoice/${late.id}/payment`, { amount: '1.00' });
      expect(nothing.json().error.message).toBe(
        'Nothing is due on purchase invoice R-11: its credit notes and payments cover it.',
      );
    });

    it('becomes paid when a credit note covers what the payments left', async () => {
      const { key } = await t.tenant();
      const invoice = await received(key, { number: 'R-20', price: '100' });
      await send(key, 'POST', `/purchase-invoice/${invoice.id}/approve`);
      await send(key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '59.50' });
      await received(key, { number: 'G-20', corrects: 'R-20', price: '50' });
      expect((await send(key, 'GET', `/purchase-invoice/${invoice.id}`)).json().data).toMatchObject({
        state: 'paid',
        amountDue: '0.00',
      });
      expect((await eventTypes(key)).filter((type) => type === 'purchase_invoice.paid')).toHaveLength(1);
    });

    it('needs purchase-invoice.update to approve or dispute and payment.create to pay', async () => {
      const owner = await t.tenant();
      const invoice = await received(owner.key);
      const reader = await t.createKey(owner.companyId, ['purchase-invoice.read', 'payment.create']);
      expect((await send(reader.key, 'POST', `/purchase-invoice/${invoice.id}/approve`)).statusCode).toBe(403);
      expect(
        (await send(reader.key, 'POST', `/purchase-invoice/${invoice.id}/dispute`, { reason: 'no' })).statusCode,
      ).toBe(403);
      const updater = await t.createKey(owner.companyId, ['purchase-invoice.update']);
      expect((await send(updater.key, 'POST', `/purchase-invoice/${invoice.id}/approve`)).statusCode).toBe(200);
      expect(
        (await send(updater.key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '1.00' })).statusCode,
      ).toBe(403);
      expect(
        (await send(reader.key, 'POST', `/purchase-invoice/${invoice.id}/payment`, { amount: '1.00' })).statusCode,
      ).toBe(201);
      const other = await t.tenant();
      expect((await send(other.key, 'POST', `/purchase-invoice/${invoice.id}/approve`)).statusCode).toBe(404);
    });

    it('lists newest first with filters by supplier, state, kind, verdict, number, due date, overdue and received date, in pages', async () => {
      const { key } = await t.tenant();
      const overdue = await received(key, { number: 'L-1', dueDate: '2000-01-31' });
      const later = await received(key, { number: 'L-2', dueDate: '2999-12-31' });
      const other = await received(key, {
        number: 'X-1',
        dueDate: '2000-01-31',
        vatId: 'DE999999999',
        endpoint: { id: '4000001000005', schemeId: '0088' },
        legalId: null,
        sellerName: 'Other GmbH',
      });
      const note = await received(key, { number: 'L-3', corrects: 'L-9' });
      const paid = await received(key, { number: 'L-4', dueDate: '2000-01-31' });
      await send(key, 'POST', `/purchase-invoice/${paid.id}/approve`);
      await send(key, 'POST', `/purchase-invoice/${paid.id}/payment`, { amount: '119.00' });
      const ids = async (query: string) =>
        ((await send(key, 'GET', `/purchase-invoice${query}`)).json().data.items as { id: string }[]).map((i) => i.id);
      const supplier = (overdue.supplier as { organizationId: string }).organizationId;
      expect(await ids('')).toEqual([paid.id, note.id, other.id, later.id, overdue.id]);
      expect(await ids(`?organizationId=${supplier}`)).toEqual([paid.id, note.id, later.id, overdue.id]);
      expect(await ids('?state=paid')).toEqual([paid.id]);
      expect(await ids('?kind=credit-note')).toEqual([note.id]);
      expect(await ids('?verdict=invalid')).toEqual([]);
      expect(await ids('?number=L-')).toEqual([paid.id, note.id, later.id, overdue.id]);
      expect(await ids('?dueDateFrom=2999-01-01')).toEqual([later.id]);
      expect(await ids('?dueDateTo=2000-12-31')).toEqual([paid.id, other.id, overdue.id]);
      expect(await ids('?overdue=true')).toEqual([other.id, overdue.id]);
      expect(await ids('?overdue=false')).toEqual([paid.id, note.id, later.id]);
      const today = new Date().toISOString().slice(0, 10);
      expect(await ids(`?receivedFrom=${today}&receivedTo=${today}`)).toHaveLength(5);
      expect(await ids('?receivedTo=2000-01-01')).toEqual([]);
      const first = (await send(key, 'GET', '/purchase-invoice?limit=2')).json().data;
      expect(first.items.map((i: { id: string }) => i.id)).toEqual([paid.id, note.id]);
      const second = (await send(key, 'GET', `/purchase-invoice?limit=2&cursor=${first.nextCursor}`)).json().data;
      expect(second.items.map((i: { id: string }) => i.id)).toEqual([other.id, later.id]);
      const third = (await send(key, 'GET', `/purchase-invoice?limit=2&cursor=${second.nextCursor}`)).json().data;
      expect(third).toMatchObject({ items: [{ id: overdue.id }], nextCursor: null });
      expect(first.items[0]).not.toHaveProperty('document');
      expect((await send(key, 'GET', '/purchase-invoice?state=lost')).statusCode).toBe(400);
      expect((await send(key, 'GET', '/purchase-invoice?cursor=nope')).statusCode).toBe(400);
    });
  });
}
