import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { ApiKeyVerifier } from '../../src/auth/verify-api-key.js';
import { ApiKeyRepository } from '../../src/repositories/api-key-repository.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';

const exec = promisify(execFile);

async function cliAt(url: string, args: string[], stdin?: string) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, {
    stdout: (s) => stdout.push(s),
    stderr: (s) => stderr.push(s),
    env: { DATABASE_URL: url },
    ...(stdin === undefined ? {} : { readStdin: async () => stdin }),
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

async function cli(db: TestDatabase, ...args: string[]) {
  return cliAt(db.url, args);
}

for (const dialect of DIALECTS) {
  describe(`invoicing CLI on ${dialect}`, () => {
    let db: TestDatabase;
    let companyId: string;

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      const created = await cli(
        db,
        'company',
        'create',
        '--name',
        'CLI GmbH',
        '--currency',
        'chf',
        '--vat-id',
        'CHE-123.456.789',
        '--country',
        'ch',
        '--json',
      );
      expect(created.code).toBe(0);
      const company = JSON.parse(created.stdout);
      companyId = company.id;
      expect(company).toMatchObject({ name: 'CLI GmbH', currency: 'CHF', vatId: 'CHE-123.456.789', countryCode: 'CH' });
    });
    afterAll(async () => db.drop());

    it('prints exactly one JSON object for company create --json', async () => {
      const res = await cli(db, 'company', 'create', '--name', 'Another', '--json');
      expect(res.code).toBe(0);
      expect(res.stdout.trim().split('\n')).toHaveLength(1);
      expect(JSON.parse(res.stdout)).toMatchObject({ id: expect.stringMatching(/^cmp_/), currency: 'EUR' });
    });

    it("refuses a company whose VAT id breaks its EU state's format or whose country is not ISO 3166-1, as company update does, and creates none", async () => {
      const before = JSON.parse((await cli(db, 'company', 'list', '--json')).stdout).companies.length;
      const cases: [string[], string][] = [
        [['--vat-id', 'DE12345678'], '--vat-id: A VAT id of Germany is DE + 9 digits, e.g. DE123456789.'],
        [
          ['--vat-id', 'GR123456789'],
          '--vat-id: A Greek VAT id starts with EL, not GR: EL + 9 digits, e.g. EL123456789.',
        ],
        [['--country', 'XX'], '--country: Must be an ISO 3166-1 alpha-2 country code such as DE.'],
        [
          ['--vat-id', 'NL123456789', '--country', 'QQ'],
          '--country: Must be an ISO 3166-1 alpha-2 country code such as DE.; --vat-id: A VAT id of Netherlands is NL + 9 digits + B + 2 digits, e.g. NL123456789B01.',
        ],
      ];
      for (const [options, message] of cases) {
        const created = await cli(db, 'company', 'create', '--name', 'Wrong VAT GmbH', ...options);
        expect(created, options.join(' ')).toMatchObject({ code: 1, stdout: '', stderr: `Error: ${message}\n` });
        // The same words as a change of the seller profile.
        const updated = await cli(db, 'company', 'update', companyId, ...options);
        expect(updated.stderr, options.join(' ')).toBe(created.stderr);
      }
      expect(JSON.parse((await cli(db, 'company', 'list', '--json')).stdout).companies).toHaveLength(before);
      const normalized = await cli(
        db,
        'company',
        'create',
        '--name',
        'Right VAT GmbH',
        '--vat-id',
        'de 123 456 789',
        '--country',
        'de',
        '--json',
      );
      expect(normalized.code, normalized.stderr).toBe(0);
      expect(JSON.parse(normalized.stdout)).toMatchObject({ vatId: 'DE123456789', countryCode: 'DE' });
    });

    it('creates a key and shows the full key once', async () => {
      const res = await cli(
        db,
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'ERP',
        '--permissions',
        'invoice.create,organization.create',
        '--expires-at',
        '2099-01-01T00:00:00Z',
        '--json',
      );
      expect(res.code).toBe(0);
      const key = JSON.parse(res.stdout);
      expect(key).toMatchObject({
        id: expect.stringMatching(/^key_/),
        key: expect.stringMatching(/^inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/),
        permissions: ['invoice.create', 'organization.create'],
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      expect(key.key.split('_')[2]).toBe(key.prefix);

      const text = await cli(
        db,
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'Shop',
        '--permissions',
        'organization.create',
      );
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}/);
      expect(text.stdout).toContain('only time');
    });

    it('refuses unknown permissions, unknown companies and past expiry dates', async () => {
      const unknown = await cli(
        db,
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'x',
        '--permissions',
        'invoice.create,invoice.frobnicate',
      );
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('invoice.frobnicate');
      expect(unknown.stdout).toBe('');
      const noCompany = await cli(
        db,
        'key',
        'create',
        '--company',
        'cmp_nope',
        '--name',
        'x',
        '--permissions',
        'invoice.create',
      );
      expect(noCompany.code).not.toBe(0);
      const past = await cli(
        db,
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'x',
        '--permissions',
        'invoice.create',
        '--expires-at',
        '2001-01-01',
      );
      expect(past.code).not.toBe(0);
      const missing = await cli(db, 'key', 'create', '--company', companyId, '--name', 'x');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--permissions');
    });

    it('lists keys without secrets or digests, and revokes them', async () => {
      const created = JSON.parse(
        (
          await cli(
            db,
            'key',
            'create',
            '--company',
            companyId,
            '--name',
            'To revoke',
            '--permissions',
            'invoice.create',
            '--json',
          )
        ).stdout,
      );
      const list = await cli(db, 'key', 'list', '--company', companyId, '--json');
      expect(list.code).toBe(0);
      const { keys } = JSON.parse(list.stdout);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      expect(list.stdout).not.toContain(created.key.split('_')[3]);
      expect(list.stdout).not.toMatch(/digest|[0-9a-f]{64}/);
      expect(keys.find((k: { id: string }) => k.id === created.id)).toMatchObject({
        status: 'active',
        prefix: created.prefix,
      });

      const revoked = await cli(db, 'key', 'revoke', created.id, '--json');
      expect(revoked.code).toBe(0);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ id: created.id, status: 'revoked' });
      const again = await cli(db, 'key', 'revoke', created.id);
      expect(again.code).toBe(1);
      const table = await cli(db, 'key', 'list', '--company', companyId);
      expect(table.stdout).toMatch(new RegExp(`${created.id}\\s+${created.prefix}\\s+live\\s+To revoke\\s+revoked`));
    });

    it('migrates on demand and reports an up-to-date database', async () => {
      const res = await cli(db, 'migrate', '--json');
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toEqual({ applied: [] });
    });
  });
}

describe('invoicing CLI as a program', () => {
  it('runs through the package bin and reports errors on stderr with a non-zero exit', async () => {
    const db = await createTestDatabase('sqlite');
    try {
      const env = { ...process.env, DATABASE_URL: db.url };
      const { stdout } = await exec(
        process.execPath,
        ['bin/invoicing.js', 'company', 'create', '--name', 'Bin Co', '--json'],
        { env },
      );
      expect(JSON.parse(stdout).id).toMatch(/^cmp_/);
      type Failure = { code?: number; stderr: string; stdout: string };
      const failure: Failure = await exec(process.execPath, ['bin/invoicing.js', 'key', 'revoke', 'key_missing'], {
        env,
      }).catch((e: Failure) => e);
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain('No key with id key_missing');
      expect(failure.stdout).toBe('');
      const usage: Failure = await exec(process.execPath, ['bin/invoicing.js', 'frobnicate'], { env }).catch(
        (e: Failure) => e,
      );
      expect(usage.code).toBe(2);
      expect(usage.stderr).toBe('Error: Unknown command "frobnicate".\nRun "invoicing --help" for usage.\n');
      const version = await exec(process.execPath, ['bin/invoicing.js', '--version'], { env });
      expect(version.stdout).toMatch(/^invoicing \d+\.\d+\.\d+\n$/);
    } finally {
      await db.drop();
    }
  });
});

/** A database path nothing may create: help, version and usage errors are answered without one. */
const NEVER_CREATED = join(tmpdir(), `invoicing-never-created-${process.pid}-${Date.now()}`);

/** Runs the CLI without a database: help, version and usage errors must not need one. */
async function offline(...args: string[]) {
  const result = await cliAt(`sqlite:${join(NEVER_CREATED, 'never.db')}`, args);
  expect(existsSync(NEVER_CREATED), `"invoicing ${args.join(' ')}" opened the database`).toBe(false);
  return result;
}

const FULL_KEY = 'inv_live_AbCdEfGh_0123456789abcdefghijklmn';

describe('invoicing CLI help and usage', () => {
  it('prints the whole usage for --help, -h and help, with exit code 0', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const res = await offline(...args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stderr).toBe('');
      for (const command of [
        'company create',
        'company update',
        'key create',
        'key roll <keyId> [--overlap <hours>]',
        'key rename <keyId> --name',
        'user create',
        'setup-link',
        'migrate',
      ]) {
        expect(res.stdout).toContain(`invoicing ${command}`);
      }
    }
  });

  it('prints the version of the package for --version and -V', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const res = await offline(flag);
      expect(res).toEqual({ code: 0, stdout: `invoicing ${version}\n`, stderr: '' });
    }
  });

  it("prints a group's usage for <group> --help, help <group> and <group> <command> --help", async () => {
    for (const args of [
      ['key', '--help'],
      ['help', 'key'],
      ['key', 'roll', '--help'],
      ['key', 'help'],
    ]) {
      const res = await offline(...args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout).toContain('invoicing key roll <keyId> [--overlap <hours>] [--json]');
      expect(res.stdout).toContain('Permissions: invoice.create');
      expect(res.stdout).not.toContain('invoicing company create');
    }
    const company = await offline('company', '--help');
    expect(company.stdout).toContain('invoicing company reset-test-data <companyId>');
    expect(company.stdout).not.toContain('invoicing key');
  });

  it("prints a group's usage on stderr with exit code 2 when the command is missing", async () => {
    for (const group of ['company', 'key', 'user']) {
      const res = await offline(group);
      expect(res.code, group).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(`invoicing ${group} create`);
      expect(res.stderr).not.toContain('Unknown command');
    }
  });

  it('answers a usage error with one line and a pointer to the help, exit code 2', async () => {
    const cases: [string[], string, string][] = [
      [['frobnicate'], 'Unknown command "frobnicate".', 'invoicing --help'],
      [
        ['key', 'frob'],
        'Unknown command "key frob". The key commands are create, list, revoke, roll, rename.',
        'invoicing key --help',
      ],
      [['key', 'revoke'], '"invoicing key revoke" needs the id of a key', 'invoicing key --help'],
      [['key', 'roll'], '"invoicing key roll" needs the id of a key', 'invoicing key --help'],
      [['key', 'list', '--bogus'], 'Unknown option --bogus.', 'invoicing key --help'],
      [['key', 'create', '--name'], 'Option --name needs a value.', 'invoicing key --help'],
      [['key', 'list', '--json=yes'], 'Option --json takes no value.', 'invoicing key --help'],
      [
        ['key', 'list', '--currency', 'EUR'],
        'Option --currency does not apply to "invoicing key list".',
        'invoicing key --help',
      ],
      [
        ['key', 'revoke', 'key_a', 'key_b'],
        'Unexpected argument "key_b" for "invoicing key revoke".',
        'invoicing key --help',
      ],
      [
        ['key', 'roll', 'key_a', '--overlap', '169'],
        '--overlap must be a number of hours from 0 to 168 (7 days), got "169".',
        'invoicing key --help',
      ],
      [['key', 'roll', 'key_a', '--overlap', '-1'], 'Option --overlap needs a value.', 'invoicing key --help'],
      [
        ['company', 'update'],
        '"invoicing company update" needs the id of a company (cmp_…).',
        'invoicing company --help',
      ],
    ];
    for (const [args, message, help] of cases) {
      const res = await offline(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      const lines = res.stderr.trimEnd().split('\n');
      expect(lines, args.join(' ')).toHaveLength(2);
      expect(lines[0]).toContain(message);
      expect(lines[1]).toBe(`Run "${help}" for usage.`);
      // No raw parser text: no quotes left open, no mention of options that do not exist.
      expect((res.stderr.match(/'/g) ?? []).length % 2).toBe(0);
      expect(res.stderr).not.toContain('--keyId');
      expect(res.stderr).not.toContain('positional');
    }
  });

  it('refuses a full API key given where a key id is expected, without printing it', async () => {
    for (const args of [
      ['key', 'revoke', FULL_KEY],
      ['key', 'roll', FULL_KEY],
      ['key', 'rename', FULL_KEY, '--name', 'x'],
      ['key', 'revoke', FULL_KEY.replace('live', 'test')],
    ]) {
      const res = await offline(...args);
      expect(res.code, args[1]).toBe(2);
      expect(res.stderr).toContain(
        'That looks like a full API key, not a key id; key ids look like key_…. The key was not printed.',
      );
      const output = res.stdout + res.stderr;
      expect(output).not.toContain(FULL_KEY.slice(9));
      expect(output).not.toContain('AbCdEfGh');
    }
  });

  it('never echoes a full API key typed anywhere else either', async () => {
    for (const args of [
      [FULL_KEY],
      ['key', FULL_KEY],
      ['key', 'list', '--company', FULL_KEY],
      [`--${FULL_KEY}`],
      ['key', 'revoke', 'key_a', FULL_KEY],
    ]) {
      const res = await offline(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stdout + res.stderr).not.toContain('0123456789abcdefghijklmn');
      expect(res.stdout + res.stderr).not.toContain('AbCdEfGh');
    }
  });
});

for (const dialect of DIALECTS) {
  describe(`invoicing CLI key roll, rename and unknown ids on ${dialect}`, () => {
    let t: TestApp;
    let companyId: string;
    const run = (...args: string[]) => cliAt(t.database.url, args);
    const json = async (...args: string[]) => {
      const res = await run(...args, '--json');
      expect(res.code, res.stderr).toBe(0);
      return JSON.parse(res.stdout);
    };
    const newKey = (name: string, ...extra: string[]) =>
      json(
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        name,
        '--permissions',
        'organization.read,organization.create',
        ...extra,
      );
    const works = async (key: string) => (await t.get('/organization', key)).statusCode;

    beforeAll(async () => {
      // No key cache in this app: what the CLI writes, the API sees at once (servers see it within API_KEY_CACHE_TTL_MS).
      t = await buildTestApp(dialect, { apiKeyCacheTtlMs: 0 });
      companyId = (await json('company', 'create', '--name', 'Roll GmbH')).id;
    });
    afterAll(async () => t.close());

    it('refuses unknown company ids in every command with exit code 1', async () => {
      const cases: [string[], string?][] = [
        [['key', 'list', '--company', 'cmp_nope']],
        [['key', 'create', '--company', 'cmp_nope', '--name', 'x', '--permissions', 'invoice.create']],
        [['company', 'update', 'cmp_nope', '--iban', 'DE89370400440532013000']],
        [['company', 'reset-test-data', 'cmp_nope']],
        [
          [
            'user',
            'create',
            '--company',
            'cmp_nope',
            '--email',
            'a@example.com',
            '--role',
            'admin',
            '--password-stdin',
          ],
          'correct horse battery',
        ],
      ];
      for (const [args, stdin] of cases) {
        const res = await cliAt(t.database.url, args, stdin);
        expect(res.code, args.join(' ')).toBe(1);
        expect(res.stdout).toBe('');
        expect(res.stderr).toBe('Error: No company with id cmp_nope.\n');
      }
    });

    it('rolls a key: the successor keeps name, permissions, mode and expiry, and is printed once', async () => {
      const old = await newKey('Nightly export', '--mode', 'test', '--expires-at', '2099-06-01T00:00:00Z');
      const before = Date.now();
      const rolled = await json('key', 'roll', old.id, '--overlap', '2');
      expect(rolled).toMatchObject({
        id: expect.stringMatching(/^key_/),
        key: expect.stringMatching(/^inv_test_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/),
        name: 'Nightly export',
        mode: 'test',
        permissions: ['organization.read', 'organization.create'],
        expiresAt: '2099-06-01T00:00:00.000Z',
        status: 'active',
        previous: { id: old.id, status: 'active', replacedBy: rolled.id },
      });
      expect(rolled.id).not.toBe(old.id);
      const until = Date.parse(rolled.previous.expiresAt);
      expect(until).toBeGreaterThanOrEqual(before + 2 * 3_600_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 2 * 3_600_000);

      const text = await run('key', 'roll', rolled.id);
      expect(text.code).toBe(0);
      expect(text.stdout.match(/inv_test_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}/g)).toHaveLength(1);
      expect(text.stdout).toContain('only time');
      expect(text.stdout).toMatch(/keeps working until \d{4}-\d\d-\d\dT/);
      const { keys } = await json('key', 'list', '--company', companyId);
      expect(JSON.stringify(keys)).not.toContain(rolled.key);
    });

    it('keeps the old key working during the overlap and refuses it once the overlap is over', async () => {
      const old = await newKey('Overlapping');
      expect(await works(old.key)).toBe(200);
      const rolled = await json('key', 'roll', old.id);
      // Default overlap: 24 hours.
      expect(Date.parse(rolled.previous.expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
      expect(await works(old.key)).toBe(200);
      expect(await works(rolled.key)).toBe(200);

      // The overlap ends: time moves past the old key's expiry.
      await t.storage.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', old.id)
        .execute();
      const refused = await t.get('/organization', old.key);
      expect(refused.statusCode).toBe(401);
      expect(await works(rolled.key)).toBe(200);
    });

    it('keeps an earlier expiry of the old key, and revokes it at once with --overlap 0', async () => {
      const soon = new Date(Date.now() + 3_600_000).toISOString();
      const early = await newKey('Expires soon', '--expires-at', soon);
      const rolled = await json('key', 'roll', early.id, '--overlap', '24');
      expect(rolled.previous.expiresAt).toBe(soon);
      expect(rolled.expiresAt).toBe(soon);

      const now = await newKey('Replace now');
      expect(await works(now.key)).toBe(200);
      const immediate = await json('key', 'roll', now.id, '--overlap', '0');
      expect(immediate.previous.status).toBe('revoked');
      expect(await works(now.key)).toBe(401);
      expect(await works(immediate.key)).toBe(200);
    });

    it("lets a server's key cache honour the old key's new expiry: refused when the overlap ends, and a roll seen within the cache TTL", async () => {
      let clock = Date.now();
      const verifier = (cacheTtlMs: number) =>
        new ApiKeyVerifier(new ApiKeyRepository(t.storage.db), { cacheTtlMs, now: () => clock });

      // A row cached after the roll carries the new expiry: no new lookup is needed to refuse the key.
      const old = await newKey('Cached after roll');
      await json('key', 'roll', old.id, '--overlap', '1');
      const longCache = verifier(3 * 3_600_000);
      expect((await longCache.verify(old.key)).ok).toBe(true);
      clock += 3_600_000 + 1000;
      expect(longCache.fresh(old.prefix)).toBeDefined();
      expect(await longCache.verify(old.key)).toEqual({ ok: false, reason: 'expired' });

      // A row cached before the roll is trusted for the TTL only (here 5 s), then read again.
      clock = Date.now();
      const before = await newKey('Cached before roll');
      const server = verifier(5000);
      expect((await server.verify(before.key)).ok).toBe(true);
      await json('key', 'roll', before.id, '--overlap', '0');
      clock += 5000;
      expect(await server.verify(before.key)).toEqual({ ok: false, reason: 'revoked' });
    });

    it('refuses to roll a revoked, an expired or an already rolled key, and an unknown id', async () => {
      const revoked = await newKey('Revoked one');
      expect((await run('key', 'revoke', revoked.id)).code).toBe(0);
      const expired = await newKey('Expired one', '--expires-at', '2099-01-01');
      await t.storage.db
        .updateTable('api_keys')
        .set({ expires_at: '2001-01-01T00:00:00.000Z' })
        .where('id', '=', expired.id)
        .execute();
      const rolledOnce = await newKey('Rolled once');
      const successor = await json('key', 'roll', rolledOnce.id);
      const count = async () => (await t.storage.db.selectFrom('api_keys').select('id').execute()).length;
      const keysBefore = await count();

      const cases: [string, string][] = [
        [
          revoked.id,
          `Error: Key ${revoked.id} is revoked; only a working key can be rolled. Create a new key instead.\n`,
        ],
        [
          expired.id,
          `Error: Key ${expired.id} is expired; only a working key can be rolled. Create a new key instead.\n`,
        ],
        [
          rolledOnce.id,
          `Error: Key ${rolledOnce.id} was rolled already (to ${successor.id}); roll that key instead.\n`,
        ],
        ['key_missing', 'Error: No key with id key_missing.\n'],
      ];
      for (const [id, message] of cases) {
        const res = await run('key', 'roll', id);
        expect(res.code, id).toBe(1);
        expect(res.stderr).toBe(message);
        expect(res.stdout).toBe('');
      }
      expect(await count()).toBe(keysBefore);
    });

    it('rolls a key once when two rolls of it race, and keeps no second successor', async () => {
      const key = await newKey('Raced');
      const actor = { userId: null, label: 'CLI' };
      const results = await Promise.all(
        Array.from({ length: 4 }, () => t.container.apiKeys.roll(key.id, { overlapHours: 1, actor })),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual([
        'already_rolled',
        'already_rolled',
        'already_rolled',
      ]);
      const named = await t.storage.db.selectFrom('api_keys').select('id').where('name', '=', 'Raced').execute();
      expect(named).toHaveLength(2);
      const rolls = await t.storage.db
        .selectFrom('api_key_events')
        .select('id')
        .where('api_key_id', '=', key.id)
        .where('action', '=', 'roll')
        .execute();
      expect(rolls).toHaveLength(1);
    });

    it('renames a key, which keeps working, and refuses empty names and unknown ids', async () => {
      const key = await newKey('Old label');
      const renamed = await json('key', 'rename', key.id, '--name', '  New label  ');
      expect(renamed).toMatchObject({ id: key.id, name: 'New label', status: 'active' });
      const { keys } = await json('key', 'list', '--company', companyId);
      expect(keys.find((k: { id: string }) => k.id === key.id).name).toBe('New label');
      expect(await works(key.key)).toBe(200);
      const text = await run('key', 'rename', key.id, '--name', 'Third label');
      expect(text).toMatchObject({ code: 0, stdout: `Renamed key ${key.id} to "Third label".\n` });

      expect((await run('key', 'rename', key.id)).code).toBe(2);
      expect((await run('key', 'rename', key.id, '--name', ' ')).code).toBe(2);
      const long = await run('key', 'rename', key.id, '--name', 'x'.repeat(201));
      expect(long).toMatchObject({ code: 1, stderr: 'Error: The key name must be at most 200 characters.\n' });
      const missing = await run('key', 'rename', 'key_missing', '--name', 'x');
      expect(missing).toMatchObject({ code: 1, stderr: 'Error: No key with id key_missing\n' });
    });

    it('records what the CLI does to keys in the key activity, with CLI as the actor', async () => {
      const key = await newKey('Audited');
      await json('key', 'rename', key.id, '--name', 'Audited (renamed)');
      const rolled = await json('key', 'roll', key.id, '--overlap', '1');
      await json('key', 'revoke', rolled.id);
      const events = await t.storage.db
        .selectFrom('api_key_events')
        .selectAll()
        .where('api_key_id', 'in', [key.id, rolled.id])
        .orderBy('at')
        .orderBy('id')
        .execute();
      expect(events.map((e) => [e.action, e.api_key_id, e.actor_label, e.actor_user_id])).toEqual([
        ['create', key.id, 'CLI', null],
        ['rename', key.id, 'CLI', null],
        ['roll', key.id, 'CLI', null],
        ['revoke', rolled.id, 'CLI', null],
      ]);
      expect(JSON.parse(events[1]!.detail!)).toEqual({ previousName: 'Audited' });
      expect(JSON.parse(events[2]!.detail!)).toEqual({
        successorId: rolled.id,
        successorPrefix: rolled.prefix,
        oldKeyUntil: rolled.previous.expiresAt,
      });
    });
  });
}
