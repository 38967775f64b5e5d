import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, type PanelClient } from '../helpers/panel-client.js';

// The panel's quotes: a read-only list with each quote's state, and one quote's page.

for (const dialect of DIALECTS) {
  describe(`panel quotes on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('shows an empty state before the API has made a quote', async () => {
      const page = await owner.get('/panel/quotes');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('No quotes yet.');
    });

    it('lists quotes with their state, newest first, and opens one to its lines, totals and invoice', async () => {
      const { key } = await t.createKey(companyId, ['organization.create', 'quote.create', 'quote.update']);
      const buyer = (await t.post('/organization', { name: 'Quote <Buyer> AG', isCustomer: true }, key)).json().data
        .id as string;
      const lines = [{ name: 'Workshop day', quantity: '2', unitPrice: '650', vatRate: '19' }];
      const expired = (
        await t.post('/quote', { organizationId: buyer, issueDate: '2025-01-02', validUntil: '2025-01-31', lines }, key)
      ).json().data;
      const accepted = (
        await t.post('/quote', { organizationId: buyer, issueDate: '2026-03-02', validUntil: '2099-12-31', lines }, key)
      ).json().data;
      expect((await t.post(`/quote/${accepted.id}/accept`, {}, key)).statusCode).toBe(200);
      const { invoice } = (await t.post(`/quote/${accepted.id}/invoice`, {}, key)).json().data;
      const foreign = await t.tenant(['organization.create', 'quote.create']);
      const foreignBuyer = (await t.post('/organization', { name: 'Foreign', isCustomer: true }, foreign.key)).json()
        .data.id;
      const other = (await t.post('/quote', { organizationId: foreignBuyer, lines }, foreign.key)).json().data;

      const list = await owner.get('/panel/quotes');
      expect(list.body).toContain('2 quotes');
      expect(list.body.indexOf(accepted.number)).toBeLessThan(list.body.indexOf(expired.number));
      expect(list.body).toContain('badge-accepted');
      expect(list.body).toContain('badge-expired');
      expect(list.body).toContain('Quote &lt;Buyer&gt; AG');
      expect(list.body).not.toContain(other.id);

      const page = await owner.get(`/panel/quotes/${accepted.id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Workshop day');
      expect(page.body).toContain('1,547.00');
      expect(page.body).toContain(`/panel/invoices/${invoice.id}`);
      expect((await owner.get(`/panel/quotes/${other.id}`)).statusCode).toBe(404);
    });
  });
}
