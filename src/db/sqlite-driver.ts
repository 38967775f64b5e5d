import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type * as NodeSqlite from 'node:sqlite';

// The embedded database is Node's own SQLite (node:sqlite): nothing to compile or download at
// install time, and no native addon whose ABI can break with a Node release (better-sqlite3
// aborted at start on Node 24.19+, nodejs/node#65446). It is synchronous like better-sqlite3.

export type SqliteDatabase = NodeSqlite.DatabaseSync;
export type SqliteStatement = NodeSqlite.StatementSync;

let nodeSqlite: typeof NodeSqlite | undefined;

/**
 * node:sqlite, loaded once. Node 22 prints an ExperimentalWarning when it is first loaded (Node
 * 24 no longer does); operators would read it as a fault, so that one warning is not emitted.
 * Every other warning passes through untouched.
 */
export function loadNodeSqlite(): typeof NodeSqlite {
  if (nodeSqlite) return nodeSqlite;
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    const text = typeof warning === 'string' ? warning : warning.message;
    if (/SQLite is an experimental feature/.test(text)) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    nodeSqlite = createRequire(import.meta.url)('node:sqlite') as typeof NodeSqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
  return nodeSqlite;
}

export interface OpenSqliteOptions {
  /** A connection that may only read (PRAGMA query_only): the server's reader. */
  readOnly?: boolean;
}

/**
 * Opens the file (creating its folder) in WAL mode with `synchronous = FULL`: a transaction
 * acknowledged to a client is in the log on disk, so it survives a power cut (NORMAL could lose
 * the last commits, and with them invoice numbers that were already handed out).
 * busy_timeout is 0: SQLite's own wait would block the event loop, so lock waits are done
 * asynchronously by the caller (see sqlite-group-commit.ts).
 *
 * A connection that writes keeps its temporary files in memory (`temp_store = MEMORY`). Group
 * commit runs every write inside a SAVEPOINT, and SQLite copies each page a statement first
 * changes inside a savepoint to a statement journal, a temporary file by default: a write() per
 * page, about a third of what an invoice's statements cost. The journal only has to last until
 * the shared transaction ends, and never has to survive a crash (the WAL does), so memory is
 * enough: it holds the pages one batch changed, until the batch's COMMIT.
 */
export function openSqliteDatabase(path: string, options: OpenSqliteOptions = {}): SqliteDatabase {
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const { DatabaseSync } = loadNodeSqlite();
  const database = new DatabaseSync(path);
  database.exec('pragma busy_timeout = 0');
  if (!options.readOnly) database.exec('pragma journal_mode = WAL');
  if (!options.readOnly) database.exec('pragma temp_store = MEMORY');
  database.exec('pragma synchronous = FULL');
  database.exec('pragma foreign_keys = ON');
  if (options.readOnly) database.exec('pragma query_only = 1');
  return database;
}

/** SQLite's primary result code of a node:sqlite error (SQLITE_BUSY is 5), or null. */
export function sqliteResultCode(error: unknown): number | null {
  if (typeof error !== 'object' || error === null) return null;
  const errcode = (error as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' ? errcode & 0xff : null;
}

export const SQLITE_BUSY = 5;
export const SQLITE_LOCKED = 6;
