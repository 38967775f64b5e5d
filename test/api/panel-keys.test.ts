import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, revealedKey, signedInAs } from '../helpers/panel-client.js';
import { runCli } from '../../src/cli/main.js';
import { PERMISSION_GROUPS, PERMISSION_NAMES } from '../../src/auth/permissions.js';

/** The table row of one key on the keys page, or undefined when the key is not listed. */
function rowOf(body: string, keyId: string): string | undefined {
  return new RegExp(`<tr data-key-id="${keyId}">[\\s\\S]*?</tr>`).exec(body)?.[0];
}

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
      const row = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
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

    it('groups the create form by resource from the catalogue, and All permissions grants every permission without JavaScript', async () => {
      const page = await owner.get('/panel/keys');
      const picker = /<fieldset class="permission-picker"[\s\S]*?<\/div>\s*<\/fieldset>/.exec(page.body)![0];
      const legends = [...picker.matchAll(/<fieldset class="permission-group">\s*<legend>([^<]+)<\/legend>/g)].map(
        (m) => m[1],
      );
      expect(legends).toEqual(PERMISSION_GROUPS.map((g) => g.resource));
      expect(legends).toEqual(
        expect.arrayContaining(['organization', 'invoice', 'payment', 'credit-note', 'company', 'event', 'webhook']),
      );
      for (const p of PERMISSION_NAMES) expect(picker).toContain(`value="${p}"`);
      expect(picker).toContain('name="allPermissions" value="1"');

      // Only the All box ticked, as a browser without JavaScript sends it.
      const res = await owner.post('/panel/keys', { name: 'Everything', allPermissions: '1' });
      expect(res.statusCode).toBe(303);
      const shown = await owner.get('/panel/keys/new');
      expect(shown.body).toContain('with all permissions:');
      const row = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('name', '=', 'Everything')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(row.permissions)).toEqual(PERMISSION_NAMES);
      // With JavaScript every box is ticked too: the same key.
      await owner.get('/panel/keys');
      expect(
        (
          await owner.post('/panel/keys', {
            name: 'Everything, ticked',
            allPermissions: '1',
            permissions: PERMISSION_NAMES,
          })
        ).statusCode,
      ).toBe(303);
      await owner.get('/panel/keys/new');
      const ticked = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('name', '=', 'Everything, ticked')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(ticked.permissions)).toEqual(PERMISSION_NAMES);

      // The list says "All permissions" instead of one badge per permission.
      const list = await owner.get('/panel/keys');
      const cell = /<td class="perms">([\s\S]*?)<\/td>/.exec(rowOf(list.body, row.id)!)![1];
      expect(cell).toBe('<span class="perm-all">All permissions</span>');
    });

    it("shows each key's permissions by resource with their level", async () => {
      const { row } = await createKey(owner, 'Grouped', [
        'invoice.read',
        'invoice.create',
        'payment.create',
        'payment.read',
        'credit-note.create',
        'organization.create',
        'organization.update',
        'organization.read',
        'company.update',
        'webhook.manage',
      ]);
      const list = await owner.get('/panel/keys');
      const groups = [
        ...rowOf(list.body, row.id)!.matchAll(/<li><span class="perm-resource">([^<]+)<\/span> ([^<]+)<\/li>/g),
      ].map((m) => `${m[1]} ${m[2]}`);
      expect(groups).toEqual([
        'invoice: read, create',
        'payment: read &amp; write',
        'credit-note: create',
        'organization: read &amp; write',
        'company: update',
        'webhook: manage',
      ]);
      expect(rowOf(list.body, row.id)).not.toContain('All permissions');
      const writer = await createKey(owner, 'Writer', [
        'invoice.create',
        'invoice.update',
        'invoice.delete',
        'invoice.send',
        'event.read',
      ]);
      const writes = [
        ...rowOf((await owner.get('/panel/keys')).body, writer.row.id)!.matchAll(
          /<li><span class="perm-resource">([^<]+)<\/span> ([^<]+)<\/li>/g,
        ),
      ].map((m) => `${m[1]} ${m[2]}`);
      expect(writes).toEqual(['invoice: write', 'event: read']);
      // The revoke confirmation says the same in words.
      expect((await owner.get(`/panel/keys/${writer.row.id}/revoke`)).body).toContain('(invoice: write; event: read)');
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
      expect(res.body).toMatch(/id="permissions-error"[^>]*>A key needs at least one permission\./);
      expect(res.body).toMatch(/id="expiresOn-error"[^>]*>The expiry must be in the future\./);
      const unknown = await owner.post('/panel/keys', { name: 'x', permissions: 'admin.everything' });
      expect(unknown.statusCode).toBe(400);
      expect(await t.storage.db.selectFrom('api_keys').selectAll().execute()).toHaveLength(before.length);
    });

    it('sets the expiry to the start of the chosen day', async () => {
      await owner.get('/panel/keys');
      await owner.post('/panel/keys', { name: 'Expiring', permissions: 'invoice.create', expiresOn: '2999-12-31' });
      const row = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('name', '=', 'Expiring')
        .executeTakeFirstOrThrow();
      expect(row.expires_at).toBe('2999-12-31T00:00:00.000Z');
    });

    it('refuses a create without the CSRF token or with a wrong one', async () => {
      const before = (await t.storage.db.selectFrom('api_keys').selectAll().execute()).length;
      await owner.get('/panel/keys');
      expect(
        (await owner.post('/panel/keys', { name: 'Forged', permissions: 'invoice.create' }, { csrf: false }))
          .statusCode,
      ).toBe(403);
      expect(
        (await owner.post('/panel/keys', { name: 'Forged', permissions: 'invoice.create' }, { csrf: 'abc-def' }))
          .statusCode,
      ).toBe(403);
      expect((await t.storage.db.selectFrom('api_keys').selectAll().execute()).length).toBe(before);
    });

    it('sends an anonymous create to the sign-in page without creating a key', async () => {
      const anonymous = new PanelClient(t.app);
      await anonymous.get('/panel/sign-in');
      const res = await anonymous.post('/panel/keys', { name: 'Anonymous', permissions: 'invoice.create' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/sign-in');
      expect(
        await t.storage.db.selectFrom('api_keys').selectAll().where('name', '=', 'Anonymous').execute(),
      ).toHaveLength(0);
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
      const events = await t.storage.db
        .selectFrom('api_key_events')
        .selectAll()
        .where('api_key_id', '=', row.id)
        .orderBy('at')
        .execute();
      expect(events.map((e) => e.action)).toEqual(['create', 'revoke']);
      expect(events[1]).toMatchObject({
        actor_label: 'owner@example.com',
        key_prefix: row.lookup_prefix,
        company_id: companyId,
      });
    });

    it("refuses to revoke another company's key and leaves it working", async () => {
      const other = await t.tenant(['organization.create']);
      const otherRow = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('company_id', '=', other.companyId)
        .executeTakeFirstOrThrow();
      await owner.get('/panel/keys');
      expect((await owner.get(`/panel/keys/${otherRow.id}/revoke`)).statusCode).toBe(404);
      const res = await owner.post(`/panel/keys/${otherRow.id}/revoke`);
      expect(res.statusCode).toBe(404);
      const after = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', otherRow.id)
        .executeTakeFirstOrThrow();
      expect(after.revoked_at).toBeNull();
      expect((await t.post('/organization', { name: 'Still works', isCustomer: true }, other.key)).statusCode).toBe(
        201,
      );
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
      expect(page.body).not.toContain('/roll"');
      expect(page.body).not.toContain('/rename"');

      const before = (await t.storage.db.selectFrom('api_keys').selectAll().execute()).length;
      const create = await member.post('/panel/keys', { name: 'Member forged', permissions: 'invoice.create' });
      expect(create.statusCode).toBe(403);
      expect(create.headers['content-type']).toMatch(/text\/html/);
      expect((await t.storage.db.selectFrom('api_keys').selectAll().execute()).length).toBe(before);
      expect((await member.get(`/panel/keys/${row.id}/revoke`)).statusCode).toBe(403);
      expect((await member.post(`/panel/keys/${row.id}/revoke`)).statusCode).toBe(403);
      expect((await member.get(`/panel/keys/${row.id}/roll`)).statusCode).toBe(403);
      expect((await member.post(`/panel/keys/${row.id}/roll`, { overlapHours: '1' })).statusCode).toBe(403);
      expect((await member.get(`/panel/keys/${row.id}/rename`)).statusCode).toBe(403);
      expect((await member.post(`/panel/keys/${row.id}/rename`, { name: 'Member renamed' })).statusCode).toBe(403);
      const still = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(still).toMatchObject({ revoked_at: null, replaced_by: null, name: 'Visible to members' });
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

    it('reports every error of the create form at once', async () => {
      await owner.get('/panel/keys');
      const res = await owner.post('/panel/keys', { name: '', expiresOn: 'tomorrow', mode: 'prod' });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('4 fields need attention.');
      for (const field of ['name', 'permissions', 'expiresOn', 'mode'])
        expect(res.body).toContain(`id="${field}-error"`);
    });

    it('rolls a key: the successor is shown once, both keys work during the overlap, and the old one is refused after it', async () => {
      const { key: oldKey, row: old } = await createKey(owner, 'Rollable', [
        'organization.create',
        'organization.read',
      ]);
      expect((await t.get('/organization', oldKey)).statusCode).toBe(200);
      expect(rowOf((await owner.get('/panel/keys')).body, old.id)).toContain(`href="/panel/keys/${old.id}/roll"`);

      const form = await owner.get(`/panel/keys/${old.id}/roll`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('Roll “Rollable”');
      expect(form.body).toMatch(/name="overlapHours" type="number" min="0" max="168"[^>]* value="24"/);
      const before = Date.now();
      const res = await owner.post(`/panel/keys/${old.id}/roll`, { overlapHours: '6' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/keys/new');
      expect(JSON.stringify(res.headers)).not.toMatch(/inv_live_/);
      const shown = await owner.get('/panel/keys/new');
      const newKey = revealedKey(shown.body)!;
      expect(newKey).toMatch(/^inv_live_/);
      expect(shown.body).toContain(`It replaces key <code>${old.lookup_prefix}</code>, which keeps working until`);
      expect(revealedKey((await owner.get('/panel/keys/new')).body)).toBeUndefined();

      const successor = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('lookup_prefix', '=', newKey.split('_')[2]!)
        .executeTakeFirstOrThrow();
      expect(successor).toMatchObject({
        name: 'Rollable',
        company_id: companyId,
        livemode: 1,
        expires_at: null,
        revoked_at: null,
        permissions: old.permissions,
      });
      const after = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', old.id)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({ replaced_by: successor.id, revoked_at: null });
      expect(Date.parse(after.expires_at!)).toBeGreaterThanOrEqual(before + 6 * 3_600_000);
      expect(Date.parse(after.expires_at!)).toBeLessThanOrEqual(Date.now() + 6 * 3_600_000);

      expect((await t.get('/organization', oldKey)).statusCode).toBe(200);
      expect((await t.get('/organization', newKey)).statusCode).toBe(200);

      const list = await owner.get('/panel/keys');
      const oldRow = rowOf(list.body, old.id)!;
      expect(oldRow).toContain(`rolled to <code>${successor.lookup_prefix}</code>`);
      expect(oldRow).not.toContain('/roll"');
      expect(oldRow).toContain('/revoke"');
      expect(list.body).toMatch(
        new RegExp(
          `owner@example\\.com</strong> rolled key <strong>Rollable</strong> \\(<code>${old.lookup_prefix}</code>\\) to <code>${successor.lookup_prefix}</code>; the old key works until <time`,
        ),
      );
      // A rolled key is not rolled twice.
      expect((await owner.get(`/panel/keys/${old.id}/roll`)).headers.location).toBe('/panel/keys?done=not-rolled');

      // The overlap ends (the cache of this instance forgets the row, as it does after API_KEY_CACHE_TTL_MS).
      await t.storage.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', old.id)
        .execute();
      t.container.verifier.forget(old.lookup_prefix);
      expect((await t.get('/organization', oldKey)).statusCode).toBe(401);
      expect((await t.get('/organization', newKey)).statusCode).toBe(200);
    });

    it('rolls with an overlap of 0 hours: the old key is refused at once', async () => {
      const { key: oldKey, row: old } = await createKey(owner, 'Leaked', ['organization.read']);
      expect((await t.get('/organization', oldKey)).statusCode).toBe(200);
      await owner.get(`/panel/keys/${old.id}/roll`);
      expect((await owner.post(`/panel/keys/${old.id}/roll`, { overlapHours: '0' })).statusCode).toBe(303);
      const shown = await owner.get('/panel/keys/new');
      expect(shown.body).toContain(`It replaces key <code>${old.lookup_prefix}</code>, which is refused from now on.`);
      expect((await t.get('/organization', oldKey)).statusCode).toBe(401);
      expect((await t.get('/organization', revealedKey(shown.body)!)).statusCode).toBe(200);
    });

    it('refuses overlaps outside 0 to 168 hours with the error next to the field, and rolls nothing', async () => {
      const { row } = await createKey(owner, 'Not rolled');
      const count = async () => (await t.storage.db.selectFrom('api_keys').select('id').execute()).length;
      const before = await count();
      await owner.get(`/panel/keys/${row.id}/roll`);
      for (const overlapHours of ['169', '-1', 'a day', '']) {
        const res = await owner.post(`/panel/keys/${row.id}/roll`, { overlapHours });
        expect(res.statusCode, overlapHours).toBe(400);
        expect(res.body).toMatch(/id="overlapHours-error"[^>]*>Enter a number of hours from 0 to 168 \(7 days\)\./);
        expect(res.body).toContain('aria-invalid="true"');
      }
      expect(await count()).toBe(before);
      expect(
        (await t.storage.db.selectFrom('api_keys').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow())
          .replaced_by,
      ).toBeNull();
    });

    it('offers no Revoke or Roll for revoked and expired keys, and refuses to roll them', async () => {
      const { row: revoked } = await createKey(owner, 'Gone');
      await owner.get(`/panel/keys/${revoked.id}/revoke`);
      await owner.post(`/panel/keys/${revoked.id}/revoke`);
      const { row: expired } = await createKey(owner, 'Past');
      await t.storage.db
        .updateTable('api_keys')
        .set({ expires_at: '2001-01-01T00:00:00.000Z' })
        .where('id', '=', expired.id)
        .execute();

      const page = await owner.get('/panel/keys');
      for (const id of [revoked.id, expired.id]) {
        const row = rowOf(page.body, id)!;
        expect(row).toBeDefined();
        expect(row).not.toContain('/revoke"');
        expect(row).not.toContain('/roll"');
        expect(row).toContain(`href="/panel/keys/${id}/rename"`);
        expect((await owner.get(`/panel/keys/${id}/revoke`)).headers.location).toBe('/panel/keys');
        expect((await owner.get(`/panel/keys/${id}/roll`)).headers.location).toBe('/panel/keys?done=not-rolled');
        const roll = await owner.post(`/panel/keys/${id}/roll`, { overlapHours: '1' });
        expect(roll.headers.location).toBe('/panel/keys?done=not-rolled');
        expect(
          (await t.storage.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirstOrThrow())
            .replaced_by,
        ).toBeNull();
      }
      expect((await owner.get('/panel/keys?done=not-rolled')).body).toContain('That key cannot be rolled');
    });

    it('renames a key, which keeps working, and refuses an empty name with the error next to the field', async () => {
      const { key, row } = await createKey(owner, 'Before rename');
      const form = await owner.get(`/panel/keys/${row.id}/rename`);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('value="Before rename"');
      const empty = await owner.post(`/panel/keys/${row.id}/rename`, { name: '   ' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toMatch(/id="name-error"[^>]*>Give the key a name\./);
      const long = await owner.post(`/panel/keys/${row.id}/rename`, { name: 'x'.repeat(201) });
      expect(long.body).toMatch(/id="name-error"[^>]*>The key name must be at most 200 characters\./);

      const res = await owner.post(`/panel/keys/${row.id}/rename`, { name: 'After <rename>' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/keys?done=renamed');
      const stored = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      expect(stored.name).toBe('After <rename>');
      expect((await t.post('/organization', { name: 'After a rename', isCustomer: true }, key)).statusCode).toBe(201);
      const page = await owner.get('/panel/keys?done=renamed');
      expect(page.body).toContain('The key is renamed.');
      expect(page.body).toContain(
        'renamed key <strong>Before rename</strong> to <strong>After &lt;rename&gt;</strong>',
      );
    });

    it("refuses to roll or rename another company's key with 404", async () => {
      const other = await t.tenant(['organization.create']);
      const otherRow = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('company_id', '=', other.companyId)
        .executeTakeFirstOrThrow();
      await owner.get('/panel/keys');
      expect((await owner.get(`/panel/keys/${otherRow.id}/roll`)).statusCode).toBe(404);
      expect((await owner.post(`/panel/keys/${otherRow.id}/roll`, { overlapHours: '1' })).statusCode).toBe(404);
      expect((await owner.get(`/panel/keys/${otherRow.id}/rename`)).statusCode).toBe(404);
      expect((await owner.post(`/panel/keys/${otherRow.id}/rename`, { name: 'Hijacked' })).statusCode).toBe(404);
      const after = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', otherRow.id)
        .executeTakeFirstOrThrow();
      expect(after).toMatchObject({ name: otherRow.name, replaced_by: null, expires_at: null });
    });

    it('searches keys by name or prefix and filters them by status and mode', async () => {
      const { row: alpha } = await createKey(owner, 'Search alpha');
      const { row: beta } = await createKey(owner, 'Search beta');
      await owner.get('/panel/keys');
      await owner.post('/panel/keys', { name: 'Search sandbox', permissions: 'invoice.create', mode: 'test' });
      await owner.get('/panel/keys/new');
      const sandbox = await t.storage.db
        .selectFrom('api_keys')
        .selectAll()
        .where('name', '=', 'Search sandbox')
        .executeTakeFirstOrThrow();
      await owner.get(`/panel/keys/${beta.id}/revoke`);
      await owner.post(`/panel/keys/${beta.id}/revoke`);
      const listed = (body: string) => [alpha.id, beta.id, sandbox.id].filter((id) => rowOf(body, id) !== undefined);

      expect(listed((await owner.get('/panel/keys')).body)).toEqual([alpha.id, beta.id, sandbox.id]);
      expect(listed((await owner.get('/panel/keys?q=SEARCH%20ALPHA')).body)).toEqual([alpha.id]);
      expect(listed((await owner.get(`/panel/keys?q=${beta.lookup_prefix}`)).body)).toEqual([beta.id]);
      expect(listed((await owner.get('/panel/keys?q=search&status=revoked')).body)).toEqual([beta.id]);
      expect(listed((await owner.get('/panel/keys?q=search&status=active')).body)).toEqual([alpha.id, sandbox.id]);
      expect(listed((await owner.get('/panel/keys?q=search&mode=test')).body)).toEqual([sandbox.id]);
      expect(listed((await owner.get('/panel/keys?q=search&mode=live&status=active')).body)).toEqual([alpha.id]);

      const filtered = await owner.get('/panel/keys?q=search&status=revoked&mode=live');
      expect(filtered.body).toContain('<option value="revoked" selected>');
      expect(filtered.body).toContain('<option value="live" selected>');
      expect(filtered.body).toContain('value="search"');
      expect(filtered.body).toContain('Show all keys');
      const none = await owner.get('/panel/keys?q=nothing-like-this');
      expect(none.statusCode).toBe(200);
      expect(none.body).toContain('No key matches this search.');
      // Unknown filter values are ignored rather than failing the page.
      expect(listed((await owner.get('/panel/keys?status=bogus&mode=bogus&q=search')).body)).toEqual([
        alpha.id,
        beta.id,
        sandbox.id,
      ]);
    });

    it('lists keys created, renamed, rolled and revoked with the CLI in Activity, with CLI as the actor', async () => {
      const cli = async (...args: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runCli([...args, '--json'], {
          stdout: (s) => out.push(s),
          stderr: (s) => err.push(s),
          env: { DATABASE_URL: t.database.url },
        });
        expect(code, err.join('')).toBe(0);
        return JSON.parse(out.join(''));
      };
      const created = await cli(
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'From the CLI',
        '--permissions',
        'invoice.create',
      );
      await cli('key', 'rename', created.id, '--name', 'Renamed by the CLI');
      const rolled = await cli('key', 'roll', created.id, '--overlap', '1');
      await cli('key', 'revoke', rolled.id);

      const page = await owner.get('/panel/keys');
      const activity = page.body.slice(page.body.indexOf('id="activity-heading"'));
      expect(activity).toContain(
        `<strong>CLI</strong> created key <strong>From the CLI</strong> (<code>${created.prefix}</code>)`,
      );
      expect(activity).toContain(
        `<strong>CLI</strong> renamed key <strong>From the CLI</strong> to <strong>Renamed by the CLI</strong>`,
      );
      expect(activity).toContain(
        `<strong>CLI</strong> rolled key <strong>Renamed by the CLI</strong> (<code>${created.prefix}</code>) to <code>${rolled.prefix}</code>`,
      );
      expect(activity).toContain(
        `<strong>CLI</strong> revoked key <strong>Renamed by the CLI</strong> (<code>${rolled.prefix}</code>)`,
      );
      expect(rowOf(page.body, created.id)).toContain('by CLI');
      expect(rowOf(page.body, rolled.id)).toContain('by CLI');
    });
  });
}
