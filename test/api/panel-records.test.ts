import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

for (const dialect of DIALECTS) {
  describe(`panel organizations and invoices on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    let key: string;
    let invoiceId: string;
    let invoiceNumber: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('shows empty states before the API has created anything', async () => {
      expect((await owner.get('/panel/organizations')).body).toContain('No organizations yet.');
      expect((await owner.get('/panel/invoices')).body).toContain('No invoices yet.');
    });

    it("lists the company's organizations newest first, paginated and searchable, and nobody else's", async () => {
      ({ key } = await t.createKey(companyId, ['organization.create', 'invoice.create']));
      for (let i = 1; i <= 23; i++) {
        expect(
          (await t.post('/organization', { name: `Customer ${String(i).padStart(2, '0')}`, isCustomer: true }, key))
            .statusCode,
        ).toBe(201);
      }
      expect((await t.post('/organization', { name: '<b>Bold</b> & Straße', isSupplier: true }, key)).statusCode).toBe(
        201,
      );
      const other = await t.tenant(['organization.create']);
      await t.post('/organization', { name: 'Foreign Customer', isCustomer: true }, other.key);

      const first = await owner.get('/panel/organizations');
      expect(first.body).toContain('24 organizations');
      expect(first.body).toContain('Page 1 of 2');
      expect(first.body.indexOf('&lt;b&gt;Bold&lt;/b&gt; &amp; Straße')).toBeLessThan(
        first.body.indexOf('Customer 23'),
      );
      expect(first.body).not.toContain('<b>Bold</b>');
      expect(first.body).not.toContain('Foreign Customer');
      const second = await owner.get('/panel/organizations?page=2');
      expect(second.body).toContain('Customer 01');
      expect(second.body).not.toContain('Customer 23');

      const found = await owner.get(`/panel/organizations?q=${encodeURIComponent('STRASSE')}`);
      expect(found.body).toContain('1 organization<');
      const literal = await owner.get(`/panel/organizations?q=${encodeURIComponent('%')}`);
      expect(literal.body).toContain('No organizations match');
    });

    it('lists invoices and opens one to its lines and totals', async () => {
      const org = (await t.post('/organization', { name: 'Invoice Buyer AG', isCustomer: true }, key)).json().data
        .id as string;
      const created = await t.post(
        '/invoice',
        {
          organizationId: org,
          lines: [
            { name: 'Consulting', quantity: '2', unitPrice: '100.00', vatRate: '19' },
            { name: 'Travel', quantity: '1', unitPrice: '50', vatRate: '7' },
          ],
        },
        key,
      );
      expect(created.statusCode).toBe(201);
      invoiceId = created.json().data.id;
      invoiceNumber = created.json().data.number;

      const list = await owner.get('/panel/invoices');
      expect(list.body).toContain(invoiceNumber);
      expect(list.body).toContain('Invoice Buyer AG');
      expect(list.body).toContain(`href="/panel/invoices/${invoiceId}"`);
      expect((await owner.get(`/panel/invoices?q=${encodeURIComponent('buyer ag')}`)).body).toContain(invoiceNumber);
      expect((await owner.get(`/panel/invoices?q=${encodeURIComponent(invoiceNumber)}`)).body).toContain('1 invoice<');
      expect((await owner.get('/panel/invoices?q=zzz')).body).toContain('No invoices match');

      const detail = await owner.get(`/panel/invoices/${invoiceId}`);
      expect(detail.statusCode).toBe(200);
      expect(detail.body).toContain(`Invoice ${invoiceNumber}`);
      expect(detail.body).toContain('Consulting');
      expect(detail.body).toContain('Travel');
      expect(detail.body).toContain('250.00 EUR'); // sum of lines
      expect(detail.body).toContain('291.50 EUR'); // 250 + 38.00 + 3.50 VAT
    });

    it("answers 404 for another company's invoice and lets members read", async () => {
      const member = await signedInAs(t.app, companyId, 'reader@example.com', 'member');
      expect((await member.get(`/panel/invoices/${invoiceId}`)).statusCode).toBe(200);
      expect((await member.get('/panel/organizations')).statusCode).toBe(200);
      const otherCompany = await t.createCompany('Elsewhere');
      const stranger = await signedInAs(t.app, otherCompany, 'stranger@example.com', 'owner');
      const res = await stranger.get(`/panel/invoices/${invoiceId}`);
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(invoiceNumber);
      expect((await stranger.get('/panel/invoices')).body).toContain('No invoices yet.');
    });
  });
}
