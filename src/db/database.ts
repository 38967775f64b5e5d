import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  CompiledQuery,
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type TableMetadata,
} from 'kysely';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { isUnavailable, type Dialect } from './dialect.js';
import { postgresDialect } from './dialects/postgres.js';
import { sqliteDialect } from './dialects/sqlite.js';
import { hotStatementName } from './prepared-query.js';
import { SqliteCheckpointer } from './sqlite-checkpointer.js';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-driver.js';
import { GroupCommitSqliteDialect, type Prepare } from './sqlite-group-commit.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

export interface Storage {
  db: Kysely<Database>;
  /** What differs between the databases, chosen here once: code elsewhere asks it, never which database this is. */
  dialect: Dialect;
  /** A cheap round trip, used by the health check. */
  ping(): Promise<void>;
  /** Connection pool use, for metrics; null where there is no pool (SQLite). */
  poolStats(): { total: number; idle: number; waiting: number; max: number } | null;
  close(): Promise<void>;
}

export interface StorageOptions {
  poolMax?: number;
  /** SQLite: checkpoint the WAL from a worker thread instead of on the event loop (the server does). */
  backgroundCheckpoints?: boolean;
  /** SQLite: how long a write waits for another process's write lock before failing (503). */
  busyTimeoutMs?: number;
}

export function sqlitePathOf(url: string): string {
  return url.slice('sqlite:'.length);
}

const STATEMENT_CACHE_SIZE = 500;
const PING = CompiledQuery.raw('select 1');
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** The write-ahead log's size at which the background checkpointer starts (1,000 pages). */
const CHECKPOINTER_START_BYTES = 4 * 1024 * 1024;

/**
 * Preparing a statement costs more than running a small one, and Kysely prepares every query
 * anew. Prepared statements are kept by SQL text (the app has a few dozen distinct ones) and
 * reused. node:sqlite runs a statement synchronously to completion, so reuse is safe.
 */
function statementCache(database: SqliteDatabase): Prepare {
  const statements = new Map<string, ReturnType<Prepare>>();
  return (sqlText) => {
    let prepared = statements.get(sqlText);
    if (!prepared) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      const statement = database.prepare(sqlText);
      prepared = { statement, returnsRows: statement.columns().length > 0 };
      statements.set(sqlText, prepared);
    }
    return prepared;
  };
}

function openSqlite(url: string, options: StorageOptions): Storage {
  const path = sqlitePathOf(url);
  const inMemory = path === ':memory:';
  // The writer sets WAL first; the reader then opens the same file (WAL is a property of the file).
  const writer = openSqliteDatabase(path);
  const reader = inMemory ? null : openSqliteDatabase(path, { readOnly: true });
  const checkpointer =
    options.backgroundCheckpoints && !inMemory
      ? new SqliteCheckpointer(resolve(path), { startAtLogBytes: CHECKPOINTER_START_BYTES })
      : null;
  // With the checkpointer running, the automatic checkpoint on commit is only a safety net.
  if (checkpointer) writer.exec('pragma wal_autocheckpoint = 10000');
  const prepareWriter = statementCache(writer);
  const prepareReader = reader ? statementCache(reader) : null;
  const db = new Kysely<Database>({
    dialect: new GroupCommitSqliteDialect({
      writer,
      prepareWriter,
      prepareReader,
      busyTimeoutMs: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
      ...(checkpointer ? { afterCommit: () => checkpointer.noteCommit() } : {}),
      close: () => {
        reader?.close();
        writer.close();
      },
    }),
  });
  const ping = prepareReader ?? prepareWriter;
  return {
    db,
    dialect: sqliteDialect,
    poolStats: () => null,
    async ping() {
      // The reader handle itself: a query through Kysely costs ten times more, a read never
      // waits for a writer, and a closed or broken handle throws here just the same.
      ping('select 1').statement.get();
    },
    async close() {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Kysely sends every statement unnamed, so PostgreSQL parses and plans it each time. The hot
 * statements (see prepared-query.ts) go as named statements instead: parsed once per connection.
 */
function sendHotStatementsNamed(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (text: unknown, ...rest: unknown[]) => {
    const name = typeof text === 'string' && Array.isArray(rest[0]) ? hotStatementName(text) : undefined;
    return name ? query({ name, text, values: rest[0] }, ...rest.slice(1)) : query(text, ...rest);
  };
}

/** How long opening a PostgreSQL connection may take before the request answers 503. */
const CONNECT_TIMEOUT_MS = 2000;
/** How long a statement may run, and how long a request waits for a free pooled connection. */
const STATEMENT_TIMEOUT_MS = 10_000;

function openPostgres(url: string, options: StorageOptions): Storage {
  // Loaded only for PostgreSQL: an instance on SQLite does not carry the driver's memory.
  const { Pool, Client } = createRequire(import.meta.url)('pg') as typeof pg;
  // Two waits that node-postgres's pool knows as one (connectionTimeoutMillis): opening a new
  // connection fails fast while the database is down (2 s, set on each client), but waiting for
  // a free connection of a busy, healthy pool is a turn in a queue, as long as a statement may run
  // (many requests of one company taking its numbering lock in turn wait there; they must not
  // answer 503 because the machine is slow).
  class FailFastClient extends Client {
    constructor(config: pg.ClientConfig = {}) {
      super({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
    }
  }
  const pool = new Pool({
    connectionString: url,
    max: options.poolMax ?? 10,
    Client: FailFastClient,
    connectionTimeoutMillis: STATEMENT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Neither may a checked-out one: between two queries (inside a transaction, say) a dropped
  // connection is emitted as 'error' on the client, which has no listener while checked out.
  // The query in progress fails on its own (503), and the pool discards the broken client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    sendHotStatementsNamed(client);
  });
  const db = new Kysely<Database>({ dialect: new OwnSchemaPostgresDialect({ pool }) });
  return {
    db,
    dialect: postgresDialect,
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: options.poolMax ?? 10,
    }),
    async ping() {
      await db.executeQuery(PING);
    },
    async close() {
      await db.destroy();
    },
  };
}

export function openStorage(url: string, options: StorageOptions = {}): Storage {
  if (url.startsWith('sqlite:')) return openSqlite(url, options);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options);
  throw new Error(`Unsupported DATABASE_URL scheme: ${url.split(':')[0]}`);
}

/**
 * Kysely's PostgreSQL introspection, limited to the connection's own schema. The migrator asks
 * for every table of the database to learn whether its bookkeeping table exists, and Kysely's
 * query calls has_schema_privilege by name on each schema it scans: a schema that another
 * session drops meanwhile (another tenant's, a parallel test run's) fails the whole read with
 * "schema … does not exist", and with it the migration at start-up. Only the migrator reads
 * tables, and only their names, so this lists names alone.
 */
class OwnSchemaIntrospector extends PostgresIntrospector {
  constructor(private readonly connection: Kysely<unknown>) {
    super(connection);
  }

  override async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.connection);
    return rows.map(({ name, schema, kind }) => ({ name, schema, isView: kind === 'v', columns: [] }));
  }
}

class OwnSchemaPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OwnSchemaIntrospector(db);
  }
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
      ? ((await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db)).rows[0]?.schema ??
        undefined)
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

export class DatabaseUnreachableError extends Error {
  override name = 'DatabaseUnreachableError';
}

export interface MigrateWhenReachableOptions {
  /** How long to keep trying while the database is unreachable; 0 tries once. */
  waitMs: number;
  /** Called before each wait, e.g. to log that start-up is waiting for the database. */
  onWait?: (error: unknown, delayMs: number) => void;
}

/**
 * Start-up migration that tolerates a database still coming up (containers started together,
 * a PostgreSQL restart): unreachable-database errors are retried with backoff for `waitMs`, then
 * reported as one clear error. Any other error (a failing migration) is thrown at once.
 */
export async function migrateWhenReachable(
  db: Kysely<Database>,
  options: MigrateWhenReachableOptions,
): Promise<string[]> {
  const deadline = Date.now() + options.waitMs;
  let delayMs = 250;
  for (;;) {
    try {
      return await migrateToLatest(db);
    } catch (error) {
      if (!isUnavailable(error)) throw error;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new DatabaseUnreachableError(
          `the database could not be reached${options.waitMs > 0 ? ` within ${Math.round(options.waitMs / 1000)} s (DATABASE_STARTUP_WAIT_MS)` : ''}: ${reason}`,
          { cause: error },
        );
      }
      const wait = Math.min(delayMs, remaining);
      options.onWait?.(error, wait);
      await delay(wait);
      delayMs = Math.min(delayMs * 2, 5000);
    }
  }
}
