import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, type PanelClient } from '../helpers/panel-client.js';

// The panel's recurring invoices: a read-only list with each one's schedule, next run and last
// runs, one recurring invoice's page with its history, and the Sales menu that holds them.

for (const dialect of DIALECTS) {
  describe(`panel recurring invoices on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { recurringIntervalMs: 0 });
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('shows an empty state and a Sales menu of quotes and recurring invoices that opens without JavaScript', async () => {
      const page = await owner.get('/panel/recurring');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('No recurring invoices yet.');
      expect(page.body).toMatch(
        /<details class="dropdown nav-menu"><summary class="current">Sales<\/summary><ul><li><a href="\/panel\/quotes">Quotes<\/a><\/li><li><a href="\/panel\/recurring"[^>]*aria-current="page">Recurring<\/a><\/li><\/ul><\/details>/,
      );
      const quotes = await owner.get('/panel/quotes');
      expect(quotes.body).toContain('<summary class="current">Sales</summary>');
      expect((await owner.get('/panel/invoices')).body).toContain('<summary>Sales</summary>');
    });

    it('lists recurring invoices with their next run and runs, and opens one to its whole history', async () => {
      const { key } = await t.createKey(companyId, ['organization.create', 'recurring-invoice.manage']);
      const buyer = (await t.post('/organization', { name: 'Subscriber <One> AG', isCustomer: true }, key)).json().data
        .id as string;
      const made = (
        await t.post(
          '/recurring-invoice',
          {
            template: {
              organizationId: buyer,
              lines: [{ name: 'Hosting <plan>', quantity: '1', unitPrice: '49', vatRate: '19' }],
            },
            schedule: { interval: 'month', anchorDate: '2027-01-31', timeZone: 'Europe/Berlin' },
          },
          key,
        )
      ).json().data;
      await t.container.recurring.runDue(new Date('2027-03-31T12:00:00Z'), undefined, { companyId });
      const foreign = await t.tenant(['organization.create', 'recurring-invoice.manage']);
      const foreignBuyer = (await t.post('/organization', { name: 'Foreign', isCustomer: true }, foreign.key)).json()
        .data.id;
      const other = (
        await t.post(
          '/recurring-invoice',
          {
            template: {
              organizationId: foreignBuyer,
              lines: [{ name: 'x', quantity: '1', unitPrice: '1', vatRate: '19' }],
            },
            schedule: { interval: 'week', anchorDate: '2027-01-04', timeZone: 'UTC' },
          },
          foreign.key,
        )
      ).json().data;

      const list = await owner.get('/panel/recurring');
      expect(list.body).toContain('1 recurring invoice');
      expect(list.body).toContain('Subscriber &lt;One&gt; AG');
      expect(list.body).toContain('Every month from 2027-01-31 (Europe/Berlin)');
      expect(list.body).toContain('2027-04-30');
      expect(list.body).toContain('badge-active');
      expect(list.body).not.toContain(other.id);

      const page = await owner.get(`/panel/recurring/${made.id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Hosting &lt;plan&gt;');
      const runs = (await t.get(`/recurring-invoice/${made.id}`, key)).json().data.runs;
      expect(runs).toHaveLength(3);
      for (const run of runs) expect(page.body).toContain(`/panel/invoices/${run.invoiceId}`);
      expect(page.body).toContain('2027-02-28 to 2027-03-30');
      expect((await owner.get(`/panel/recurring/${other.id}`)).statusCode).toBe(404);
    });
  });
}
