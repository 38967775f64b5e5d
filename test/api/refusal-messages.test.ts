import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// Each refusal says what was refused, in words about that action (a code shared by several
// actions, such as INVOICE_NOT_ISSUED, says something else for each), and a refusal over an
// amount names the amount that was allowed, in the message and in the detail's `maximum`.

const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`refusal messages on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let buyerId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key } = await t.tenant());
      buyerId = (await t.post('/organization', { name: 'Refused Buyer', isCustomer: true }, key)).json().data.id;
    });
    afterAll(async () => t.close());

    const send = (method: 'POST' | 'PATCH' | 'DELETE' | 'GET', path: string, payload?: unknown) =>
      t.request({
        method,
        url: `${BASE_PATH}${path}`,
        headers: { 'x-api-key': key },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const issue = async (extra: Record<string, unknown> = {}) =>
      (await t.post('/invoice', { organizationId: buyerId, lines: LINES, ...extra }, key)).json().data;

    it('names the amount due when a payment is larger', async () => {
      const invoice = await issue();
      await send('POST', `/invoice/${invoice.id}/payment`, { amount: '19.00' });
      const res = await send('POST', `/invoice/${invoice.id}/payment`, { amount: '120' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({
        code: 'PAYMENT_EXCEEDS_AMOUNT_DUE',
        message: 'The payment of 120.00 is more than the amount due: at most 100.00 can be paid.',
        details: [
          {
            field: 'amount',
            code: 'exceeds_amount_due',
            message: 'At most 100.00 (the amount due).',
            maximum: '100.00',
          },
        ],
      });
    });

    it('names what can still be credited when a credit note is larger', async () => {
      const invoice = await issue();
      await send('POST', '/credit-note', {
        invoiceId: invoice.id,
        reason: 'Part',
        lines: [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }],
      });
      const res = await send('POST', '/credit-note', {
        invoiceId: invoice.id,
        reason: 'Too much',
        lines: [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }],
      });
      expect(res.statusCode).toBe(409);
      expect(res.json().error).toEqual({
        code: 'CREDIT_EXCEEDS_INVOICE',
        message:
          "The credit note of 119.00 would credit more than the invoice's payable amount: at most 59.50 can still be credited.",
        details: [
          {
            field: 'lines',
            code: 'exceeds_creditable',
            message: "At most 59.50 (the invoice's payable less its credit notes).",
            maximum: '59.50',
          },
        ],
      });
    });

    it('names the largest value taken when a quantity, a unit price, or an allowance or charge amount has too many digits', async () => {
      const huge = '1000000000000000';
      const adjustment = { amount: huge, reason: 'Huge', vatCategory: 'S', vatRate: '19' };
      const body = {
        organizationId: buyerId,
        lines: [{ ...LINES[0], quantity: `-${huge}`, unitPrice: huge }],
        allowances: [adjustment],
        charges: [adjustment],
      };
      const res = await t.post('/invoice', body, key);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        {
          field: 'lines[0].quantity',
          code: 'too_large',
          message:
            'Must be between -999999999999999.999999 and 999999999999999.999999 (15 digits before the decimal point).',
          maximum: '999999999999999.999999',
        },
        {
          field: 'lines[0].unitPrice',
          code: 'too_large',
          message: 'Must be at most 999999999999999.999999 (15 digits before the decimal point).',
          maximum: '999999999999999.999999',
        },
        {
          field: 'allowances[0].amount',
          code: 'too_large',
          message: 'Must be at most 999999999999999.99, the largest amount there is.',
          maximum: '999999999999999.99',
        },
        {
          field: 'charges[0].amount',
          code: 'too_large',
          message: 'Must be at most 999999999999999.99, the largest amount there is.',
          maximum: '999999999999999.99',
        },
      ]);
      // An allowance's largest amount is in the invoice's currency, and a credit note's lines are held to the same limits.
      const inYen = await t.post('/invoice', { ...body, currency: 'JPY', lines: LINES, charges: [] }, key);
      expect(inYen.json().error.details).toEqual([
        expect.objectContaining({ field: 'allowances[0].amount', maximum: '999999999999999' }),
      ]);
      const invoice = await issue();
      const credit = await send('POST', '/credit-note', {
        invoiceId: invoice.id,
        reason: 'Huge',
        lines: [{ ...LINES[0], unitPrice: huge }],
      });
      expect(credit.json().error.details).toEqual([
        expect.objectContaining({ field: 'lines[0].unitPrice', code: 'too_large', maximum: '999999999999999.999999' }),
      ]);
    });

    it('says a draft has no e-invoice when one is asked for, not how to void it', async () => {
      const draft = await issue({ status: 'draft' });
      for (const format of ['ubl', 'cii']) {
        const res = await send('GET', `/invoice/${draft.id}/${format}`);
        expect(res.statusCode).toBe(409);
        expect(res.json().error).toEqual({
          code: 'INVOICE_NOT_ISSUED',
          message:
            'The invoice is a draft: it has no e-invoice until it is finalized (POST /invoice/{id}/finalize); its PDF is marked DRAFT.',
        });
      }
      expect((await send('POST', `/invoice/${draft.id}/void`)).json().error).toEqual({
        code: 'INVOICE_NOT_ISSUED',
        message: 'The invoice is a draft: delete it instead of voiding it.',
      });
    });

    it('says for each action on an issued invoice what that action cannot do', async () => {
      const invoice = await issue();
      expect((await send('PATCH', `/invoice/${invoice.id}`, { note: 'x' })).json().error).toEqual({
        code: 'INVOICE_NOT_DRAFT',
        message: 'The invoice is not a draft: an issued invoice is never edited; correct it with a credit note.',
      });
      expect((await send('DELETE', `/invoice/${invoice.id}`)).json().error).toEqual({
        code: 'INVOICE_NOT_DRAFT',
        message:
          'The invoice is not a draft: an issued invoice is never deleted; correct it with a credit note, or void it.',
      });
      expect((await send('POST', `/invoice/${invoice.id}/finalize`)).json().error).toEqual({
        code: 'INVOICE_NOT_DRAFT',
        message: 'The invoice is not a draft: it was issued already.',
      });
    });

    it('names the document it refuses as an e-invoice: an invoice, a credit note, or one not issued for validateFor', async () => {
      const invoice = await issue();
      const creditNote = (
        await send('POST', '/credit-note', {
          invoiceId: invoice.id,
          reason: 'Part',
          lines: [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }],
        })
      ).json().data;
      const ofInvoice = (await send('GET', `/invoice/${invoice.id}/ubl`)).json().error;
      expect(ofInvoice).toMatchObject({
        code: 'EINVOICE_INCOMPLETE',
        message:
          'The invoice lacks what this e-invoice needs: each detail names the field to set and the rule it would break.',
      });
      const ofCreditNote = (await send('GET', `/credit-note/${creditNote.id}/ubl`)).json().error;
      expect(ofCreditNote).toMatchObject({
        code: 'EINVOICE_INCOMPLETE',
        message:
          'The credit note lacks what this e-invoice needs: each detail names the field to set and the rule it would break.',
      });
      const refused = (
        await t.post('/invoice', { organizationId: buyerId, lines: LINES, validateFor: ['peppol'] }, key)
      ).json().error;
      expect(refused.code).toBe('EINVOICE_INCOMPLETE');
      expect(refused.message).toBe(
        'The invoice would lack what the e-invoices named in validateFor need, so it was not issued and took no number: each detail names the field to set and the rule it would break.',
      );
    });
  });
}
