import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from './helpers/dialects.js';

const exec = promisify(execFile);

async function cli(db: TestDatabase, ...args: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, { stdout: (s) => stdout.push(s), stderr: (s) => stderr.push(s), env: { DATABASE_URL: db.url } });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

for (const dialect of DIALECTS) {
  describe(`invoicing CLI on ${dialect}`, () => {
    let db: TestDatabase;
    let companyId: string;

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      const created = await cli(db, 'company', 'create', '--name', 'CLI GmbH', '--currency', 'chf', '--vat-id', 'CHE-123.456.789', '--country', 'ch', '--json');
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

    it('creates a key and shows the full key once', async () => {
      const res = await cli(db, 'key', 'create', '--company', companyId, '--name', 'ERP', '--permissions', 'invoice.create,organization.create', '--expires-at', '2099-01-01T00:00:00Z', '--json');
      expect(res.code).toBe(0);
      const key = JSON.parse(res.stdout);
      expect(key).toMatchObject({
        id: expect.stringMatching(/^key_/),
        key: expect.stringMatching(/^inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/),
        permissions: ['invoice.create', 'organization.create'],
        expiresAt: '2099-01-01T00:00:00.000Z',
      });
      expect(key.key.split('_')[2]).toBe(key.prefix);

      const text = await cli(db, 'key', 'create', '--company', companyId, '--name', 'Shop', '--permissions', 'organization.create');
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}/);
      expect(text.stdout).toContain('only time');
    });

    it('refuses unknown permissions, unknown companies and past expiry dates', async () => {
      const unknown = await cli(db, 'key', 'create', '--company', companyId, '--name', 'x', '--permissions', 'invoice.create,invoice.frobnicate');
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('invoice.frobnicate');
      expect(unknown.stdout).toBe('');
      const noCompany = await cli(db, 'key', 'create', '--company', 'cmp_nope', '--name', 'x', '--permissions', 'invoice.create');
      expect(noCompany.code).not.toBe(0);
      const past = await cli(db, 'key', 'create', '--company', companyId, '--name', 'x', '--permissions', 'invoice.create', '--expires-at', '2001-01-01');
      expect(past.code).not.toBe(0);
      const missing = await cli(db, 'key', 'create', '--company', companyId, '--name', 'x');
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--permissions');
    });

    it('lists keys without secrets or digests, and revokes them', async () => {
      const created = JSON.parse((await cli(db, 'key', 'create', '--company', companyId, '--name', 'To revoke', '--permissions', 'invoice.create', '--json')).stdout);
      const list = await cli(db, 'key', 'list', '--company', companyId, '--json');
      expect(list.code).toBe(0);
      const { keys } = JSON.parse(list.stdout);
      expect(keys.length).toBeGreaterThanOrEqual(2);
      expect(list.stdout).not.toContain(created.key.split('_')[3]);
      expect(list.stdout).not.toMatch(/digest|[0-9a-f]{64}/);
      expect(keys.find((k: { id: string }) => k.id === created.id)).toMatchObject({ status: 'active', prefix: created.prefix });

      const revoked = await cli(db, 'key', 'revoke', created.id, '--json');
      expect(revoked.code).toBe(0);
      expect(JSON.parse(revoked.stdout)).toMatchObject({ id: created.id, status: 'revoked' });
      const again = await cli(db, 'key', 'revoke', created.id);
      expect(again.code).toBe(1);
      const table = await cli(db, 'key', 'list', '--company', companyId);
      expect(table.stdout).toMatch(new RegExp(`${created.id}\\s+${created.prefix}\\s+To revoke\\s+revoked`));
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
      const { stdout } = await exec(process.execPath, ['bin/invoicing.js', 'company', 'create', '--name', 'Bin Co', '--json'], { env });
      expect(JSON.parse(stdout).id).toMatch(/^cmp_/);
      type Failure = { code?: number; stderr: string; stdout: string };
      const failure: Failure = await exec(process.execPath, ['bin/invoicing.js', 'key', 'revoke', 'key_missing'], { env }).catch((e: Failure) => e);
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain('No key with id key_missing');
      expect(failure.stdout).toBe('');
      const usage: Failure = await exec(process.execPath, ['bin/invoicing.js', 'frobnicate'], { env }).catch((e: Failure) => e);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('Usage');
    } finally {
      await db.drop();
    }
  });
});
