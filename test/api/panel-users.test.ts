import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { ERRORS } from '../../src/errors/codes.js';
import { UserService } from '../../src/panel/users.js';
import { claimInstance, PanelClient, PASSWORD, signedInAs } from '../helpers/panel-client.js';

const OWN_PASSWORD = 'a password only I know';

for (const dialect of DIALECTS) {
  describe(`panel users on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    /** a1@example.com, an admin the owner added, signed in with the password they chose. */
    let admin: PanelClient;
    const idOf = async (email: string) =>
      (await t.storage.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('lets the owner add members and admins, who sign in and must first choose their own password', async () => {
      await owner.get('/panel/users');
      for (const [email, role] of [
        ['m1@example.com', 'member'],
        ['a1@example.com', 'admin'],
      ] as const) {
        const res = await owner.post('/panel/users', { email, role, password: PASSWORD });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/panel/users?done=created');
        const signIn = await new PanelClient(t.app).signIn(email);
        expect(signIn.statusCode).toBe(303);
        expect(signIn.headers.location).toBe('/panel/change-password');
      }
      const page = await owner.get('/panel/users?done=created');
      expect(page.body).toContain('m1@example.com');
      expect(page.body).toContain('a1@example.com');
      expect(page.body).toContain('chooses a password at next sign-in');
      expect(page.body).toContain('must then choose their own');
    });

    it('lets a user whose password the owner set reach nothing but the change-password page until they chose their own', async () => {
      admin = new PanelClient(t.app);
      expect((await admin.signIn('a1@example.com')).headers.location).toBe('/panel/change-password');
      // Every page, and every form, leads back to the change; nothing is carried out.
      for (const path of [
        '/panel/keys',
        '/panel/users',
        '/panel/company',
        '/panel/invoices',
        '/panel/account',
        '/panel',
      ]) {
        const res = await admin.get(path);
        expect(res.statusCode, path).toBe(303);
        expect(String(res.headers.location), path).toMatch(/^\/panel\/(change-password|keys)/);
      }
      expect((await admin.get('/panel/users')).headers.location).toBe('/panel/change-password?return=%2Fpanel%2Fusers');
      const page = await admin.get('/panel/change-password?return=%2Fpanel%2Fusers');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Choose your own password');
      expect(page.body).not.toContain('href="/panel/keys"');
      const forged = await admin.post('/panel/keys', { name: 'sneaky', permissions: 'invoice.read', mode: 'live' });
      expect(forged.statusCode).toBe(303);
      expect(forged.headers.location).toBe('/panel/change-password');
      expect(
        await t.storage.db.selectFrom('api_keys').select('id').where('name', '=', 'sneaky').execute(),
      ).toHaveLength(0);

      // The given password again, a short one, and two that differ: every problem at once.
      await admin.get('/panel/change-password');
      const same = await admin.post('/panel/change-password', { newPassword: PASSWORD, newPasswordConfirm: PASSWORD });
      expect(same.statusCode).toBe(400);
      expect(same.body).toContain('Choose a password different from the one you were given.');
      const bad = await admin.post('/panel/change-password', { newPassword: 'short', newPasswordConfirm: 'other' });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('id="newPassword-error"');
      expect(bad.body).toContain('id="newPasswordConfirm-error"');

      // Another browser signed in with the given password is signed out by the change.
      const elsewhere = new PanelClient(t.app);
      await elsewhere.signIn('a1@example.com');
      const done = await admin.post('/panel/change-password', {
        newPassword: OWN_PASSWORD,
        newPasswordConfirm: OWN_PASSWORD,
        return: '/panel/users',
      });
      expect(done.statusCode).toBe(303);
      expect(done.headers.location).toBe('/panel/users');
      expect((await admin.get('/panel/users')).statusCode).toBe(200);
      expect((await admin.get('/panel/change-password')).headers.location).toBe('/panel/account');
      expect((await elsewhere.get('/panel/keys')).headers.location).toMatch(/^\/panel\/sign-in/);
      expect((await new PanelClient(t.app).signIn('a1@example.com')).statusCode).toBe(401);
      const again = await new PanelClient(t.app).signIn('a1@example.com', OWN_PASSWORD);
      expect(again.headers.location).toBe('/panel/keys');
      const row = await t.storage.db
        .selectFrom('users')
        .select('must_change_password')
        .where('email', '=', 'a1@example.com')
        .executeTakeFirstOrThrow();
      expect(row.must_change_password).toBe(0);
    });

    it('says what each role sees and may do', async () => {
      const page = await owner.get('/panel/users');
      expect(page.body).toContain('id="roles-heading"');
      expect(page.body).toMatch(
        /role-member">member<\/span> Sees keys, webhooks, users, the company and the records; changes only their own password\./,
      );
      expect(page.body).toContain('the webhook endpoints and their deliveries, the users and the company profile');
      expect(page.body).toContain('Grants the owner role, and changes or deactivates other owners.');
      expect(page.body).not.toContain('see the key list only');
    });

    it('refuses a duplicate email and a short password next to the field', async () => {
      await owner.get('/panel/users');
      const dup = await owner.post('/panel/users', { email: 'M1@example.com', role: 'member', password: PASSWORD });
      expect(dup.statusCode).toBe(409);
      expect(dup.body).toMatch(/id="email-error"[^>]*>An account with this email already exists\./);
      const short = await owner.post('/panel/users', { email: 'short@example.com', role: 'member', password: 'short' });
      expect(short.statusCode).toBe(400);
      expect(short.body).toContain('id="password-error"');
    });

    it('takes the status of a refused account from the one error table, by the code the service returns', async () => {
      const users = new UserService(t.storage.db, t.container.repositories);
      const dup = await users.create({ companyId, email: 'm1@example.com', role: 'member', password: PASSWORD });
      const short = await users.create({ companyId, email: 'new@example.com', role: 'member', password: 'short' });
      expect(dup.ok ? null : { code: dup.error.code, field: dup.field }).toEqual({
        code: 'EMAIL_CONFLICT',
        field: 'email',
      });
      expect(short.ok ? null : short.error.code).toBe('VALIDATION_ERROR');
      expect(ERRORS.EMAIL_CONFLICT.status).toBe(409);
      // The operator may change anyone, but not take the company's only owner away: a state, 409.
      const lastOwner = await users.deactivateAsOperator(await idOf('owner@example.com'));
      expect(lastOwner.ok ? null : lastOwner.error.code).toBe('LAST_OWNER');
      expect(ERRORS.LAST_OWNER.status).toBe(409);
    });

    it('refuses user management to members with 403 and shows them no controls', async () => {
      const member = await signedInAs(t.app, companyId, 'm2@example.com', 'member');
      const page = await member.get('/panel/users');
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('Add user');
      expect(page.body).not.toContain('/deactivate"');
      expect(
        (await member.post('/panel/users', { email: 'sneaky@example.com', role: 'admin', password: PASSWORD }))
          .statusCode,
      ).toBe(403);
      expect(
        (await member.post(`/panel/users/${await idOf('m1@example.com')}/role`, { role: 'owner' })).statusCode,
      ).toBe(403);
      expect((await member.post(`/panel/users/${await idOf('m1@example.com')}/deactivate`)).statusCode).toBe(403);
      expect(
        await t.storage.db.selectFrom('users').selectAll().where('email', '=', 'sneaky@example.com').execute(),
      ).toHaveLength(0);
    });

    it('keeps admins from granting the owner role or touching owners', async () => {
      const admin = await signedInAs(t.app, companyId, 'a2@example.com', 'admin');
      await admin.get('/panel/users');
      expect(
        (await admin.post('/panel/users', { email: 'o2@example.com', role: 'owner', password: PASSWORD })).statusCode,
      ).toBe(403);
      expect(
        (await admin.post(`/panel/users/${await idOf('m1@example.com')}/role`, { role: 'owner' })).statusCode,
      ).toBe(403);
      expect((await admin.post(`/panel/users/${await idOf('owner@example.com')}/deactivate`)).statusCode).toBe(403);
      expect(
        (await admin.post(`/panel/users/${await idOf('m1@example.com')}/role`, { role: 'admin' })).statusCode,
      ).toBe(303);
    });

    it("offers no role change or deactivation on one's own row, and refuses a forged one with 403", async () => {
      const page = await owner.get('/panel/users');
      const ownId = await idOf('owner@example.com');
      const ownRow = new RegExp(`<tr data-user-id="${ownId}">[\\s\\S]*?</tr>`).exec(page.body)![0];
      expect(ownRow).toContain('(you)');
      expect(ownRow).not.toContain('Change role');
      expect(ownRow).not.toContain('Deactivate');
      expect(page.body).toContain(`action="/panel/users/${await idOf('m1@example.com')}/role"`);
      const demote = await owner.post(`/panel/users/${ownId}/role`, { role: 'admin' });
      expect(demote.statusCode).toBe(403);
      expect(demote.body).toContain('You cannot change your own role; another owner can.');
      const self = await owner.post(`/panel/users/${ownId}/deactivate`);
      expect(self.statusCode).toBe(403);
      await admin.get('/panel/users');
      const adminSelf = await admin.post(`/panel/users/${await idOf('a1@example.com')}/role`, { role: 'member' });
      expect(adminSelf.statusCode).toBe(403);
      expect(adminSelf.body).toContain('another owner or admin can');
      const rows = await t.storage.db
        .selectFrom('users')
        .select(['email', 'role', 'active'])
        .where('email', 'in', ['owner@example.com', 'a1@example.com'])
        .orderBy('email')
        .execute();
      expect(rows).toEqual([
        { email: 'a1@example.com', role: 'admin', active: 1 },
        { email: 'owner@example.com', role: 'owner', active: 1 },
      ]);
    });

    it('lets an owner step down once another owner exists, by that other owner', async () => {
      await owner.get('/panel/users');
      expect(
        (await owner.post(`/panel/users/${await idOf('a1@example.com')}/role`, { role: 'owner' })).statusCode,
      ).toBe(303);
      await admin.get('/panel/users');
      expect(
        (await admin.post(`/panel/users/${await idOf('owner@example.com')}/role`, { role: 'admin' })).statusCode,
      ).toBe(303);
      const row = await t.storage.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'owner@example.com')
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role: 'admin', active: 1 });
    });

    it('keeps one owner when two owners demote each other at the same moment', async () => {
      const users = new UserService(t.storage.db, t.container.repositories);
      const company = await t.createCompany('Two Owners Co');
      const created = await Promise.all(
        ['twin-a@example.com', 'twin-b@example.com'].map((email) =>
          users.create({ companyId: company, email, role: 'owner', password: PASSWORD }),
        ),
      );
      const [a, b] = created.map((r) => (r.ok ? r.value : expect.unreachable(r.detail)));
      const results = await Promise.all([users.changeRole(a!, b!.id, 'admin'), users.changeRole(b!, a!.id, 'admin')]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const owners = await t.storage.db
        .selectFrom('users')
        .select('id')
        .where('company_id', '=', company)
        .where('role', '=', 'owner')
        .execute();
      expect(owners).toHaveLength(1);
    });

    it('signs a deactivated user out at once and lets them back in after reactivation', async () => {
      const victim = await signedInAs(t.app, companyId, 'leaver@example.com', 'member');
      expect((await victim.get('/panel/keys')).statusCode).toBe(200);
      const boss = admin;
      await boss.get('/panel/users');
      expect((await boss.post(`/panel/users/${await idOf('leaver@example.com')}/deactivate`)).statusCode).toBe(303);
      expect((await victim.get('/panel/keys')).headers.location).toBe(
        '/panel/sign-in?return=%2Fpanel%2Fkeys&expired=1',
      );
      expect((await new PanelClient(t.app).signIn('leaver@example.com')).statusCode).toBe(401);
      expect((await boss.post(`/panel/users/${await idOf('leaver@example.com')}/activate`)).statusCode).toBe(303);
      expect((await new PanelClient(t.app).signIn('leaver@example.com')).statusCode).toBe(303);
    });

    it("answers 404 for another company's user id", async () => {
      const otherCompany = await t.createCompany('Other Co');
      await signedInAs(t.app, otherCompany, 'stranger@example.com', 'member');
      await owner.get('/panel/users');
      const boss = admin;
      await boss.get('/panel/users');
      expect((await boss.post(`/panel/users/${await idOf('stranger@example.com')}/deactivate`)).statusCode).toBe(404);
      expect((await boss.get('/panel/users')).body).not.toContain('stranger@example.com');
    });
  });

  describe(`invoicing user create on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const run = async (args: string[], stdin?: string) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, {
        stdout: (s) => out.push(s),
        stderr: (s) => err.push(s),
        env: { DATABASE_URL: t.database.url },
        ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
      });
      return { code, out: out.join(''), err: err.join('') };
    };

    it('creates a user with the password from stdin, who can then sign in', async () => {
      const companyId = await t.createCompany('CLI Co');
      const res = await run(
        [
          'user',
          'create',
          '--company',
          companyId,
          '--email',
          'Cli@Example.com',
          '--role',
          'admin',
          '--password-stdin',
          '--json',
        ],
        `${PASSWORD}\n`,
      );
      expect(res.code).toBe(0);
      expect(JSON.parse(res.out)).toMatchObject({ email: 'cli@example.com', role: 'admin', companyId });
      expect((await new PanelClient(t.app).signIn('cli@example.com')).statusCode).toBe(303);
    });

    it('refuses a password on the command line, an unknown role and an unknown company', async () => {
      const companyId = await t.createCompany('CLI Co 2');
      expect(
        (
          await run([
            'user',
            'create',
            '--company',
            companyId,
            '--email',
            'x@example.com',
            '--role',
            'admin',
            '--password',
            PASSWORD,
          ])
        ).code,
      ).toBe(2);
      expect(
        (await run(['user', 'create', '--company', companyId, '--email', 'x@example.com', '--role', 'admin'], PASSWORD))
          .code,
      ).toBe(2);
      expect(
        (
          await run(
            [
              'user',
              'create',
              '--company',
              companyId,
              '--email',
              'x@example.com',
              '--role',
              'boss',
              '--password-stdin',
            ],
            PASSWORD,
          )
        ).code,
      ).toBe(2);
      const unknown = await run(
        ['user', 'create', '--company', 'cmp_nope', '--email', 'x@example.com', '--role', 'admin', '--password-stdin'],
        PASSWORD,
      );
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain('No company');
    });
  });
}
