import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FirstRunSetup } from '../../src/panel/setup.js';
import { tokenHash } from '../../src/panel/sessions.js';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, PASSWORD, signedInAs } from '../helpers/panel-client.js';

for (const dialect of DIALECTS) {
  describe(`panel first-run setup on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    it('refuses the setup page without a valid token and shows no form', async () => {
      const client = new PanelClient(t.app);
      for (const url of ['/panel/setup', '/panel/setup?token=guess']) {
        const res = await client.get(url);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.body).toContain('This setup link is not valid');
        expect(res.body).not.toContain('name="companyName"');
      }
      await client.get('/panel/sign-in'); // a valid CSRF token, so only the setup token is wrong
      const forged = await client.post('/panel/setup', {
        token: 'guess',
        companyName: 'Thief',
        currency: 'EUR',
        email: 'x@example.com',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      });
      expect(forged.statusCode).toBe(404);
      expect(await t.storage.db.selectFrom('users').selectAll().execute()).toHaveLength(0);
    });

    it('stores only a hash of the setup token and keeps it usable after a form error', async () => {
      const setup = new FirstRunSetup(t.storage.db, t.container.repositories);
      const token = (await setup.issueToken())!;
      const rows = await t.storage.db.selectFrom('setup_tokens').selectAll().execute();
      expect(rows.map((r) => r.token_hash)).toContain(tokenHash(token));
      expect(JSON.stringify(rows)).not.toContain(token);

      const client = new PanelClient(t.app);
      await client.get(`/panel/setup?token=${token}`);
      const mismatch = await client.post('/panel/setup', {
        token,
        companyName: 'Acme',
        currency: 'EUR',
        email: 'o@example.com',
        password: PASSWORD,
        passwordConfirm: 'something else',
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.body).toMatch(/id="passwordConfirm-error"[^>]*>The two passwords differ/);
      const short = await client.post('/panel/setup', {
        token,
        companyName: 'Acme',
        currency: 'EUR',
        email: 'o@example.com',
        password: 'short',
        passwordConfirm: 'short',
      });
      expect(short.statusCode).toBe(400);
      expect(short.body).toContain('aria-invalid="true"');
      expect(short.body).toContain('id="password-error"');
      expect(await setup.isValid(token)).toBe(true);
    });

    it('refuses a setup post without the CSRF token', async () => {
      const token = (await new FirstRunSetup(t.storage.db, t.container.repositories).issueToken())!;
      const client = new PanelClient(t.app);
      await client.get(`/panel/setup?token=${token}`);
      const res = await client.post(
        '/panel/setup',
        {
          token,
          companyName: 'Acme',
          currency: 'EUR',
          email: 'o@example.com',
          password: PASSWORD,
          passwordConfirm: PASSWORD,
        },
        { csrf: false },
      );
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('This form has expired');
      expect(await t.storage.db.selectFrom('users').selectAll().execute()).toHaveLength(0);
    });

    it('creates the company and its owner with the token, signs the owner in, and kills the link', async () => {
      const setup = new FirstRunSetup(t.storage.db, t.container.repositories);
      const token = (await setup.issueToken())!;
      const client = new PanelClient(t.app);
      await client.get(`/panel/setup?token=${token}`);
      const res = await client.post('/panel/setup', {
        token,
        companyName: 'Acme GmbH',
        currency: 'eur',
        email: ' Owner@Example.com ',
        password: PASSWORD,
        passwordConfirm: PASSWORD,
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/keys?done=welcome');
      const cookie = (
        res.cookies as { name: string; httpOnly?: boolean; sameSite?: string; secure?: boolean; path?: string }[]
      ).find((c) => c.name === 'invoicing_session')!;
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/panel' });
      expect(cookie.secure).toBeFalsy();

      const users = await t.storage.db.selectFrom('users').selectAll().execute();
      expect(users).toHaveLength(1);
      expect(users[0]).toMatchObject({ email: 'owner@example.com', role: 'owner', active: 1 });
      expect(users[0]!.password_hash).toMatch(/^scrypt\$/);
      expect(users[0]!.password_hash).not.toContain(PASSWORD);
      const company = await t.container.companies.find(users[0]!.company_id);
      expect(company).toMatchObject({ name: 'Acme GmbH', currency: 'EUR' });

      const keys = await client.get('/panel/keys?done=welcome');
      expect(keys.statusCode).toBe(200);
      expect(keys.body).toContain('owner@example.com');
      expect(keys.body).toContain('Acme GmbH');

      expect((await new PanelClient(t.app).get(`/panel/setup?token=${token}`)).statusCode).toBe(404);
      expect(await t.storage.db.selectFrom('setup_tokens').selectAll().execute()).toHaveLength(0);
      expect(await setup.issueToken()).toBeNull();
    });
  });

  describe(`panel sign-in and sessions on ${dialect}`, () => {
    let t: TestApp;
    let companyId: string;
    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('sends anonymous visitors to the sign-in page, and the root to the panel', async () => {
      const client = new PanelClient(t.app);
      expect((await client.get('/')).headers.location).toBe('/panel');
      expect((await client.get('/panel')).headers.location).toBe('/panel/sign-in');
      // Without any session cookie there is nothing to excuse: no "expired", only the way back.
      for (const url of ['/panel/keys', '/panel/users', '/panel/organizations']) {
        const res = await client.get(url);
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe(`/panel/sign-in?return=${encodeURIComponent(url)}`);
      }
    });

    it('refuses a wrong password with one message for unknown and known emails', async () => {
      const client = new PanelClient(t.app);
      await client.get('/panel/sign-in');
      const wrong = await client.post('/panel/sign-in', { email: 'owner@example.com', password: 'not the password' });
      const unknown = await client.post('/panel/sign-in', {
        email: 'nobody@example.com',
        password: 'not the password',
      });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.body).toContain('The email or password is not right.');
        expect(res.cookies.find((c) => c.name === 'invoicing_session')).toBeUndefined();
      }
    });

    it('signs in, stores only a hash of the session token, and signs out', async () => {
      const client = new PanelClient(t.app);
      const res = await client.signIn('owner@example.com');
      expect(res.statusCode).toBe(303);
      const token = client.cookies.get('invoicing_session')!;
      const sessions = await t.storage.db.selectFrom('user_sessions').selectAll().execute();
      expect(sessions.map((s) => s.token_hash)).toContain(tokenHash(token));
      expect(JSON.stringify(sessions)).not.toContain(token);

      expect((await client.get('/panel/keys')).statusCode).toBe(200);
      const out = await client.post('/panel/sign-out');
      expect(out.statusCode).toBe(303);
      const stale = new PanelClient(t.app);
      stale.cookies.set('invoicing_session', token);
      expect((await stale.get('/panel/keys')).headers.location).toBe('/panel/sign-in?return=%2Fpanel%2Fkeys&expired=1');
    });

    it('refuses a sign-in post without the CSRF token', async () => {
      const client = new PanelClient(t.app);
      await client.get('/panel/sign-in');
      const res = await client.post(
        '/panel/sign-in',
        { email: 'owner@example.com', password: PASSWORD },
        { csrf: false },
      );
      expect(res.statusCode).toBe(403);
      expect(client.cookies.has('invoicing_session')).toBe(false);
    });

    it('locks an account after ten failed attempts, even for the right password', async () => {
      await signedInAs(t.app, companyId, 'target@example.com', 'member');
      const attacker = new PanelClient(t.app);
      await attacker.get('/panel/sign-in');
      for (let i = 0; i < 10; i++) {
        expect(
          (await attacker.post('/panel/sign-in', { email: 'target@example.com', password: `guess ${i} guess` }))
            .statusCode,
        ).toBe(401);
      }
      const blocked = await new PanelClient(t.app).signIn('target@example.com');
      expect(blocked.statusCode).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
      expect(blocked.body).toContain('Too many sign-in attempts');
    });

    it('answers unknown panel paths with an HTML page and leaves the API its JSON errors', async () => {
      const page = await new PanelClient(t.app).get('/panel/no-such-page');
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(page.headers['referrer-policy']).toBe('no-referrer');
      const api = await t.get('/no-such-thing');
      expect(api.statusCode).toBe(404);
      expect(api.json().error.code).toBe('NOT_FOUND');
    });

    it('serves Pico and its own CSS from this server', async () => {
      const pico = await t.request({ method: 'GET', url: '/panel/assets/pico.min.css' });
      expect(pico.statusCode).toBe(200);
      expect(pico.headers['content-type']).toMatch(/text\/css/);
      expect(pico.body).toContain('Pico CSS');
      expect((await t.request({ method: 'GET', url: '/panel/assets/panel.css' })).statusCode).toBe(200);
    });
  });

  describe(`panel cookies behind a proxy on ${dialect}`, () => {
    it('marks the session cookie Secure for X-Forwarded-Proto https only when TRUST_PROXY is set', async () => {
      for (const trustProxy of [false, true]) {
        const t = await buildTestApp(dialect, { trustProxy });
        try {
          await claimInstance(t.app);
          const client = new PanelClient(t.app, { 'x-forwarded-proto': 'https' });
          const res = await client.signIn('owner@example.com');
          const cookie = res.cookies.find((c) => c.name === 'invoicing_session') as { secure?: boolean } | undefined;
          expect(Boolean(cookie?.secure)).toBe(trustProxy);
        } finally {
          await t.close();
        }
      }
    });
  });
}

// The access log does not depend on the database.
describe('panel setup link in the log', () => {
  it('keeps the setup token out of the access log, so reading the log does not let anyone claim the instance', async () => {
    const lines: string[] = [];
    const log = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const t = await buildTestApp('sqlite', {}, { logStream: log });
    try {
      const token = (await new FirstRunSetup(t.storage.db, t.container.repositories).issueToken())!;
      const res = await new PanelClient(t.app).get(`/panel/setup?token=${token}&x=1`);
      expect(res.statusCode).toBe(200);
      const logged = lines.join('');
      expect(logged).toContain('/panel/setup?token=[redacted]&x=1');
      expect(logged).not.toContain(token);
    } finally {
      await t.close();
    }
  });
});
