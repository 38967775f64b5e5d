import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, signedInAs, type PanelClient } from '../helpers/panel-client.js';

// The panel's quotes: a list with each quote's state, one quote's page, and a draft's edit and
// delete for owners and admins (the same service calls, checks and events as the API's).

for (const dialect of DIALECTS) {
  describe(`panel quotes on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let member: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
      member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
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

    it("lets an owner edit a draft's validity, references and note, naming a refused field, and delete the draft", async () => {
      const { key } = await t.createKey(companyId, [
        'organization.create',
        'quote.create',
        'quote.read',
        'quote.update',
      ]);
      const buyer = (await t.post('/organization', { name: 'Draft Buyer', isCustomer: true }, key)).json().data.id;
      const lines = [{ name: 'Audit', quantity: '1', unitPrice: '900', vatRate: '19' }];
      const draft = (await t.post('/quote', { organizationId: buyer, status: 'draft', lines }, key)).json().data;
      const base = `/panel/quotes/${draft.id}`;

      const page = await owner.get(base);
      expect(page.body).toContain('Edit draft');
      expect(page.body).toContain(`action="${base}/edit"`);
      const saved = await owner.post(`${base}/edit`, {
        validUntil: '2099-06-30',
        buyerReference: 'REF-1',
        purchaseOrderReference: 'RFQ-7',
        note: 'As discussed',
      });
      expect(saved.statusCode).toBe(303);
      expect(saved.headers.location).toBe(`${base}?done=updated`);
      expect(await t.get(`/quote/${draft.id}`, key).then((r) => r.json().data)).toMatchObject({
        status: 'draft',
        validUntil: '2099-06-30',
        buyerReference: 'REF-1',
        purchaseOrderReference: 'RFQ-7',
        note: 'As discussed',
      });
      expect((await owner.get(`${base}?done=updated`)).body).toContain('The draft quote is saved.');

      // A validity before the issue date is refused under its field, and nothing changes.
      const dated = await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/quote/${draft.id}`,
        headers: { 'x-api-key': key },
        payload: { issueDate: '2099-07-15', validUntil: '2099-08-31' },
      });
      expect(dated.statusCode, dated.body).toBe(200);
      await owner.get(base);
      const refused = await owner.post(`${base}/edit`, { validUntil: '2099-07-01', note: 'Changed' });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('aria-invalid="true"');
      expect(refused.body).toContain('validity date');
      expect(await t.get(`/quote/${draft.id}`, key).then((r) => r.json().data.note)).toBe('As discussed');

      const confirm = await owner.get(`${base}/delete`);
      expect(confirm.body).toContain('Delete this draft quote?');
      const deleted = await owner.post(`${base}/delete`);
      expect(deleted.statusCode).toBe(303);
      expect(deleted.headers.location).toBe('/panel/quotes?done=deleted');
      expect((await t.get(`/quote/${draft.id}`, key)).statusCode).toBe(404);
      const events = (
        await t.get('/event?type=quote.deleted', (await t.createKey(companyId, ['event.read'])).key)
      ).json().data.items;
      expect(events.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toContain(draft.id);
    });

    it('refuses to edit or delete a sent quote, and lets a member only read drafts', async () => {
      const { key } = await t.createKey(companyId, ['organization.create', 'quote.create', 'quote.read']);
      const buyer = (await t.post('/organization', { name: 'Sent Buyer', isCustomer: true }, key)).json().data.id;
      const lines = [{ name: 'Audit', quantity: '1', unitPrice: '900', vatRate: '19' }];
      const open = (await t.post('/quote', { organizationId: buyer, lines }, key)).json().data;
      const openPage = await owner.get(`/panel/quotes/${open.id}`);
      expect(openPage.body).not.toContain('Edit draft');
      const edit = await owner.post(`/panel/quotes/${open.id}/edit`, { note: 'Late' });
      expect(edit.statusCode).toBe(409);
      expect(edit.body).toContain('not a draft any more');
      expect((await owner.post(`/panel/quotes/${open.id}/delete`)).statusCode).toBe(409);
      expect((await t.get(`/quote/${open.id}`, key)).json().data).toMatchObject({ status: 'open', note: null });

      const draft = (await t.post('/quote', { organizationId: buyer, status: 'draft', lines }, key)).json().data;
      const memberPage = await member.get(`/panel/quotes/${draft.id}`);
      expect(memberPage.statusCode).toBe(200);
      expect(memberPage.body).not.toContain('Edit draft');
      expect((await member.post(`/panel/quotes/${draft.id}/edit`, { note: 'Mine' })).statusCode).toBe(403);
      expect((await member.post(`/panel/quotes/${draft.id}/delete`)).statusCode).toBe(403);
      expect((await owner.post(`/panel/quotes/${draft.id}/delete`, {}, { csrf: false })).statusCode).toBe(403);
      expect((await t.get(`/quote/${draft.id}`, key)).statusCode).toBe(200);
    });
  });
}
