import { channel } from 'node:diagnostics_channel';
import { setTimeout as delay } from 'node:timers/promises';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { SQLInputValue } from 'node:sqlite';
import {
  SQLITE_BUSY,
  SQLITE_LOCKED,
  sqliteResultCode,
  type SqliteDatabase,
  type SqliteStatement,
} from './sqlite-driver.js';

// Group commit for SQLite. Every COMMIT writes (and, with synchronous = FULL, fsyncs) each page
// the transaction touched; for a create that is the table and each of its indexes, and that
// write, not the insert itself, is most of what a create costs. Here the transactions (and
// single writes) that reach the database together share one real transaction: each runs inside
// a SAVEPOINT of its own, so a failure rolls back only its own work, and one COMMIT at the end of
// the event-loop turn makes them all durable with one fsync.
//
// Nothing is acknowledged early: a transaction's commit (or a single write) resolves only after
// the shared COMMIT has succeeded; if it fails, every member fails.
//
// Two connections: writes and transactions use the writer, behind a first-come-first-served
// lock; reads outside a transaction use a second, read-only connection without any lock. WAL
// lets that reader see the last committed state while the writer works, so a read never waits
// for a write, never sees a write that is not yet committed, and never waits for another
// process's lock either.
//
// The event loop never waits on a lock: busy_timeout is 0, and when another process (the CLI,
// a second server) holds the write lock, BEGIN IMMEDIATE is retried on timers until
// busyTimeoutMs has passed; then the write fails with SQLITE_BUSY, which the API answers as 503.

interface Batch {
  done: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

class FifoLock {
  private held = false;
  private readonly waiters: (() => void)[] = [];

  async acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.held = false;
  }
}

export interface PreparedStatement {
  statement: SqliteStatement;
  /** Whether running it yields rows (a SELECT, or a write with RETURNING). */
  returnsRows: boolean;
}

export type Prepare = (sql: string) => PreparedStatement;

export interface SqliteConnections {
  writer: SqliteDatabase;
  prepareWriter: Prepare;
  /** The read-only connection; null where a second connection would be another database (:memory:). */
  prepareReader: Prepare | null;
  /** How long a write waits for another process's write lock before it fails. */
  busyTimeoutMs: number;
  /** Called after each commit of the shared transaction. */
  afterCommit?: () => void;
  close(): void;
}

const SAVEPOINT = 'group_member';
const READ = /^\s*select\b/i;

function isBusy(error: unknown): boolean {
  const code = sqliteResultCode(error);
  return code === SQLITE_BUSY || code === SQLITE_LOCKED;
}

function run<R>(prepared: PreparedStatement, parameters: readonly unknown[]): QueryResult<R> {
  const values = parameters as SQLInputValue[];
  if (prepared.returnsRows) return { rows: prepared.statement.all(...values) as R[] };
  const { changes, lastInsertRowid } = prepared.statement.run(...values);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * The diagnostics channel told once per statement that finds the database locked by another
 * process and starts waiting (a message `{ timeoutMs }`): what a test awaits to know a write is
 * waiting, instead of sleeping. Without a subscriber it costs nothing.
 */
export const SQLITE_BUSY_CHANNEL = 'invoicing.sqlite.busy';
const busyChannel = channel(SQLITE_BUSY_CHANNEL);

/** Runs `attempt`, retrying on timers while the database is busy, until `timeoutMs` has passed. */
async function retryWhileBusy<T>(timeoutMs: number, attempt: () => T): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let wait = 2;
  for (let first = true; ; first = false) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    if (first && busyChannel.hasSubscribers) busyChannel.publish({ timeoutMs });
    await delay(Math.min(wait, Math.max(1, deadline - Date.now())));
    wait = Math.min(wait * 2, 50);
  }
}

/** One use of the database, from acquire to release. It takes the writer only when it needs it. */
class Lease implements DatabaseConnection {
  inTransaction = false;
  holdsWriter = false;

  constructor(private readonly driver: GroupCommitSqliteDriver) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute<R>(this, compiledQuery.sql, compiledQuery.parameters);
  }

  // eslint-disable-next-line require-yield -- streaming is not used by this application
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on SQLite here');
  }
}

export class GroupCommitSqliteDriver implements Driver {
  private readonly lock = new FifoLock();
  private batch: Batch | null = null;

  constructor(private readonly connections: SqliteConnections) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this);
  }

  async execute<R>(lease: Lease, sql: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
    const { prepareWriter, prepareReader, busyTimeoutMs } = this.connections;
    if (lease.inTransaction) return run<R>(prepareWriter(sql), parameters);
    if (READ.test(sql) && prepareReader)
      return retryWhileBusy(busyTimeoutMs, () => run<R>(prepareReader(sql), parameters));

    await this.takeWriter(lease);
    let batch: Batch | null = null;
    let result: QueryResult<R>;
    try {
      if (READ.test(sql)) return run<R>(prepareWriter(sql), parameters);
      batch = await this.openBatch();
      result = run<R>(prepareWriter(sql), parameters);
    } finally {
      this.giveBackWriter(lease);
    }
    // A write outside a transaction is acknowledged once the shared transaction commits.
    await batch.done;
    return result;
  }

  private async takeWriter(lease: Lease): Promise<void> {
    await this.lock.acquire();
    lease.holdsWriter = true;
  }

  private giveBackWriter(lease: Lease): void {
    if (!lease.holdsWriter) return;
    lease.holdsWriter = false;
    this.lock.release();
  }

  /**
   * The open shared transaction, begun now if there is none (the caller holds the writer); its
   * COMMIT is scheduled for later in this turn. IMMEDIATE takes the write lock at once: a batch
   * only ever opens to write, and a deferred transaction could not upgrade after another
   * process's commit (SQLITE_BUSY_SNAPSHOT).
   */
  private async openBatch(): Promise<Batch> {
    if (this.batch) return this.batch;
    const { prepareWriter, busyTimeoutMs } = this.connections;
    await retryWhileBusy(busyTimeoutMs, () => prepareWriter('begin immediate').statement.run());
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Nobody may be left with an unhandled rejection when a COMMIT fails and a member already gave up.
    done.catch(() => {});
    const batch: Batch = { done, resolve, reject };
    this.batch = batch;
    setImmediate(() => void this.flush(batch));
    return batch;
  }

  private async flush(batch: Batch): Promise<void> {
    // Wait for whoever holds the writer (a transaction between two of its statements).
    await this.lock.acquire();
    try {
      this.batch = null;
      this.connections.prepareWriter('commit').statement.run();
      batch.resolve();
      this.connections.afterCommit?.();
    } catch (error) {
      if (this.connections.writer.isTransaction) this.connections.writer.exec('rollback');
      batch.reject(error);
    } finally {
      this.lock.release();
    }
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    await this.takeWriter(lease);
    try {
      await this.openBatch();
    } catch (error) {
      this.giveBackWriter(lease);
      throw error;
    }
    // One transaction holds the writer at a time, so one savepoint name serves them all.
    this.connections.prepareWriter(`savepoint ${SAVEPOINT}`).statement.run();
    lease.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    const batch = this.batch;
    this.connections.prepareWriter(`release ${SAVEPOINT}`).statement.run();
    lease.inTransaction = false;
    this.giveBackWriter(lease);
    if (batch) await batch.done;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.inTransaction && this.connections.writer.isTransaction) {
      this.connections.prepareWriter(`rollback to ${SAVEPOINT}`).statement.run();
      this.connections.prepareWriter(`release ${SAVEPOINT}`).statement.run();
    }
    lease.inTransaction = false;
    this.giveBackWriter(lease);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.giveBackWriter(connection as Lease);
  }

  async destroy(): Promise<void> {
    if (this.batch) await this.batch.done.catch(() => {});
    this.connections.close();
  }
}

/** Kysely's SQLite dialect with the group-commit driver. */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(private readonly connections: SqliteConnections) {}

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new GroupCommitSqliteDriver(this.connections);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
