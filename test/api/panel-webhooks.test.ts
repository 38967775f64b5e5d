import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scopeFor } from '../../src/db/scope.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { addEndpoint, shownSecret } from '../helpers/panel-webhooks.js';
import { claimInstance, signedInAs, type PanelClient } from '../helpers/panel-client.js';

// The panel's Webhooks page: adding endpoints (secret shown once), enabling, disabling, rotating
// and deleting them, with the keys page's role rule. Endpoints point at loopback addresses that
// nothing sends to here: these tests make no events (deliveries are in panel-webhook-deliveries).

const LOOPBACK = 'http://127.0.0.1:9/hooks';

for (const dialect of DIALECTS) {
  describe(`panel webhooks on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true });
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    const endpointRow = (id: string) =>
      t.storage.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    const endpointCount = async () =>
      (await t.storage.db.selectFrom('webhook_endpoints').select('id').execute()).length;
    async function strangersEndpoint() {
      const stranger = await t.createCompany('Stranger GmbH');
      const created = await t.container.webhookEndpoints.create(scopeFor(stranger), {
        url: 'http://127.0.0.1:9/stranger',
        events: ['*'],
        description: 'Stranger hook',
      });
      if (!created.ok) throw new Error(created.code);
      return created.value;
    }

    it('lists Webhooks in the navigation and shows the owner an empty state and the create form', async () => {
      const page = await owner.get('/panel/webhooks');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<a href="/panel/webhooks" aria-current="page">Webhooks</a>');
      expect(page.body).toContain('No webhook endpoints yet.');
      expect(page.body).toContain('<button type="submit">Add endpoint</button>');
      expect(page.body).toMatch(/<input type="checkbox" name="events" value="\*" checked>/);
      for (const type of ['invoice.paid', 'organization.created']) expect(page.body).toContain(`value="${type}"`);
    });

    it('adds an endpoint and shows its whsec_ secret once; the page after does not, and no row holds it in clear', async () => {
      const { id, secret, shown } = await addEndpoint(owner, {
        url: LOOPBACK,
        events: ['invoice.paid', 'invoice.voided'],
        description: 'ERP (production)',
      });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(shown.body).toContain('It will not be shown again.');
      expect(shown.body).toContain('data-copy-target="new-secret"');
      expect(shown.body).not.toContain('keeps signing beside the new one');

      const again = await owner.get(`/panel/webhooks/${id}/secret`);
      expect(again.statusCode).toBe(200);
      expect(shownSecret(again.body)).toBeUndefined();
      expect(again.body).toContain('The secret is no longer shown');
      for (const page of [again, await owner.get('/panel/webhooks'), await owner.get(`/panel/webhooks/${id}`)])
        expect(page.body).not.toContain(secret!);

      const list = await owner.get('/panel/webhooks');
      expect(list.body).toContain(`href="/panel/webhooks/${id}"`);
      expect(list.body).toContain('<code class="perm">invoice.paid</code>');
      expect(list.body).toContain('ERP (production)');
      expect(list.body).toContain('badge-enabled');

      const row = (await endpointRow(id))!;
      expect(row).toMatchObject({ company_id: companyId, url: LOOPBACK, enabled: 1, description: 'ERP (production)' });
      expect(JSON.parse(row.events)).toEqual(['invoice.paid', 'invoice.voided']);
      expect(JSON.stringify(row)).not.toContain(secret!.slice('whsec_'.length));
      expect(row.secret_sealed).toMatch(/^sealed\.v1\./);
      const sessions = await t.storage.db.selectFrom('user_sessions').select('sealed_reveal').execute();
      expect(sessions.every((s) => s.sealed_reveal === null)).toBe(true);
    });

    it('never puts the secret in a URL or a header', async () => {
      await owner.get('/panel/webhooks');
      const res = await owner.post('/panel/webhooks', { url: LOOPBACK, events: '*' });
      expect(JSON.stringify(res.headers)).not.toMatch(/whsec_/);
      const shown = await owner.get(String(res.headers.location));
      expect(JSON.stringify(shown.headers)).not.toMatch(/whsec_/);
      expect(shownSecret(shown.body)).toBeDefined();
    });

    it("shows the service's refusal of a URL next to the field with 400 and creates nothing", async () => {
      const before = await endpointCount();
      await owner.get('/panel/webhooks');
      const ftp = await owner.post('/panel/webhooks', {
        url: 'ftp://127.0.0.1/hooks',
        events: '*',
        description: 'Kept on refusal',
      });
      expect(ftp.statusCode).toBe(400);
      expect(ftp.headers['content-type']).toMatch(/text\/html/);
      expect(ftp.body).toMatch(/id="url-error"[^>]*>Must be an https URL\./);
      expect(ftp.body).toContain('value="ftp://127.0.0.1/hooks"');
      expect(ftp.body).toContain('value="Kept on refusal"');
      const credentials = await owner.post('/panel/webhooks', {
        url: 'https://ana:secret@127.0.0.1/hooks',
        events: '*',
      });
      expect(credentials.statusCode).toBe(400);
      expect(credentials.body).toMatch(/id="url-error"[^>]*>Must not carry a user name or password/);
      const empty = await owner.post('/panel/webhooks', { url: '  ', events: '*' });
      expect(empty.body).toMatch(/id="url-error"[^>]*>Enter the address that receives the events\./);
      expect(await endpointCount()).toBe(before);
    });

    it('refuses a form without event types or with unknown ones, and lets "All events" win over single types', async () => {
      const before = await endpointCount();
      await owner.get('/panel/webhooks');
      const none = await owner.post('/panel/webhooks', { url: LOOPBACK });
      expect(none.statusCode).toBe(400);
      expect(none.body).toMatch(/id="events-error"[^>]*>Choose the event types to send, or All events\./);
      const unknown = await owner.post('/panel/webhooks', {
        url: LOOPBACK,
        events: ['invoice.paid', 'invoice.exploded'],
      });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.body).toMatch(/id="events-error"[^>]*>Choose event types from the list\./);
      expect(await endpointCount()).toBe(before);

      const { id } = await addEndpoint(owner, { url: LOOPBACK, events: ['*', 'invoice.paid'] });
      expect(JSON.parse((await endpointRow(id))!.events)).toEqual(['*']);
      expect((await owner.get('/panel/webhooks')).body).toContain('<strong>All events</strong>');
    });

    it('refuses a create without the CSRF token or with a wrong one', async () => {
      const before = await endpointCount();
      await owner.get('/panel/webhooks');
      expect((await owner.post('/panel/webhooks', { url: LOOPBACK, events: '*' }, { csrf: false })).statusCode).toBe(
        403,
      );
      expect(
        (await owner.post('/panel/webhooks', { url: LOOPBACK, events: '*' }, { csrf: 'abc-def' })).statusCode,
      ).toBe(403);
      const { id } = await addEndpoint(owner, { url: LOOPBACK });
      expect((await owner.post(`/panel/webhooks/${id}/disable`, {}, { csrf: false })).statusCode).toBe(403);
      expect((await owner.post(`/panel/webhooks/${id}/delete`, {}, { csrf: false })).statusCode).toBe(403);
      expect((await endpointRow(id))!.enabled).toBe(1);
      expect(await endpointCount()).toBe(before + 1);
    });

    it('disables and enables an endpoint, and deletes it after a confirmation page', async () => {
      const { id } = await addEndpoint(owner, { url: LOOPBACK, description: 'Switch me' });
      const disabled = await owner.post(`/panel/webhooks/${id}/disable`);
      expect(disabled.statusCode).toBe(303);
      expect(disabled.headers.location).toBe(`/panel/webhooks/${id}?done=disabled`);
      expect(await endpointRow(id)).toMatchObject({ enabled: 0, disabled_reason: null });
      const page = await owner.get(`/panel/webhooks/${id}?done=disabled`);
      expect(page.body).toContain('The endpoint is disabled.');
      expect(page.body).toContain('<span class="badge badge-disabled">Disabled</span>');
      expect(page.body).toContain(`action="/panel/webhooks/${id}/enable"`);

      expect((await owner.post(`/panel/webhooks/${id}/enable`)).headers.location).toBe(
        `/panel/webhooks/${id}?done=enabled`,
      );
      expect((await endpointRow(id))!.enabled).toBe(1);

      const confirm = await owner.get(`/panel/webhooks/${id}/delete`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('Delete this endpoint?');
      expect(confirm.body).toContain(`action="/panel/webhooks/${id}/delete"`);
      expect(await endpointRow(id)).toBeDefined();
      const deleted = await owner.post(`/panel/webhooks/${id}/delete`);
      expect(deleted.headers.location).toBe('/panel/webhooks?done=deleted');
      expect(await endpointRow(id)).toBeUndefined();
      expect((await owner.get('/panel/webhooks?done=deleted')).body).toContain('The endpoint is deleted.');
      expect((await owner.get(`/panel/webhooks/${id}`)).statusCode).toBe(404);
    });

    it('rotates the secret after a confirmation, shows the new one once and says the old one signs for 24 hours', async () => {
      const { id, secret } = await addEndpoint(owner, { url: LOOPBACK });
      const confirm = await owner.get(`/panel/webhooks/${id}/rotate`);
      expect(confirm.body).toContain('Rotate the signing secret?');
      const rotated = await owner.post(`/panel/webhooks/${id}/rotate`);
      expect(rotated.headers.location).toBe(`/panel/webhooks/${id}/secret`);
      const shown = await owner.get(`/panel/webhooks/${id}/secret`);
      const fresh = shownSecret(shown.body);
      expect(fresh).toMatch(/^whsec_/);
      expect(fresh).not.toBe(secret);
      expect(shown.body).toContain('The old secret keeps signing beside the new one for 24 hours');
      const row = (await endpointRow(id))!;
      expect(row.previous_secret_sealed).not.toBeNull();
      expect(JSON.stringify(row)).not.toContain(fresh!.slice('whsec_'.length));
      expect(shownSecret((await owner.get(`/panel/webhooks/${id}/secret`)).body)).toBeUndefined();
    });

    it("answers 404 to every page and action on another company's endpoint and changes nothing", async () => {
      const foreign = await strangersEndpoint();
      await owner.get('/panel/webhooks');
      for (const path of ['', '/delete', '/rotate'])
        expect((await owner.get(`/panel/webhooks/${foreign.id}${path}`)).statusCode).toBe(404);
      for (const action of ['disable', 'enable', 'delete', 'rotate']) {
        const res = await owner.post(`/panel/webhooks/${foreign.id}/${action}`);
        expect(res.statusCode, action).toBe(404);
        expect(res.body).toContain('it belongs to another company');
      }
      const after = (await endpointRow(foreign.id))!;
      expect(after).toMatchObject({ enabled: 1, previous_secret_sealed: null });
      expect((await owner.get('/panel/webhooks')).body).not.toContain('Stranger hook');
    });

    it('shows a member the endpoints without controls and refuses forged member posts with 403', async () => {
      const { id } = await addEndpoint(owner, { url: LOOPBACK, description: 'Visible to members' });
      const member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      const list = await member.get('/panel/webhooks');
      expect(list.statusCode).toBe(200);
      expect(list.body).toContain('Visible to members');
      expect(list.body).not.toContain('Add endpoint');
      expect(list.body).not.toContain('action="/panel/webhooks"');
      const page = await member.get(`/panel/webhooks/${id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toMatch(/action="\/panel\/webhooks\/[^"]+\/(disable|enable|delete|rotate|resend)"/);
      expect(page.body).not.toContain('Rotate secret');

      const before = await endpointCount();
      const create = await member.post('/panel/webhooks', { url: LOOPBACK, events: '*' });
      expect(create.statusCode).toBe(403);
      expect(create.headers['content-type']).toMatch(/text\/html/);
      for (const path of ['/delete', '/rotate'])
        expect((await member.get(`/panel/webhooks/${id}${path}`)).statusCode).toBe(403);
      for (const action of ['disable', 'delete', 'rotate'])
        expect((await member.post(`/panel/webhooks/${id}/${action}`)).statusCode, action).toBe(403);
      expect((await member.post(`/panel/webhooks/${id}/resend`, { eventId: 'evt_x' })).statusCode).toBe(403);
      expect(await endpointCount()).toBe(before);
      expect(await endpointRow(id)).toMatchObject({ enabled: 1, previous_secret_sealed: null });
    });

    it('lets an admin add, disable and delete endpoints', async () => {
      const admin = await signedInAs(t.app, companyId, 'admin@example.com', 'admin');
      const { id, secret } = await addEndpoint(admin, { url: LOOPBACK });
      expect(secret).toMatch(/^whsec_/);
      expect((await admin.post(`/panel/webhooks/${id}/disable`)).statusCode).toBe(303);
      expect((await admin.post(`/panel/webhooks/${id}/delete`)).statusCode).toBe(303);
      expect(await endpointRow(id)).toBeUndefined();
    });

    it('escapes the URL and description in the pages', async () => {
      const { id } = await addEndpoint(owner, {
        url: 'http://127.0.0.1:9/hooks?x="><img src=x>',
        description: '<img src=x onerror=alert(1)>',
      });
      for (const page of [await owner.get('/panel/webhooks'), await owner.get(`/panel/webhooks/${id}`)]) {
        expect(page.body).not.toContain('<img src=x');
        expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
      }
    });
  });
}

// Without WEBHOOK_ALLOW_PRIVATE_URLS (the default) the panel refuses what the API refuses.
for (const dialect of DIALECTS) {
  describe(`panel webhooks with the default URL rules on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('refuses http and private addresses with the service message next to the field', async () => {
      await owner.get('/panel/webhooks');
      const http = await owner.post('/panel/webhooks', { url: 'http://203.0.113.9/hooks', events: '*' });
      expect(http.statusCode).toBe(400);
      expect(http.body).toMatch(/id="url-error"[^>]*>Must be an https URL\./);
      const loopback = await owner.post('/panel/webhooks', { url: 'https://127.0.0.1/hooks', events: '*' });
      expect(loopback.statusCode).toBe(400);
      expect(loopback.body).toMatch(
        /id="url-error"[^>]*>The host resolves to 127\.0\.0\.1, which is not a public address/,
      );
      const metadata = await owner.post('/panel/webhooks', { url: 'https://169.254.169.254/latest', events: '*' });
      expect(metadata.body).toMatch(/id="url-error"[^>]*>The host resolves to 169\.254\.169\.254/);
      expect(await t.storage.db.selectFrom('webhook_endpoints').select('id').execute()).toHaveLength(0);
    });
  });
}
