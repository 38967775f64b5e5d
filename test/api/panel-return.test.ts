import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safePanelPath } from '../../src/panel/return-to.js';
import { tokenHash } from '../../src/panel/sessions.js';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, PASSWORD } from '../helpers/panel-client.js';

// An ended session says so, keeps what can be kept, and sign-in leads back to the page.

describe('the return path after sign-in', () => {
  it('accepts panel pages with their query and refuses other sites, the API, dot segments and sign-in itself', () => {
    expect(safePanelPath('/panel/invoices?q=acme&page=2')).toBe('/panel/invoices?q=acme&page=2');
    expect(safePanelPath('/panel')).toBe('/panel');
    for (const bad of [
      'https://evil.example/panel',
      '//evil.example/panel',
      '/panel//evil.example',
      '/panel/../v1/invoice',
      '/panel/%2e%2e/v1',
      '/panel\\..\\x',
      '/panelx',
      '/v1/invoice',
      '/panel/sign-in',
      '/panel/sign-in?return=/panel',
      '/panel/keys\r\nSet-Cookie: x=1',
      'javascript:alert(1)',
      '',
    ]) {
      expect(safePanelPath(bad), bad).toBeNull();
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`panel sessions that end on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(dialect);
      await claimInstance(t.app);
    });
    afterAll(async () => t.close());

    /**
     * Ends the client's session on the server as time would, and drops its session cookie as the
     * browser does when the cookie's Max-Age (the session's lifetime) runs out.
     */
    async function expire(client: PanelClient): Promise<void> {
      const token = client.cookies.get('invoicing_session')!;
      await t.storage.db
        .updateTable('user_sessions')
        .set({ expires_at: '2000-01-01T00:00:00.000Z' })
        .where('token_hash', '=', tokenHash(token))
        .execute();
      client.cookies.delete('invoicing_session');
    }

    async function signedInOwner(): Promise<PanelClient> {
      const client = new PanelClient(t.app);
      expect((await client.signIn('owner@example.com')).statusCode).toBe(303);
      return client;
    }

    it('gives the session cookie exactly the lifetime of the session, and tells an expired session from none by a marker without a secret', async () => {
      const client = new PanelClient(t.app);
      await client.get('/panel/sign-in');
      const res = await client.post('/panel/sign-in', { email: 'owner@example.com', password: PASSWORD });
      const cookies = res.cookies as {
        name: string;
        value: string;
        maxAge?: number;
        httpOnly?: boolean;
        path?: string;
      }[];
      const session = cookies.find((c) => c.name === 'invoicing_session')!;
      const stored = await t.storage.db
        .selectFrom('user_sessions')
        .selectAll()
        .where('token_hash', '=', tokenHash(session.value))
        .executeTakeFirstOrThrow();
      expect(session.maxAge).toBe(12 * 60 * 60);
      expect(Date.parse(stored.expires_at) - Date.parse(stored.created_at)).toBe(session.maxAge! * 1000);
      const marker = cookies.find((c) => c.name === 'invoicing_signed_in')!;
      expect(marker).toMatchObject({ value: '1', httpOnly: true, path: '/panel' });
      expect(marker.maxAge).toBeGreaterThan(session.maxAge!);

      // Signed out, the browser keeps neither: the next visit is a first visit, with no "expired".
      await client.get('/panel/keys');
      await client.post('/panel/sign-out');
      expect([...client.cookies.keys()]).not.toContain('invoicing_signed_in');
      expect((await client.get('/panel/keys')).headers.location).toBe('/panel/sign-in?return=%2Fpanel%2Fkeys');
    });

    it('sends a page asked for with an expired session to sign-in with the notice, and back to the page after', async () => {
      const client = await signedInOwner();
      await expire(client);
      const res = await client.get('/panel/invoices?q=acme&page=2');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(
        `/panel/sign-in?return=${encodeURIComponent('/panel/invoices?q=acme&page=2')}&expired=1`,
      );

      const signIn = await client.get(res.headers.location as string);
      expect(signIn.body).toContain('Your session expired; sign in again.');
      expect(signIn.body).toContain('<input type="hidden" name="return" value="/panel/invoices?q=acme&amp;page=2">');
      const back = await client.post('/panel/sign-in', {
        email: 'owner@example.com',
        password: PASSWORD,
        return: '/panel/invoices?q=acme&page=2',
      });
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe('/panel/invoices?q=acme&page=2');
      expect((await client.get('/panel/invoices?q=acme&page=2')).statusCode).toBe(200);
    });

    it('keeps the return path through a wrong password', async () => {
      const client = new PanelClient(t.app);
      await client.get('/panel/sign-in?return=%2Fpanel%2Fcompany');
      const wrong = await client.post('/panel/sign-in', {
        email: 'owner@example.com',
        password: 'not the password',
        return: '/panel/company',
      });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.body).toContain('<input type="hidden" name="return" value="/panel/company">');
    });

    it('never sends the browser off the panel after sign-in', async () => {
      for (const evil of ['https://evil.example/', '//evil.example', '/v1/organization', '/panel/../v1/organization']) {
        const client = new PanelClient(t.app);
        const page = await client.get(`/panel/sign-in?return=${encodeURIComponent(evil)}`);
        expect(page.body).not.toContain('name="return"');
        const res = await client.post('/panel/sign-in', {
          email: 'owner@example.com',
          password: PASSWORD,
          return: evil,
        });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/panel/keys');
      }
    });

    it('sends a signed-in visitor of the sign-in page straight to the return page', async () => {
      const client = await signedInOwner();
      expect((await client.get('/panel/sign-in?return=%2Fpanel%2Fusers')).headers.location).toBe('/panel/users');
    });

    it('answers a form sent after the session expired with the sign-in page, changes nothing, and brings the typed values back after sign-in', async () => {
      const client = await signedInOwner();
      await client.get('/panel/users');
      await expire(client);
      const res = await client.post('/panel/users', {
        email: 'late@example.com',
        role: 'admin',
        password: 'a secret password',
      });
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('<h1>Sign in</h1>');
      expect(res.body).toContain('Your session expired; sign in again.');
      expect(res.body).toContain('<input type="hidden" name="return" value="/panel/users">');
      expect(res.body).toContain(
        '<input type="hidden" name="restore" value="email=late%40example.com&amp;role=admin">',
      );
      // The password typed into the form is never kept.
      expect(res.body).not.toContain('a secret password');
      expect(res.body).not.toContain('a+secret+password');
      expect(
        await t.storage.db.selectFrom('users').selectAll().where('email', '=', 'late@example.com').execute(),
      ).toHaveLength(0);

      const signIn = await client.post('/panel/sign-in', {
        email: 'owner@example.com',
        password: PASSWORD,
        return: '/panel/users',
        restore: 'email=late%40example.com&role=admin',
      });
      expect(signIn.statusCode).toBe(303);
      expect(signIn.headers.location).toBe('/panel/users?restored=1&email=late%40example.com&role=admin');
      const form = await client.get(signIn.headers.location as string);
      expect(form.statusCode).toBe(200);
      expect(form.body).toContain('What you typed before your session expired is back in the form');
      expect(form.body).toMatch(/<input id="email" name="email" type="email" value="late@example.com"/);
      expect(form.body).toMatch(/<option value="admin" selected>admin<\/option>/);
    });

    it('brings the create-key form back with its name, permissions, expiry and mode after the session expired, and creates no key meanwhile', async () => {
      const client = await signedInOwner();
      await client.get('/panel/keys');
      await expire(client);
      const before = (await t.storage.db.selectFrom('api_keys').select('id').execute()).length;
      const res = await client.post('/panel/keys', {
        name: 'Late Sync',
        permissions: ['invoice.read', 'organization.read'],
        expiresOn: '2099-01-31',
        mode: 'test',
      });
      expect(res.statusCode).toBe(401);
      expect((await t.storage.db.selectFrom('api_keys').select('id').execute()).length).toBe(before);
      const restore = /name="restore" value="([^"]+)"/.exec(res.body)![1]!.replaceAll('&amp;', '&');
      const signIn = await client.post('/panel/sign-in', {
        email: 'owner@example.com',
        password: PASSWORD,
        return: '/panel/keys',
        restore,
      });
      expect(signIn.headers.location).toBe(
        '/panel/keys?restored=1&name=Late+Sync&permissions=invoice.read&permissions=organization.read&expiresOn=2099-01-31&mode=test',
      );
      const form = await client.get(signIn.headers.location as string);
      expect(form.body).toContain('What you typed before your session expired is back in the form');
      expect(form.body).toMatch(/name="name"[^>]*value="Late Sync"/);
      expect(form.body).toMatch(/value="invoice.read" checked/);
      expect(form.body).toMatch(/value="organization.read" checked/);
      expect(form.body).not.toMatch(/value="invoice.create" checked/);
      expect(form.body).toMatch(/value="2099-01-31"/);
      expect(form.body).toMatch(/value="test" checked/);
    });

    it('brings the Company form back with what was typed, and keeps nothing the page does not take', async () => {
      const client = await signedInOwner();
      await client.get('/panel/company');
      await expire(client);
      const res = await client.post('/panel/company', { legalName: 'Typed Before Expiry GmbH', city: 'Köln' });
      expect(res.statusCode).toBe(401);
      const restore = /name="restore" value="([^"]+)"/.exec(res.body)![1]!.replaceAll('&amp;', '&');
      const signIn = await client.post('/panel/sign-in', {
        email: 'owner@example.com',
        password: PASSWORD,
        return: '/panel/company',
        restore: `${restore}&password=leak&_csrf=x`,
      });
      const location = signIn.headers.location as string;
      expect(location).toContain('legalName=Typed+Before+Expiry+GmbH');
      expect(location).not.toContain('password');
      expect(location).not.toContain('_csrf');
      const form = await client.get(location);
      expect(form.body).toMatch(/<input id="legalName" name="legalName" type="text" value="Typed Before Expiry GmbH"/);
      expect(form.body).toMatch(/<input id="city" name="city" type="text" value="Köln"/);
      const profile = await t.container.companyProfiles.get(
        (await t.storage.db.selectFrom('users').select('company_id').executeTakeFirstOrThrow()).company_id,
      );
      expect(profile?.legalName ?? null).not.toBe('Typed Before Expiry GmbH');
    });

    it('sends a post from a browser that never signed in to the plain sign-in page, keeping nothing', async () => {
      const client = new PanelClient(t.app);
      await client.get('/panel/sign-in');
      const res = await client.post('/panel/users', {
        email: 'anon@example.com',
        role: 'admin',
        password: 'a secret password',
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/sign-in');
      expect(
        await t.storage.db.selectFrom('users').selectAll().where('email', '=', 'anon@example.com').execute(),
      ).toHaveLength(0);
    });

    it('returns a webhook endpoint action sent too late to the endpoint page', async () => {
      const client = await signedInOwner();
      await expire(client);
      const res = await client.post('/panel/webhooks/we_123/disable');
      expect(res.statusCode).toBe(401);
      expect(res.body).toContain('<input type="hidden" name="return" value="/panel/webhooks/we_123">');
      expect(res.body).not.toContain('name="restore"');
    });
  });
}
