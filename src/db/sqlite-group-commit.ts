import type SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

// Group commit for SQLite. Every COMMIT writes each page the transaction touched to the WAL;
// for a create that is the table and each of its indexes, and that write, not the insert
// itself, is most of what a create costs. Here the transactions (and single writes) that reach
// the database together share one real transaction: each runs inside a SAVEPOINT of its own, so
// a failure rolls back only its own work, and one COMMIT at the end of the event-loop turn makes
// them all durable, writing the shared pages once.
//
// Nothing is acknowledged early: a transaction's commit (or a single write) resolves only after
// the shared COMMIT has succeeded; if it fails, every member fails. The one difference a caller
// can see: a read may see another request's write before that request has been answered, as a
// read on one connection sees its own transaction's writes. The connection is still one, behind
// a first-come-first-served lock, as in Kysely's own SQLite driver. The write lock is held from
// the first write of a turn to its COMMIT, so another connection in the same thread could only
// wait for it synchronously: one connection per process writes (the CLI is its own process).

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

type Prepare = (sql: string) => SQLite.Statement;

const SAVEPOINT = 'group_member';

/** One use of the connection, from acquire to release. */
class Lease implements DatabaseConnection {
  savepoint: string | null = null;
  private released = false;

  constructor(
    private readonly driver: GroupCommitSqliteDriver,
    private readonly prepare: Prepare,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    this.driver.unlock();
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const statement = this.prepare(compiledQuery.sql);
    const parameters = compiledQuery.parameters as unknown[];
    const writes = !statement.readonly;
    const batch = writes && this.savepoint === null ? this.driver.joinBatch() : null;
    const result = run<R>(statement, parameters);
    if (batch) {
      // A write outside a transaction is acknowledged once the shared transaction commits.
      this.release();
      await batch.done;
    }
    return result;
  }

  // eslint-disable-next-line require-yield -- streaming is not used by this application
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on SQLite here');
  }
}

function run<R>(statement: SQLite.Statement, parameters: unknown[]): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

export class GroupCommitSqliteDriver implements Driver {
  private readonly lock = new FifoLock();
  private batch: Batch | null = null;

  constructor(
    private readonly database: SQLite.Database,
    private readonly prepare: Prepare,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire();
    return new Lease(this, this.prepare);
  }

  unlock(): void {
    this.lock.release();
  }

  /** The open shared transaction, begun now if there is none; its COMMIT is scheduled for later in this turn. */
  joinBatch(): Batch {
    if (this.batch) return this.batch;
    // IMMEDIATE takes the write lock at once: a batch only ever opens to write, and a deferred
    // transaction could not upgrade after another process's commit (SQLITE_BUSY_SNAPSHOT).
    this.prepare('begin immediate').run();
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
    // Wait for whoever holds the connection (a transaction between two of its statements).
    await this.lock.acquire();
    try {
      this.batch = null;
      this.prepare('commit').run();
      batch.resolve();
    } catch (error) {
      if (this.database.inTransaction) this.database.exec('rollback');
      batch.reject(error);
    } finally {
      this.lock.release();
    }
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    this.joinBatch();
    // One transaction holds the connection at a time, so one savepoint name serves them all.
    lease.savepoint = SAVEPOINT;
    this.prepare(`savepoint ${SAVEPOINT}`).run();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    const batch = this.batch ?? this.joinBatch();
    this.prepare(`release ${SAVEPOINT}`).run();
    lease.savepoint = null;
    lease.release();
    await batch.done;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.savepoint !== null && this.database.inTransaction) {
      this.prepare(`rollback to ${SAVEPOINT}`).run();
      this.prepare(`release ${SAVEPOINT}`).run();
    }
    lease.savepoint = null;
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as Lease).release();
  }

  async destroy(): Promise<void> {
    if (this.batch) await this.batch.done.catch(() => {});
    this.database.close();
  }
}

/** Kysely's SQLite dialect with the group-commit driver. */
export class GroupCommitSqliteDialect implements Dialect {
  constructor(
    private readonly database: SQLite.Database,
    private readonly prepare: Prepare,
  ) {}

  createAdapter(): DialectAdapter {
    return new SqliteAdapter();
  }

  createDriver(): Driver {
    return new GroupCommitSqliteDriver(this.database, this.prepare);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
