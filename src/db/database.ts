import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

export interface Storage {
  db: Kysely<Database>;
  dialect: DialectName;
  /** A cheap round trip, used by the health check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StorageOptions {
  poolMax?: number;
}

export function sqlitePathOf(url: string): string {
  return url.slice('sqlite:'.length);
}

function openSqlite(url: string): Storage {
  const path = sqlitePathOf(url);
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const database = new SQLite(path);
  // WAL lets the CLI and the server use the file at once; busy_timeout waits out short locks.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  return {
    db,
    dialect: 'sqlite',
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

function openPostgres(url: string, options: StorageOptions): Storage {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    // Fail fast while the database is down instead of queueing requests behind it.
    connectionTimeoutMillis: 2000,
    idleTimeoutMillis: 30_000,
    statement_timeout: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: 'postgres',
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

export function openStorage(url: string, options: StorageOptions = {}): Storage {
  if (url.startsWith('sqlite:')) return openSqlite(url);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error(`Unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
}

/**
 * Applies pending migrations. On PostgreSQL, Kysely's migrator serialises concurrent runs with an
 * advisory lock, so instances starting together migrate once. Its bookkeeping tables are pinned
 * to the connection's current schema: unpinned, Kysely looks for them in every schema of the
 * database and skips creating its own when another schema (another tenant, a test run) has them.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrationTableSchema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ?? undefined
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
