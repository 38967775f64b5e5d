import { PostgresAdapter, type Kysely } from 'kysely';

// Every place where SQLite and PostgreSQL behave differently is named here, and only here.

export type DialectName = 'sqlite' | 'postgres';

/** The dialect a Kysely instance (or transaction, or a migration's db) speaks. */
export function dialectOf(db: Kysely<unknown>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** The column type of raw bytes (received documents, their attachments): BLOB on SQLite, bytea on PostgreSQL. */
export function binaryColumnType(dialect: DialectName): 'blob' | 'bytea' {
  return dialect === 'postgres' ? 'bytea' : 'blob';
}

/**
 * A binary column's value as read: node:sqlite answers a Uint8Array, node-postgres a Buffer.
 * Either way a Buffer over the same memory, not a copy.
 */
export function bytesOfColumn(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

interface DriverError {
  code?: unknown;
  errno?: unknown;
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as DriverError).code;
  return typeof code === 'string' ? code : undefined;
}

/** node:sqlite reports SQLite's (extended) result code as a number in `errcode`. */
function sqliteErrcode(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const errcode = (error as { errcode?: unknown }).errcode;
  return typeof errcode === 'number' ? errcode : undefined;
}

const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_UNIQUE = 2067;

/** A unique or primary-key constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  const errcode = sqliteErrcode(error);
  return (
    codeOf(error) === '23505' || // PostgreSQL unique_violation
    errcode === SQLITE_CONSTRAINT_UNIQUE ||
    errcode === SQLITE_CONSTRAINT_PRIMARYKEY
  );
}

const POSTGRES_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);
const NETWORK_UNAVAILABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLITE_BUSY, SQLITE_LOCKED, SQLITE_IOERR, SQLITE_CANTOPEN: primary codes (the low byte of an extended one).
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 14]);

/**
 * The database cannot serve right now (down, restarting, overloaded, locked): the request
 * may succeed if retried, so the API answers 503 rather than 500.
 */
export function isUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (code && (POSTGRES_UNAVAILABLE.has(code) || NETWORK_UNAVAILABLE.has(code))) return true;
  // SQLite reports extended codes (SQLITE_BUSY_SNAPSHOT, SQLITE_IOERR_WRITE, …): their primary code decides.
  const errcode = sqliteErrcode(error);
  if (errcode !== undefined && SQLITE_UNAVAILABLE.has(errcode & 0xff)) return true;
  if (error instanceof Error) {
    // node-postgres reports pool and connection failures as plain Errors without a code.
    // node:sqlite says "database is not open" on a closed handle.
    return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|The database connection is not open|database is not open|driver has already been destroyed/i.test(
      error.message,
    );
  }
  return false;
}
