import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { SessionStore } from '../../src/panel/sessions.js';
import { UserService } from '../../src/panel/users.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// The operator's commands: company list, user list | reset-password | deactivate, webhook list |
// disable. Each on the server's own database, with --json giving exactly one object, exit code 1
// for what cannot be done and 2 for wrong usage, and never a password, hash or signing secret in
// what they print.

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'another long passphrase 42';

for (const dialect of DIALECTS) {
  describe(`the operator CLI on ${dialect}`, () => {
    let t: TestApp;
    let companyId: string;
    let otherCompanyId: string;
    let users: UserService;

    async function cli(args: string[], stdin?: string) {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const code = await runCli(args, {
        stdout: (s) => stdout.push(s),
        stderr: (s) => stderr.push(s),
        env: {
          DATABASE_URL: t.database.url,
          ...(dialect === 'postgres' ? { DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY } : {}),
        },
        ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
      });
      return { code, stdout: stdout.join(''), stderr: stderr.join('') };
    }

    async function json(args: string[], stdin?: string) {
      const result = await cli([...args, '--json'], stdin);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n')).toHaveLength(1);
      return JSON.parse(result.stdout);
    }

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true });
      companyId = await t.createCompany('Operator GmbH');
      otherCompanyId = await t.createCompany('Second Ltd', 'GBP');
      users = new UserService(t.storage.db, t.container.repositories);
    });
    afterAll(async () => t.close());

    it('lists every company with its id, name and currency, as JSON and as a table', async () => {
      const { companies } = await json(['company', 'list']);
      expect(companies).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: companyId, name: 'Operator GmbH', currency: 'EUR' }),
          expect.objectContaining({ id: otherCompanyId, name: 'Second Ltd', currency: 'GBP' }),
        ]),
      );
      const text = await cli(['company', 'list']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^ID\s+NAME\s+CURRENCY/);
      expect(text.stdout).toContain(otherCompanyId);
    });

    it('lists users of the instance or of one company, and never a password or its hash', async () => {
      const owner = await users.create({
        companyId,
        email: `owner-${dialect}@operator.example`,
        role: 'owner',
        password: PASSWORD,
      });
      const other = await users.create({
        companyId: otherCompanyId,
        email: `ana-${dialect}@second.example`,
        role: 'admin',
        password: PASSWORD,
      });
      expect(owner.ok && other.ok).toBe(true);
      const all = await json(['user', 'list']);
      expect(all.users.map((u: { email: string }) => u.email)).toEqual(
        expect.arrayContaining([`owner-${dialect}@operator.example`, `ana-${dialect}@second.example`]),
      );
      const one = await json(['user', 'list', '--company', otherCompanyId]);
      expect(one.users).toEqual([
        expect.objectContaining({
          email: `ana-${dialect}@second.example`,
          role: 'admin',
          active: true,
          companyId: otherCompanyId,
        }),
      ]);
      const text = await cli(['user', 'list']);
      expect(text.stdout).not.toMatch(/scrypt|password/i);
      expect(JSON.stringify(all)).not.toMatch(/scrypt|password_hash|passwordHash/);
      const unknown = await cli(['user', 'list', '--company', 'cmp_nope']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No company with id cmp_nope');
    });

    it('resets a password from standard input: the new one signs in, must be replaced there, and the old one and every session end', async () => {
      const created = await users.create({
        companyId,
        email: `clerk-${dialect}@operator.example`,
        role: 'member',
        password: PASSWORD,
      });
      if (!created.ok) throw new Error(created.detail);
      const sessions = new SessionStore(t.container.repositories.sessions);
      const session = await sessions.create(created.value.id);
      expect(await sessions.find(session.token)).not.toBeNull();

      const reset = await json(['user', 'reset-password', created.value.id, '--password-stdin'], `${NEW_PASSWORD}\n`);
      expect(reset).toMatchObject({ id: created.value.id, sessionsEnded: 1, mustChangePassword: true });
      expect(JSON.stringify(reset)).not.toContain(NEW_PASSWORD);
      expect(await sessions.find(session.token)).toBeNull();
      // The operator knows the new password: the user must choose their own at the next sign-in.
      expect(await users.authenticate(created.value.email, NEW_PASSWORD)).toMatchObject({ mustChangePassword: true });
      expect(await users.authenticate(created.value.email, PASSWORD)).toBeNull();
      const next = await sessions.create(created.value.id);
      expect((await sessions.find(next.token))?.user.mustChangePassword).toBe(true);
    });

    it('refuses a reset without --password-stdin (usage), with a weak password or for an unknown user', async () => {
      const created = await users.create({
        companyId,
        email: `weak-${dialect}@operator.example`,
        role: 'member',
        password: PASSWORD,
      });
      if (!created.ok) throw new Error(created.detail);
      const noStdin = await cli(['user', 'reset-password', created.value.id]);
      expect(noStdin.code).toBe(2);
      expect(noStdin.stderr).toContain('--password-stdin');
      const weak = await cli(['user', 'reset-password', created.value.id, '--password-stdin'], 'short');
      expect(weak.code).toBe(1);
      expect(weak.stderr).toMatch(/^Error: Password: /);
      expect(weak.stderr).not.toContain('short\n');
      expect(await users.authenticate(created.value.email, PASSWORD)).not.toBeNull();
      const unknown = await cli(['user', 'reset-password', 'usr_nope', '--password-stdin'], NEW_PASSWORD);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No user with id usr_nope');
      const missing = await cli(['user', 'reset-password']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('the id of a user');
    });

    it('deactivates a user, who is signed out and cannot sign in, but never the last active owner', async () => {
      const company = await t.createCompany('Lonely Owner AG');
      const owner = await users.create({
        companyId: company,
        email: `only-${dialect}@lonely.example`,
        role: 'owner',
        password: PASSWORD,
      });
      const member = await users.create({
        companyId: company,
        email: `member-${dialect}@lonely.example`,
        role: 'member',
        password: PASSWORD,
      });
      if (!owner.ok || !member.ok) throw new Error('users not created');
      const sessions = new SessionStore(t.container.repositories.sessions);
      const session = await sessions.create(member.value.id);

      const done = await json(['user', 'deactivate', member.value.id]);
      expect(done).toMatchObject({ id: member.value.id, active: false });
      expect(await sessions.find(session.token)).toBeNull();
      expect(await users.authenticate(member.value.email, PASSWORD)).toBeNull();

      const lastOwner = await cli(['user', 'deactivate', owner.value.id]);
      expect(lastOwner.code).toBe(1);
      expect(lastOwner.stderr).toContain('last owner');
      expect(await users.authenticate(owner.value.email, PASSWORD)).not.toBeNull();
      const unknown = await cli(['user', 'deactivate', 'usr_nope']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No user with id usr_nope');
    });

    it('lists webhook endpoints of both modes without a secret, and disables one so the API shows it disabled', async () => {
      const live = await t.tenant(['webhook.manage']);
      const test = await t.createKey(live.companyId, ['webhook.manage'], { mode: 'test' });
      const made = await t.post(
        `/webhook-endpoint`,
        { url: 'http://127.0.0.1:9/live', events: ['invoice.finalized'] },
        live.key,
      );
      expect(made.statusCode).toBe(201);
      const endpoint = made.json().data;
      const madeTest = await t.post(`/webhook-endpoint`, { url: 'http://127.0.0.1:9/test', events: ['*'] }, test.key);
      expect(madeTest.statusCode).toBe(201);

      const listed = await json(['webhook', 'list', '--company', live.companyId]);
      expect(listed.endpoints).toEqual([
        expect.objectContaining({
          id: endpoint.id,
          companyId: live.companyId,
          livemode: true,
          enabled: true,
          url: 'http://127.0.0.1:9/live',
        }),
        expect.objectContaining({ livemode: false, url: 'http://127.0.0.1:9/test', events: ['*'] }),
      ]);
      const text = await cli(['webhook', 'list']);
      expect(text.stdout).toContain(endpoint.id);
      expect(`${text.stdout}${JSON.stringify(listed)}`).not.toMatch(/whsec_|secret/i);

      const disabled = await json(['webhook', 'disable', endpoint.id]);
      expect(disabled).toMatchObject({ id: endpoint.id, enabled: false });
      const read = await t.get(`/webhook-endpoint/${endpoint.id}`, live.key);
      expect(read.json().data).toMatchObject({ enabled: false });
      const unknown = await cli(['webhook', 'disable', 'we_nope']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No webhook endpoint with id we_nope');
    });
  });
}

describe('the operator commands in the help', () => {
  it('lists company list, the user and the webhook commands in --help and in their groups', async () => {
    const out: string[] = [];
    const code = await runCli(['--help'], { stdout: (s) => out.push(s), stderr: () => {}, env: {} });
    expect(code).toBe(0);
    const help = out.join('');
    for (const command of [
      'company list',
      'user list',
      'user reset-password',
      'user deactivate',
      'webhook list',
      'webhook disable',
    ]) {
      expect(help).toContain(`invoicing ${command}`);
    }
    const group: string[] = [];
    expect(await runCli(['webhook', '--help'], { stdout: (s) => group.push(s), stderr: () => {}, env: {} })).toBe(0);
    expect(group.join('')).toContain('never a secret');
  });
});
