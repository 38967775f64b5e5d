import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { DIALECTS } from './helpers/dialects.js';
import { buildTestApp, type TestApp } from './helpers/build.js';
import { UserService } from '../src/panel/users.js';
import { claimInstance, PanelClient, PASSWORD, signedInAs } from './panel-client.js';

for (const dialect of DIALECTS) {
  describe(`panel users on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    const idOf = async (email: string) =>
      (await t.storage.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ owner, companyId } = await claimInstance(t.app));
    });
    afterAll(async () => t.close());

    it('lets the owner add members and admins, who can then sign in', async () => {
      await owner.get('/panel/users');
      for (const [email, role] of [['m1@example.com', 'member'], ['a1@example.com', 'admin']] as const) {
        const res = await owner.post('/panel/users', { email, role, password: PASSWORD });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toBe('/panel/users?done=created');
        expect((await new PanelClient(t.app).signIn(email)).statusCode).toBe(303);
      }
      const page = await owner.get('/panel/users?done=created');
      expect(page.body).toContain('m1@example.com');
      expect(page.body).toContain('a1@example.com');
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

    it('refuses user management to members with 403 and shows them no controls', async () => {
      const member = await signedInAs(t.app, companyId, 'm2@example.com', 'member');
      const page = await member.get('/panel/users');
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toContain('Add user');
      expect(page.body).not.toContain('/deactivate"');
      expect((await member.post('/panel/users', { email: 'sneaky@example.com', role: 'admin', password: PASSWORD })).statusCode).toBe(403);
      expect((await member.post(`/panel/users/${await idOf('m1@example.com')}/role`, { role: 'owner' })).statusCode).toBe(403);
      expect((await member.post(`/panel/users/${await idOf('m1@example.com')}/deactivate`)).statusCode).toBe(403);
      expect(await t.storage.db.selectFrom('users').selectAll().where('email', '=', 'sneaky@example.com').execute()).toHaveLength(0);
    });

    it('keeps admins from granting the owner role or touching owners', async () => {
      const admin = await signedInAs(t.app, companyId, 'a2@example.com', 'admin');
      await admin.get('/panel/users');
      expect((await admin.post('/panel/users', { email: 'o2@example.com', role: 'owner', password: PASSWORD })).statusCode).toBe(403);
      expect((await admin.post(`/panel/users/${await idOf('m1@example.com')}/role`, { role: 'owner' })).statusCode).toBe(403);
      expect((await admin.post(`/panel/users/${await idOf('owner@example.com')}/deactivate`)).statusCode).toBe(403);
      expect((await admin.post(`/panel/users/${await idOf('m1@example.com')}/role`, { role: 'admin' })).statusCode).toBe(303);
    });

    it('refuses to demote or deactivate the last owner', async () => {
      await owner.get('/panel/users');
      const demote = await owner.post(`/panel/users/${await idOf('owner@example.com')}/role`, { role: 'admin' });
      expect(demote.statusCode).toBe(409);
      expect(demote.body).toContain('The last owner cannot be demoted or deactivated.');
      const self = await owner.post(`/panel/users/${await idOf('owner@example.com')}/deactivate`);
      expect(self.statusCode).toBe(409);
      const row = await t.storage.db.selectFrom('users').selectAll().where('email', '=', 'owner@example.com').executeTakeFirstOrThrow();
      expect(row).toMatchObject({ role: 'owner', active: 1 });
    });

    it('lets an owner step down once another owner exists', async () => {
      await owner.get('/panel/users');
      expect((await owner.post(`/panel/users/${await idOf('a1@example.com')}/role`, { role: 'owner' })).statusCode).toBe(303);
      expect((await owner.post(`/panel/users/${await idOf('owner@example.com')}/role`, { role: 'admin' })).statusCode).toBe(303);
      const second = await new PanelClient(t.app).signIn('a1@example.com');
      expect(second.statusCode).toBe(303);
    });

    it('keeps one owner when two owners demote each other at the same moment', async () => {
      const users = new UserService(t.storage.db);
      const company = await t.createCompany('Two Owners Co');
      const created = await Promise.all(
        ['twin-a@example.com', 'twin-b@example.com'].map((email) => users.create({ companyId: company, email, role: 'owner', password: PASSWORD })),
      );
      const [a, b] = created.map((r) => (r.ok ? r.value : expect.unreachable(r.detail)));
      const results = await Promise.all([users.changeRole(a!, b!.id, 'admin'), users.changeRole(b!, a!.id, 'admin')]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      const owners = await t.storage.db.selectFrom('users').select('id').where('company_id', '=', company).where('role', '=', 'owner').execute();
      expect(owners).toHaveLength(1);
    });

    it('signs a deactivated user out at once and lets them back in after reactivation', async () => {
      const victim = await signedInAs(t.app, companyId, 'leaver@example.com', 'member');
      expect((await victim.get('/panel/keys')).statusCode).toBe(200);
      const boss = new PanelClient(t.app);
      await boss.signIn('a1@example.com');
      await boss.get('/panel/users');
      expect((await boss.post(`/panel/users/${await idOf('leaver@example.com')}/deactivate`)).statusCode).toBe(303);
      expect((await victim.get('/panel/keys')).headers.location).toBe('/panel/sign-in?return=%2Fpanel%2Fkeys&expired=1');
      expect((await new PanelClient(t.app).signIn('leaver@example.com')).statusCode).toBe(401);
      expect((await boss.post(`/panel/users/${await idOf('leaver@example.com')}/activate`)).statusCode).toBe(303);
      expect((await new PanelClient(t.app).signIn('leaver@example.com')).statusCode).toBe(303);
    });

    it("answers 404 for another company's user id", async () => {
      const otherCompany = await t.createCompany('Other Co');
      await signedInAs(t.app, otherCompany, 'stranger@example.com', 'member');
      await owner.get('/panel/users');
      const boss = new PanelClient(t.app);
      await boss.signIn('a1@example.com');
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
      const res = await run(['user', 'create', '--company', companyId, '--email', 'Cli@Example.com', '--role', 'admin', '--password-stdin', '--json'], `${PASSWORD}\n`);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.out)).toMatchObject({ email: 'cli@example.com', role: 'admin', companyId });
      expect((await new PanelClient(t.app).signIn('cli@example.com')).statusCode).toBe(303);
    });

    it('refuses a password on the command line, an unknown role and an unknown company', async () => {
      const companyId = await t.createCompany('CLI Co 2');
      expect((await run(['user', 'create', '--company', companyId, '--email', 'x@example.com', '--role', 'admin', '--password', PASSWORD])).code).toBe(2);
      expect((await run(['user', 'create', '--company', companyId, '--email', 'x@example.com', '--role', 'admin'], PASSWORD)).code).toBe(2);
      expect((await run(['user', 'create', '--company', companyId, '--email', 'x@example.com', '--role', 'boss', '--password-stdin'], PASSWORD)).code).toBe(2);
      const unknown = await run(['user', 'create', '--company', 'cmp_nope', '--email', 'x@example.com', '--role', 'admin', '--password-stdin'], PASSWORD);
      expect(unknown.code).toBe(1);
      expect(unknown.err).toContain('No company');
    });
  });
}
