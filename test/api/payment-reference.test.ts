import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { canInspectPdf, pdfPlainText, pdfQrPayloads } from '../helpers/pdf-tools.js';

// The reference a buyer quotes with a transfer: an ISO 11649 creditor reference when the invoice
// gives one (checked, in the XML's BT-83, the PDF and the structured field of its GiroCode), a
// Belgian seller's structured communication, or else the invoice number.

for (const dialect of DIALECTS) {
  describe(`the payment reference on ${dialect}`, () => {
    let api: TestApp;
    const keys: Record<string, string> = {};
    const buyers: Record<string, string> = {};

    beforeAll(async () => {
      api = await buildTestApp(dialect);
      for (const [country, iban, vatId] of [
        ['DE', 'DE89370400440532013000', 'DE123456789'],
        ['BE', 'BE68539007547034', 'BE0123456749'],
      ] as const) {
        const companyId = await api.createCompany(`Seller ${country}`);
        const profile = await api.container.companyProfiles.update(
          companyId,
          { line1: 'Rue 1', city: 'City', postalCode: '1000', countryCode: country, iban, vatId },
          { userId: null, label: 'test' },
        );
        expect(profile.ok, JSON.stringify(profile)).toBe(true);
        keys[country] = (await api.createKey(companyId, ['organization.create', 'invoice.create', 'invoice.read'])).key;
        const address = { line1: 'Hauptstraße 2', city: 'Köln', postalCode: '50667', countryCode: 'DE' };
        buyers[country] = (
          await api.post(
            '/organization',
            { name: 'Buyer', isCustomer: true, address, vatId: 'DE811907980' },
            keys[country],
          )
        ).json().data.id;
      }
    });
    afterAll(async () => api?.close());

    const issue = (country: string, paymentMeans?: object) =>
      api.post(
        '/invoice',
        {
          organizationId: buyers[country],
          issueDate: '2026-03-02',
          lines: [{ name: 'Work', quantity: '1', unitPrice: '100', vatRate: '21' }],
          ...(paymentMeans ? { paymentMeans } : {}),
        },
        keys[country],
      );

    it.skipIf(!canInspectPdf)(
      'quotes a creditor reference given with the invoice, in the XML, on the page and in the code',
      async () => {
        const res = await issue('DE', { code: '58', creditorReference: 'RF18 5390 0754 7034' });
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().data.paymentMeans.creditorReference).toBe('RF18539007547034');
        const id = res.json().data.id as string;
        expect((await api.get(`/invoice/${id}/cii`, keys.DE)).body).toContain(
          '<ram:PaymentReference>RF18539007547034</ram:PaymentReference>',
        );
        const pdf = (await api.get(`/invoice/${id}/pdf`, keys.DE)).rawPayload;
        expect(pdfPlainText(pdf)).toContain('quoting RF18539007547034');
        expect(pdfQrPayloads(pdf)[0]!.split('\n')[9]).toBe('RF18539007547034');
      },
    );

    it('refuses a creditor reference whose check digits are wrong', async () => {
      const res = await issue('DE', { code: '58', creditorReference: 'RF19539007547034' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toEqual([
        expect.objectContaining({ field: 'paymentMeans.creditorReference', code: 'invalid_creditor_reference' }),
      ]);
    });

    it.skipIf(!canInspectPdf)("quotes a Belgian seller's structured communication, others their number", async () => {
      const be = await issue('BE');
      const id = be.json().data.id as string;
      // 2026-00001: 0202600001 mod 97 = 78
      const reference = '+++020/2600/00178+++';
      expect((await api.get(`/invoice/${id}/cii`, keys.BE)).body).toContain(
        `<ram:PaymentReference>${reference}</ram:PaymentReference>`,
      );
      expect(pdfPlainText((await api.get(`/invoice/${id}/pdf?lang=fr`, keys.BE)).rawPayload)).toContain(
        `avec la référence ${reference}`,
      );
      const de = await issue('DE');
      expect(
        pdfPlainText((await api.get(`/invoice/${de.json().data.id as string}/pdf`, keys.DE)).rawPayload),
      ).toContain(`quoting ${de.json().data.number as string}`);
    });
  });
}
