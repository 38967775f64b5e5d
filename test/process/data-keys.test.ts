import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { dataKeyFileOf, resolveDataKeys } from '../../src/lib/data-keys.js';
import { Sealer } from '../../src/lib/sealer.js';
import { runServerToExit } from '../helpers/servers.js';

describe('the data key and the sealer', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('makes a key file beside the SQLite database on first start, readable by its owner only, and reads the same key after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'data-key-'));
    dirs.push(dir);
    const url = `sqlite:${join(dir, 'sub', 'invoicing.db')}`;
    const [first] = resolveDataKeys([], url);
    const file = dataKeyFileOf(join(dir, 'sub', 'invoicing.db'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toEqual(first);
    expect(resolveDataKeys([], url)).toEqual([first]);
  });

  it('uses DATA_ENCRYPTION_KEY when set, and requires it with PostgreSQL', () => {
    const key = Buffer.alloc(32, 3);
    expect(resolveDataKeys([key], 'postgres://u@db/inv')).toEqual([key]);
    expect(() => resolveDataKeys([], 'postgres://u@db/inv')).toThrow(ConfigError);
    expect(() => resolveDataKeys([], 'postgres://u@db/inv')).toThrow('DATA_ENCRYPTION_KEY');
  });

  it('refuses a missing data key before touching the database: exit 78 at once even when PostgreSQL is unreachable', async () => {
    const { code, output } = await runServerToExit({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
      DATA_ENCRYPTION_KEY: '',
      DATABASE_STARTUP_WAIT_MS: '600000',
    });
    expect(code).toBe(78);
    expect(output).toContain('DATA_ENCRYPTION_KEY must be set with Pos');
  });

  it('refuses to start on PostgreSQL without DATA_ENCRYPTION_KEY: exit 78 naming the variable', async () => {
    const { code, output } = await runServerToExit({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
      DATA_ENCRYPTION_KEY: '',
    });
    expect(code).toBe(78);
    expect(output).toContain('DATA_ENCRYPTION_KEY must be set with PostgreSQL');
  });

  it('seals so that only its keys open, detects tampering, and opens what an older key sealed after a rotation', () => {
    const old = new Sealer([Buffer.alloc(32, 1)]);
    const sealed = old.seal('whsec_secret');
    expect(sealed).toMatch(/^sealed\.v1\.[0-9a-f]{8}\./);
    expect(sealed).not.toContain('whsec_secret');
    expect(old.seal('whsec_secret')).not.toBe(sealed);
    expect(old.open(sealed)).toBe('whsec_secret');
    const rotated = new Sealer([Buffer.alloc(32, 2), Buffer.alloc(32, 1)]);
    expect(rotated.open(sealed)).toBe('whsec_secret');
    expect(rotated.seal('x').split('.')[2]).not.toBe(sealed.split('.')[2]);
    expect(() => new Sealer([Buffer.alloc(32, 2)]).open(sealed)).toThrow('not configured');
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1);
    expect(() => old.open(flipped)).toThrow();
    expect(() => new Sealer([]).seal('x')).toThrow('DATA_ENCRYPTION_KEY');
  });
});
