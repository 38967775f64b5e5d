import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../src/auth/permissions.js';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, revealedKey, signedInAs } from '../helpers/panel-client.js';

// The panel's live/test switch, its banner, test keys made in the panel, and deleting test data.

const LINES = [{ name: 'Work', quantity: '1', unitPrice: '100', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`panel test mode on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    let live: string;
    let test: string;
    let liveNumber: string;
    let testNumber: string;
    const year = new Date().getUTCFullYear();

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
      const permissions = [
        'organization.create',
        'invoice.create',
        'invoice.read',
        'organization.read',
      ] satisfies Permission[];
      live = (await t.createKey(companyId, permissions, { mode: 'live' })).key;
      test = (await t.createKey(companyId, permissions, { mode: 'test' })).key;
      for (const [key, name] of [
        [live, 'Live Buyer GmbH'],
        [test, 'Sandbox Buyer GmbH'],
      ] as const) {
        const org = (await t.post('/organization', { name, isCustomer: true }, key)).json().data;
        const invoice = await t.post(
          '/invoice',
          { organizationId: org.id, issueDate: `${year}-03-01`, lines: LINES },
          key,
        );
        expect(invoice.statusCode, invoice.body).toBe(201);
        if (key === live) liveNumber = invoice.json().data.number;
        else testNumber = invoice.json().data.number;
      }
      expect(testNumber).toBe(`TEST-${year}-00001`);
    });
    afterAll(async () => t.close());

    it('shows live data without a banner until the switch is turned to test data', async () => {
      const page = await owner.get('/panel/invoices');
      expect(page.body).toContain(liveNumber);
      expect(page.body).not.toContain(testNumber);
      expect(page.body).not.toContain('test-banner');
      // The switch says which world is shown, and what pressing it does.
      expect(page.body).toMatch(
        /data-mode="live" title="Showing live data: switch to test data">[^]*?Live data<span class="visually-hidden"> is shown: switch to test data<\/span><\/button>/,
      );
      expect(page.body).not.toMatch(/>Test data</);
      expect((await owner.get('/panel/organizations')).body).not.toContain('Sandbox Buyer GmbH');
    });

    it('switches to test data, back to the same page, with a banner on every page, and back to live', async () => {
      await owner.get('/panel/invoices');
      const on = await owner.post('/panel/mode', { mode: 'test', return: '/panel/invoices' });
      expect(on.statusCode).toBe(303);
      expect(on.headers.location).toBe('/panel/invoices');
      const page = await owner.get('/panel/invoices');
      expect(page.body).toContain(testNumber);
      expect(page.body).not.toContain(`>${liveNumber}<`);
      expect(page.body).toContain('class="container test-banner" role="status"');
      expect(page.body).toMatch(
        /class="test-on small" data-mode="test" title="Showing test data: switch to live data">[^]*?Test data<span class="visually-hidden"> is shown: switch to live data<\/span><\/button>/,
      );
      expect(page.body).not.toMatch(/>Live data</);
      const organizations = await owner.get('/panel/organizations');
      expect(organizations.body).toContain('Sandbox Buyer GmbH');
      expect(organizations.body).not.toContain('Live Buyer GmbH');
      expect(organizations.body).toContain('test-banner');
      // A live record is not found from the test side, as on the API.
      const liveId = (await t.get('/invoice', live)).json().data.items[0].id;
      expect((await owner.get(`/panel/invoices/${liveId}`)).statusCode).toBe(404);

      const off = await owner.post('/panel/mode', { mode: 'live', return: '/panel/organizations' });
      expect(off.headers.location).toBe('/panel/organizations');
      const back = await owner.get('/panel/organizations');
      expect(back.body).toContain('Live Buyer GmbH');
      expect(back.body).not.toContain('test-banner');
    });

    it('returns only to panel pages after switching, never to another site', async () => {
      for (const target of ['https://evil.example/', '//evil.example/panel', '/v1/invoice', '/panel\\@evil.example']) {
        await owner.get('/panel');
        const res = await owner.post('/panel/mode', { mode: 'live', return: target });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/panel');
      }
    });

    it('refuses a forged switch without the CSRF token', async () => {
      const res = await owner.post('/panel/mode', { mode: 'test' }, { csrf: false });
      expect(res.statusCode).toBe(403);
      expect(owner.cookies.has('invoicing_mode')).toBe(false);
    });

    it('creates a test key from the keys page and lists each key with its mode', async () => {
      await owner.get('/panel/keys');
      const res = await owner.post('/panel/keys', {
        name: 'Sandbox CI',
        permissions: ['organization.read'],
        mode: 'test',
      });
      expect(res.statusCode).toBe(303);
      const key = revealedKey((await owner.get('/panel/keys/new')).body)!;
      expect(key).toMatch(/^inv_test_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/);
      const answer = await t.get('/organization', key);
      expect(answer.json().data.items.map((o: { name: string }) => o.name)).toEqual(['Sandbox Buyer GmbH']);
      const list = (await owner.get('/panel/keys')).body;
      expect(list).toContain('badge-mode-test');
      expect(list).toContain('badge-mode-live');
      await owner.get('/panel/keys');
      const bad = await owner.post('/panel/keys', { name: 'Odd', permissions: ['organization.read'], mode: 'staging' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('Choose a live or a test key.');
    });

    it('lets a member read about test data but not delete it', async () => {
      const member = await signedInAs(t.app, companyId, `member-${dialect}@example.com`, 'member');
      const page = await member.get('/panel/test-data');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Owners and admins can delete test data.');
      const res = await member.post('/panel/test-data/reset', { confirm: 'DELETE' });
      expect(res.statusCode).toBe(403);
      expect((await t.get('/invoice', test)).json().data.items).toHaveLength(1);
    });

    it('asks the owner to type DELETE, then deletes all test data, restarts test numbers and leaves live data as it was', async () => {
      const liveBefore = (await t.get('/invoice', live)).json().data.items;
      await owner.get('/panel/test-data');
      const unconfirmed = await owner.post('/panel/test-data/reset', { confirm: 'delete' });
      expect(unconfirmed.statusCode).toBe(400);
      expect(unconfirmed.body).toContain('Type DELETE to confirm.');
      expect((await t.get('/invoice', test)).json().data.items).toHaveLength(1);

      const res = await owner.post('/panel/test-data/reset', { confirm: 'DELETE' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/test-data?done=reset');
      expect((await owner.get(res.headers.location as string)).body).toContain('All test data was deleted');
      expect((await t.get('/invoice', test)).json().data.items).toEqual([]);
      expect((await t.get('/organization', test)).json().data.items).toEqual([]);
      expect((await t.get('/invoice', live)).json().data.items).toEqual(liveBefore);
      expect((await t.get('/organization', live)).json().data.items.map((o: { name: string }) => o.name)).toEqual([
        'Live Buyer GmbH',
      ]);

      const org = (await t.post('/organization', { name: 'Fresh Sandbox', isCustomer: true }, test)).json().data;
      expect((await t.post('/invoice', { organizationId: org.id, lines: LINES }, test)).json().data.number).toBe(
        `TEST-${year}-00001`,
      );
      const nextLive = (
        await t.post('/invoice', { organizationId: liveBefore[0].organizationId, lines: LINES }, live)
      ).json().data.number;
      const [, liveCounter] = liveNumber.split('-');
      expect(nextLive).toBe(`${year}-${String(Number(liveCounter) + 1).padStart(5, '0')}`);
    });
  });
}
