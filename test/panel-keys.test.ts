import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './helpers/dialects.js';
import { buildTestApp, type TestApp } from './helpers/build.js';
import { claimInstance, PanelClient, revealedKey, signedInAs } from './panel-client.js';

for (const dialect of DIALECTS) {
  describe(`panel API keys on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    async function createKey(client: PanelClient, name: string, permissions: string[] = ['organization.create']) {
      await client.get('/panel/keys');
      const res = await client.post('/panel/keys', { name, permissions });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/keys/new');
      const shown = await client.get('/panel/keys/new');
      const key = revealedKey(shown.body)!;
      const row = await t.storage.db.selectFrom('api_keys').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
      return { key, row, shown };
    }

    it('shows an empty state and the create form to the owner', async () => {
      const page = await owner.get('/panel/keys');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('No API keys yet.');
      expect(page.body).toContain('<button type="submit">Create key</button>');
      for (const p of ['invoice.create', 'organization.create']) expect(page.body).toContain(`value="${p}"`);
    });

    it('creates a key, shows the full key once, and the key works on the API', async () => {
      const { key, row, shown } = await createKey(owner, 'ERP sync', ['organization.create', 'invoice.create']);
      expect(key).toMatch(/^inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/);
      expect(shown.body).toContain('It will not be shown again.');
      expect(shown.body).toContain('data-copy-target="new-key"');
      expect(row).toMatchObject({ company_id: companyId, lookup_prefix: key.split('_')[2] });
      expect(JSON.parse(row.permissions)).toEqual(['organization.create', 'invoice.create']);

      const api = await t.post('/organization', { name: 'Made with a panel key', isCustomer: true }, key);
      expect(api.statusCode).toBe(201);

      const again = await owner.get('/panel/keys/new');
      expect(again.statusCode).toBe(200);
      expect(revealedKey(again.body)).toBeUndefined();
      expect(again.body).toContain('The key is no longer shown');
      const list = await owner.get('/panel/keys');
      expect(list.body).not.toContain(key);
      expect(list.body).toContain('ERP sync');
      expect(list.body).toContain(`<code>${row.lookup_prefix}</code>`);
      expect(list.body).toContain('by owner@example.com');
      expect(list.body).toContain('badge-active');
      expect(list.body).toMatch(/owner@example\.com<\/strong> created key <strong>ERP sync<\/strong>/);
      // Nothing about the secret is stored in the session once shown.
      const sessions = await t.storage.db.selectFrom('user_sessions').select('sealed_reveal').execute();
      expect(sessions.every((s) => s.sealed_reveal === null)).toBe(true);
    });

    it('never puts the secret in a URL or a cookie', async () => {
      await owner.get('/panel/keys');
      const res = await owner.post('/panel/keys', { name: 'No leaks', permissions: 'invoice.create' });
      expect(res.headers.location).toBe('/panel/keys/new');
      expect(JSON.stringify(res.headers)).not.toMatch(/inv_live_/);
      const shown = await owner.get('/panel/keys/new');
      expect(JSON.stringify(shown.headers)).not.toMatch(/inv_live_/);
      expect(revealedKey(shown.body)).toBeDefined();
    });

    it('refuses invalid create forms with the error next to each field and creates nothing', async () => {
      const before = await t.storage.db.selectFrom('api_keys').selectAll().execute();
      await owner.get('/panel/keys');
      const res = await owner.post('/panel/keys', { name: '  ', expiresOn: '2001-01-01' });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/id="name-error"[^>]*>Give the key a name\./);
      expect(res.body).toMatch(/id="permissions-error"[^>]*>Choose at least one permission\./);
      expect(res.body).toMatch(/id="expiresOn-error"[^>]*>Choose a day in the future\./);
      const unknown = await owner.post('/panel/keys', { name: 'x', permissions: 'admin.everything' });
      expect(unknown.statusCode).toBe(400);
      expect(await t.storage.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(before.length);
    });

    it('sets the expiry to the start of the chosen day', async () => {
      await owner.get('/panel/keys');
      await owner.post('/panel/keys', { name: 'Expiring', permissions: 'invoice.create', expiresOn: '2999-12-31' });
      const row = await t.storage.db.selectFrom('api_keys').selectAll().where('name', '=', 'Expiring').executeTakeFirstOrThrow();
      expect(row.expires_at).toBe('2999-12-31T00:00:00.000Z');
    });

    it('refuses a create without the CSRF token or with a wrong one', async () => {
      const before = (await t.storage.db.selectFrom('api_keys').selectAll().execute()).length;
      await owner.get('/panel/keys');
      expect((await owner.post('/panel/keys', { name: 'Forged', permissions: 'invoice.create' }, { csrf: false })).statusCode).toBe(403);
      expect((await owner.post('/panel/keys', { name: 'Forged', permissions: 'invoice.create' }, { csrf: 'abc-def' })).statusCode).toBe(403);
      expect((await t.storage.db.selectFrom('api_keys').selectAll().execute()).length).toBe(before);
    });

    it('sends an anonymous create to the sign-in page without creating a key', async () => {
      const anonymous = new PanelClient(t.app);
      await anonymous.get('/panel/sign-in');
      const res = await anonymous.post('/panel/keys', { name: 'Anonymous', permissions: 'invoice.create' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/sign-in');
      expect(await t.storage.db.selectFrom('api_keys').selectAll().where('name', '=', 'Anonymous').execute()).toHaveLength(0);
    });

    it('revokes after a confirmation page, and the API refuses the key at once', async () => {
      const { key, row } = await createKey(owner, 'To revoke');
      expect((await t.post('/organization', { name: 'Before revoke', isCustomer: true }, key)).statusCode).toBe(201);

      const confirm = await owner.get(`/panel/keys/${row.id}/revoke`);
      expect(confirm.statusCode).toBe(200);
      expect(confirm.body).toContain('Revoke “To revoke”?');
      expect(confirm.body).toContain(`action="/panel/keys/${row.id}/revoke"`);
      const res = await owner.post(`/panel/keys/${row.id}/revoke`);
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/keys?done=revoked');

      // The key row was cached by the verifier a moment ago; the panel makes it forget.
      const api = await t.post('/organization', { name: 'After revoke', isCustomer: true }, key);
      expect(api.statusCode).toBe(401);
      expect(api.json().error.code).toBe('INVALID_API_KEY');

      const list = await owner.get('/panel/keys?done=revoked');
      expect(list.body).toContain('The key is revoked.');
      expect(list.body).toMatch(/owner@example\.com<\/strong> revoked key <strong>To revoke<\/strong>/);
      const events = await t.storage.db.selectFrom('api_key_events').selectAll().where('api_key_id', '=', row.id).orderBy('at').execute();
      expect(events.map((e) => e.action)).toEqual(['create', 'revoke']);
      expect(events[1]).toMatchObject({ actor_label: 'owner@example.com', key_prefix: row.lookup_prefix, company_id: companyId });
    });

    it("refuses to revoke another company's key and leaves it working", async () => {
      const other = await t.tenant(['organization.create']);
      const otherRow = await t.storage.db.selectFrom('api_keys').selectAll().where('company_id', '=', other.companyId).executeTakeFirstOrThrow();
      await owner.get('/panel/keys');
      expect((await owner.get(`/panel/keys/${otherRow.id}/revoke`)).statusCode).toBe(404);
      const res = await owner.post(`/panel/keys/${otherRow.id}/revoke`);
      expect(res.statusCode).toBe(404);
      const after = await t.storage.db.selectFrom('api_keys').selectAll().where('id', '=', otherRow.id).executeTakeFirstOrThrow();
      expect(after.revoked_at).toBeNull();
      expect((await t.post('/organization', { name: 'Still works', isCustomer: true }, other.key)).statusCode).toBe(201);
      expect((await owner.get('/panel/keys')).body).not.toContain(otherRow.lookup_prefix);
    });

    it('shows a member the list without create or revoke controls, and refuses forged member posts with 403', async () => {
      const { row } = await createKey(owner, 'Visible to members');
      const member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      const page = await member.get('/panel/keys');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Visible to members');
      expect(page.body).not.toContain('Create key');
      expect(page.body).not.toContain('method="post" action="/panel/keys"');
      expect(page.body).not.toContain('/revoke"');

      const before = (await t.storage.db.selectFrom('api_keys').selectAll().execute()).length;
      const create = await member.post('/panel/keys', { name: 'Member forged', permissions: 'invoice.create' });
      expect(create.statusCode).toBe(403);
      expect(create.headers['content-type']).toMatch(/text\/html/);
      expect((await t.storage.db.selectFrom('api_keys').selectAll().execute()).length).toBe(before);
      expect((await member.get(`/panel/keys/${row.id}/revoke`)).statusCode).toBe(403);
      expect((await member.post(`/panel/keys/${row.id}/revoke`)).statusCode).toBe(403);
      const still = await t.storage.db.selectFrom('api_keys').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
      expect(still.revoked_at).toBeNull();
    });

    it('lets an admin create and revoke keys', async () => {
      const admin = await signedInAs(t.app, companyId, 'admin@example.com', 'admin');
      const { key, row } = await createKey(admin, 'Admin key');
      expect(key).toBeDefined();
      await admin.get(`/panel/keys/${row.id}/revoke`);
      expect((await admin.post(`/panel/keys/${row.id}/revoke`)).statusCode).toBe(303);
    });

    it('escapes key names in the page', async () => {
      await createKey(owner, '<img src=x onerror=alert(1)>');
      const page = await owner.get('/panel/keys');
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    });
  });
}
