import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DialectName } from '../../src/db/dialect.js';
import { openStorage, type Storage } from '../../src/db/database.js';

// Storage tests run once per database, as Kysely's own tests do. PostgreSQL is the one at
// TEST_POSTGRES_URL (default: the local test database). Under CI=true a missing PostgreSQL is a
// failure; elsewhere its tests are skipped with a printed reason.

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function postgresAnswers(): Promise<string | null> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

async function availableDialects(): Promise<DialectName[]> {
  if (process.env.TEST_DIALECTS === 'sqlite') return ['sqlite'];
  const problem = await postgresAnswers();
  if (problem === null) return ['sqlite', 'postgres'];
  if (process.env.CI) {
    throw new Error(`PostgreSQL is required under CI but does not answer at ${TEST_POSTGRES_URL}: ${problem}`);
  }
  console.warn(
    `[tests] PostgreSQL tests skipped: no answer at ${TEST_POSTGRES_URL} (${problem}). Set CI=true to make this a failure.`,
  );
  return ['sqlite'];
}

export const DIALECTS: DialectName[] = await availableDialects();

export interface TestDatabase {
  dialect: DialectName;
  /** A DATABASE_URL that reaches this test database from another process too. */
  url: string;
  open(options?: { poolMax?: number; busyTimeoutMs?: number }): Storage;
  drop(): Promise<void>;
}

/** A fresh, empty database of the given dialect: a temp SQLite file, or a PostgreSQL schema of its own. */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-test-'));
    const url = `sqlite:${join(dir, 'test.db')}`;
    return {
      dialect,
      url,
      open: (options) =>
        openStorage(url, { ...(options?.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }) }),
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const separator = TEST_POSTGRES_URL.includes('?') ? '&' : '?';
  const url = `${TEST_POSTGRES_URL}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    dialect,
    url,
    open: (options) => openStorage(url, { poolMax: options?.poolMax ?? 10 }),
    drop: async () => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      await client.query(`drop schema if exists "${schema}" cascade`);
      await client.end();
    },
  };
}
