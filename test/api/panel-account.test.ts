import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { claimInstance, PanelClient, PASSWORD, signedInAs } from '../helpers/panel-client.js';

// The account page: anyone signed in changes their own password.

const NEW_PASSWORD = 'a brand new passphrase';

for (const dialect of DIALECTS) {
  describe(`panel account page on ${dialect}`, () => {
    let t: TestApp;
    let companyId: string;
    const logLines: string[] = [];

    beforeAll(async () => {
      const stream = new Writable({
        write(chunk, _encoding, done) {
          logLines.push(String(chunk));
          done();
        },
      });
      t = await buildTestApp(dialect, {}, { logStream: stream });
      ({ companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('links the signed-in email in the header to the account page, which shows the password form', async () => {
      const member = await signedInAs(t.app, companyId, 'reader@example.com', 'member');
      const keys = await member.get('/panel/keys');
      expect(keys.body).toContain('<a href="/panel/account" title="Your account and password">reader@example.com</a>');
      const page = await member.get('/panel/account');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h1>Your account</h1>');
      expect(page.body).toContain('name="currentPassword"');
      expect(page.body).toContain('aria-current="page"');
    });

    it('lets a member change their password, ends their other sessions, keeps this one, and logs it', async () => {
      const here = await signedInAs(t.app, companyId, 'changer@example.com', 'member');
      const elsewhere = new PanelClient(t.app);
      expect((await elsewhere.signIn('changer@example.com')).statusCode).toBe(303);

      await here.get('/panel/account');
      const res = await here.post('/panel/account/password', {
        currentPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
        newPasswordConfirm: NEW_PASSWORD,
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/panel/account?done=password');
      expect((await here.get('/panel/account?done=password')).body).toContain('Your password is changed.');
      expect((await elsewhere.get('/panel/keys')).headers.location).toBe(
        '/panel/sign-in?return=%2Fpanel%2Fkeys&expired=1',
      );

      expect((await new PanelClient(t.app).signIn('changer@example.com', PASSWORD)).statusCode).toBe(401);
      expect((await new PanelClient(t.app).signIn('changer@example.com', NEW_PASSWORD)).statusCode).toBe(303);
      const line = logLines.find((l) => l.includes('panel user changed their password'));
      expect(line).toBeDefined();
      expect(line).toContain('"audit":"password_changed"');
      expect(line).not.toContain(NEW_PASSWORD);
    });

    it('answers a wrong current password, a short new one and a different repeat at once, and changes nothing', async () => {
      const client = await signedInAs(t.app, companyId, 'typo@example.com', 'admin');
      await client.get('/panel/account');
      const before = await t.storage.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'typo@example.com')
        .executeTakeFirstOrThrow();
      const res = await client.post('/panel/account/password', {
        currentPassword: 'not my password',
        newPassword: 'short',
        newPasswordConfirm: 'shorter',
      });
      expect(res.statusCode).toBe(400);
      expect([...res.body.matchAll(/<small id="([\w-]+)-error"/g)].map((m) => m[1])).toEqual([
        'currentPassword',
        'newPassword',
        'newPasswordConfirm',
      ]);
      expect(res.body).toContain('This is not your current password.');
      expect(res.body).not.toContain('not my password');
      const after = await t.storage.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', 'typo@example.com')
        .executeTakeFirstOrThrow();
      expect(after.password_hash).toBe(before.password_hash);
    });

    it('refuses a new password equal to the current one', async () => {
      const client = await signedInAs(t.app, companyId, 'same@example.com', 'member');
      await client.get('/panel/account');
      const res = await client.post('/panel/account/password', {
        currentPassword: PASSWORD,
        newPassword: PASSWORD,
        newPasswordConfirm: PASSWORD,
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('Choose a password different from the current one.');
    });

    it('limits wrong current passwords like failed sign-ins: past the limit even the right one is refused with 429', async () => {
      const client = await signedInAs(t.app, companyId, 'guessed@example.com', 'member');
      await client.get('/panel/account');
      // The panel's default: ten failures per account per window.
      for (let i = 0; i < 10; i++) {
        expect(
          (
            await client.post('/panel/account/password', {
              currentPassword: `guess ${i} guess`,
              newPassword: NEW_PASSWORD,
              newPasswordConfirm: NEW_PASSWORD,
            })
          ).statusCode,
        ).toBe(400);
      }
      const locked = await client.post('/panel/account/password', {
        currentPassword: PASSWORD,
        newPassword: NEW_PASSWORD,
        newPasswordConfirm: NEW_PASSWORD,
      });
      expect(locked.statusCode).toBe(429);
      expect(locked.headers['retry-after']).toBeDefined();
      // The budget is the account's: sign-in is locked too.
      expect((await new PanelClient(t.app).signIn('guessed@example.com')).statusCode).toBe(429);
    });

    it('refuses a password change without the CSRF token', async () => {
      const client = await signedInAs(t.app, companyId, 'forged@example.com', 'member');
      await client.get('/panel/account');
      const res = await client.post(
        '/panel/account/password',
        { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, newPasswordConfirm: NEW_PASSWORD },
        { csrf: false },
      );
      expect(res.statusCode).toBe(403);
      expect((await new PanelClient(t.app).signIn('forged@example.com', PASSWORD)).statusCode).toBe(303);
    });
  });
}
