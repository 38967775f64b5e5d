import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AMOUNT_INTEGER_DIGITS, isWithinAmountLimit, largestAmount } from '../../src/money/limits.js';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { canValidate, validateAgainstXsd, XSD } from '../helpers/einvoice-files.js';
import { readCii, readUbl } from '../helpers/einvoice-reading.js';
import { canInspectPdf, pdfAttachments, pdfPlainText } from '../helpers/pdf-tools.js';

// One limit for every amount (src/money/limits.ts): an invoice, draft or credit note whose
// amounts exceed what a payment, a credit note and the XML can carry is refused at input, naming
// the limit; one at the limit can be paid, credited and refunded in full, and its UBL, CII and
// PDF carry it exactly.

const LARGEST = '999999999999999.99';
const ZERO_RATED = { vatRate: '0', vatCategory: 'Z' };
const HUGE_LINE = { name: 'Everything', quantity: '999999999999999', unitPrice: '999999999999999', vatRate: '19' };

describe('the one amount limit', () => {
  it('is 15 digits before the point in every currency', () => {
    expect(AMOUNT_INTEGER_DIGITS).toBe(15);
    expect(largestAmount(2)).toBe(LARGEST);
    expect(largestAmount(0)).toBe('999999999999999');
    expect(largestAmount(3)).toBe('999999999999999.999');
    // Worked out once per number of digits: asked again, in any order, the same.
    expect([largestAmount(0), largestAmount(2), largestAmount(4)]).toEqual([
      '999999999999999',
      LARGEST,
      '999999999999999.9999',
    ]);
    expect(isWithinAmountLimit(LARGEST)).toBe(true);
    expect(isWithinAmountLimit('-999999999999999.99')).toBe(true);
    expect(isWithinAmountLimit('1000000000000000.00')).toBe(false);
  });
});

for (const dialect of DIALECTS) {
  describe(`amounts past the limit on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let buyerId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key } = await t.tenant());
      buyerId = (await t.post('/organization', { name: 'Big Spender', isCustomer: true }, key)).json().data.id;
    });
    afterAll(async () => t.close());

    const invoice = (lines: unknown[], extra: Record<string, unknown> = {}) =>
      t.post('/invoice', { organizationId: buyerId, lines, ...extra }, key);

    it('refuses an invoice whose line and totals exceed the largest amount, naming the limit, and takes no number', async () => {
      const before = (await t.get('/invoice', key)).json().data.items.length;
      const res = await invoice([HUGE_LINE]);
      expect(res.statusCode).toBe(400);
      const error = res.json().error;
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details[0]).toEqual({
        field: 'lines[0]',
        code: 'amount_too_large',
        message: `The line's net amount would be 999999999999998000000000000001.00: an amount is at most ${LARGEST} (15 digits before the decimal point), what a payment, a credit note and an e-invoice can carry.`,
        maximum: LARGEST,
      });
      expect(error.details).toContainEqual(
        expect.objectContaining({ field: 'totals.payable', code: 'total_too_large', maximum: LARGEST }),
      );
      expect((await t.get('/invoice', key)).json().data.items.length).toBe(before);
    });

    it('refuses totals past the limit even when every line is within it', async () => {
      const half = { name: 'Half', quantity: '1', unitPrice: '600000000000000', ...ZERO_RATED };
      const res = await invoice([half, half]);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toEqual([
        'totals.lineNetTotal',
        'totals.taxExclusive',
        'totals.taxInclusive',
        'totals.payable',
        'vatBreakdown[0].taxableAmount',
      ]);
    });

    it('refuses a draft past the limit, and an edit that would take a draft past it', async () => {
      expect((await invoice([HUGE_LINE], { status: 'draft' })).json().error.details[0]).toMatchObject({
        field: 'lines[0]',
        code: 'amount_too_large',
      });
      const draft = (
        await invoice([{ name: 'Small', quantity: '1', unitPrice: '1', vatRate: '19' }], { status: 'draft' })
      ).json().data;
      const edit = await t.request({
        method: 'PATCH',
        url: `/api/v1.0.0/public/invoice/${draft.id}`,
        headers: { 'x-api-key': key },
        payload: { lines: [HUGE_LINE] },
      });
      expect(edit.statusCode).toBe(400);
      expect(edit.json().error.details[0]).toMatchObject({
        field: 'lines[0]',
        code: 'amount_too_large',
        maximum: LARGEST,
      });
      expect((await t.get(`/invoice/${draft.id}`, key)).json().data.totals.payable).toBe('1.19');
    });

    it('issues an invoice of exactly the largest amount, which can be paid in full', async () => {
      const res = await invoice([{ name: 'Everything', quantity: '1', unitPrice: LARGEST, ...ZERO_RATED }]);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.totals.payable).toBe(LARGEST);
      const paid = await t.post(`/invoice/${res.json().data.id}/payment`, { amount: LARGEST }, key);
      expect(paid.statusCode, paid.body).toBe(201);
      expect(paid.json().data).toMatchObject({ status: 'paid', amountDue: '0.00' });
      // Half a cent more rounds to 10^15: refused.
      expect(
        (await invoice([{ name: 'Everything', quantity: '1', unitPrice: '999999999999999.995', ...ZERO_RATED }]))
          .statusCode,
      ).toBe(400);
    });

    it.runIf(canValidate && canInspectPdf)(
      'writes an invoice of the largest amount as UBL, CII and PDF valid against the XSDs, and takes a full payment, credit note and refund',
      async () => {
        const send = (method: 'GET' | 'POST' | 'PATCH', path: string, body?: object) =>
          t.request({
            method,
            url: `${BASE_PATH}${path}`,
            headers: { 'x-api-key': key },
            ...(body ? { payload: body } : {}),
          });
        const profile = await send('PATCH', '/company', {
          legalName: 'Largest Seller GmbH',
          address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
          vatId: 'DE123456789',
          electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
          contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
          bankAccount: { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
          paymentTerms: 'Payable within 30 days.',
        });
        expect(profile.statusCode, profile.body).toBe(200);
        const buyer = await t.post(
          '/organization',
          {
            name: 'Largest Buyer AG',
            isCustomer: true,
            vatId: 'DE811907980',
            email: 'ap@buyer.example',
            address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
            electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
          },
          key,
        );
        // 840336134453781.50 net, 19 % VAT 159663865546218.485 rounded half away to .49: 999999999999999.99 payable.
        const line = { name: 'Everything', quantity: '1', unitPrice: '840336134453781.50', vatRate: '19' };
        const issued = await t.post(
          '/invoice',
          { organizationId: buyer.json().data.id, buyerReference: '04011000-12345-34', lines: [line] },
          key,
        );
        expect(issued.statusCode, issued.body).toBe(201);
        const invoice = issued.json().data;
        expect(invoice.totals).toMatchObject({
          taxExclusive: '840336134453781.50',
          taxTotal: '159663865546218.49',
          payable: LARGEST,
        });

        const documents: { name: string; xml: string; xsd: string }[] = [];
        for (const [path, read, xsd] of [
          [`/invoice/${invoice.id}/ubl`, readUbl, XSD.ublInvoice],
          [`/invoice/${invoice.id}/ubl?profile=xrechnung`, readUbl, XSD.ublInvoice],
          [`/invoice/${invoice.id}/cii`, readCii, XSD.cii],
        ] as const) {
          const res = await send('GET', path);
          expect(res.statusCode, res.body).toBe(200);
          expect(read(res.body).totals).toMatchObject({
            taxExclusive: '840336134453781.50',
            taxTotal: '159663865546218.49',
            taxInclusive: LARGEST,
            payable: LARGEST,
          });
          documents.push({ name: path, xml: res.body, xsd });
        }
        const pdf = await send('GET', `/invoice/${invoice.id}/pdf?lang=en`);
        expect(pdf.statusCode).toBe(200);
        expect(pdfPlainText(pdf.rawPayload)).toContain('999,999,999,999,999.99');
        const embedded = pdfAttachments(pdf.rawPayload).first!;
        expect(readCii(embedded).totals.payable).toBe(LARGEST);
        documents.push({ name: 'factur-x.xml', xml: embedded, xsd: XSD.cii });

        const paid = await send('POST', `/invoice/${invoice.id}/payment`, { amount: LARGEST });
        expect(paid.statusCode, paid.body).toBe(201);
        expect(paid.json().data).toMatchObject({ status: 'paid', amountPaid: LARGEST, amountDue: '0.00' });
        const credited = await send('POST', '/credit-note', { invoiceId: invoice.id, reason: 'Everything returned' });
        expect(credited.statusCode, credited.body).toBe(201);
        const note = credited.json().data;
        expect(note.totals.payable).toBe(LARGEST);
        expect((await send('GET', `/invoice/${invoice.id}`)).json().data).toMatchObject({
          amountCredited: LARGEST,
          amountDue: `-${LARGEST}`,
        });
        for (const [format, xsd] of [
          ['ubl', XSD.ublCreditNote],
          ['cii', XSD.cii],
        ] as const) {
          const res = await send('GET', `/credit-note/${note.id}/${format}`);
          expect(res.statusCode, res.body).toBe(200);
          expect((format === 'ubl' ? readUbl : readCii)(res.body).totals.payable).toBe(LARGEST);
          documents.push({ name: `credit note ${format}`, xml: res.body, xsd });
        }
        expect((await send('GET', `/credit-note/${note.id}/pdf`)).statusCode).toBe(200);
        const refunded = await send('POST', `/invoice/${invoice.id}/refund`, { amount: LARGEST });
        expect(refunded.statusCode, refunded.body).toBe(201);
        expect(refunded.json().data).toMatchObject({
          status: 'paid',
          amountPaid: LARGEST,
          amountCredited: LARGEST,
          amountRefunded: LARGEST,
          amountDue: '0.00',
        });

        for (const document of documents) {
          const [result] = validateAgainstXsd([document], document.xsd);
          expect(result!.valid, `${document.name}: ${result!.errors}`).toBe(true);
        }
      },
    );

    it('refuses a credit note whose lines exceed the limit, even when they cancel out', async () => {
      const issued = (await invoice([{ name: 'Item', quantity: '1', unitPrice: '100', vatRate: '19' }])).json().data;
      const res = await t.post(
        '/credit-note',
        {
          invoiceId: issued.id,
          reason: 'Tricks',
          lines: [
            HUGE_LINE,
            { ...HUGE_LINE, quantity: '-999999999999999' },
            { name: 'Item', quantity: '1', unitPrice: '1', vatRate: '19' },
          ],
        },
        key,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details.slice(0, 2)).toEqual([
        expect.objectContaining({ field: 'lines[0]', code: 'amount_too_large', maximum: LARGEST }),
        expect.objectContaining({ field: 'lines[1]', code: 'amount_too_large', maximum: LARGEST }),
      ]);
      expect((await t.get(`/invoice/${issued.id}`, key)).json().data.amountCredited).toBe('0.00');
    });
  });
}
