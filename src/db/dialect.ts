import {
  PostgresAdapter,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from './schema.js';

// Every place where SQLite and PostgreSQL behave differently is named here, and only here: the
// driver errors below, and the Dialect, one object chosen when the storage opens
// (Storage.dialect), with an implementation of each operation in dialects/sqlite.ts and
// dialects/postgres.ts. Code outside src/db asks the dialect to do a thing; it never asks which
// database it is on (a lint rule refuses a comparison with 'sqlite' or 'postgres' there).

export type DialectName = 'sqlite' | 'postgres';

/** The dialect a Kysely instance speaks, for a migration (which gets a bare Kysely, no storage). */
export function dialectOf(db: Kysely<unknown>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/**
 * The columns of a partial index that holds the rows with one value of `fixed` (its WHERE), for a
 * query that names that value as a literal and walks `walked` in order. PostgreSQL leaves what the
 * index's WHERE implies out of the scan's conditions, so a leading `fixed` column would give the
 * walk no place to seek to: it would read the index from its first entry. SQLite, which plans
 * without statistics, takes another index with an equality on `fixed` instead unless this one
 * has the column too, first (and covers the query only then).
 */
export function partialIndexColumns(dialect: DialectName, fixed: string, walked: string[]): string[] {
  return dialect === 'postgres' ? walked : [fixed, ...walked];
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

type Table = keyof Database & string;

/** A change that is one INSERT of one row, written with its event (EventRecorder.recordWithInsert). */
export interface InsertChange {
  table: Table;
  row: object;
  /** Rows of another table that go in with it (a draft's lines), inserted after it. */
  belonging?: BelongingRows;
}

/** Rows of one table that belong to a row inserted with them (its lines). */
export interface BelongingRows {
  table: Table;
  rows: readonly object[];
}

/**
 * A compare-and-set UPDATE of one row, written with its events (EventRecorder.recordWithGuardedChange):
 * `set` is written where every column of `where` still has its value. The scope (company, mode)
 * is in `where`, put there by the repository that makes the guard.
 */
export interface GuardedUpdate {
  table: Table;
  set: object;
  where: Record<string, unknown>;
}

/** An event as stored (table `events`). */
export interface EventRow {
  id: string;
  company_id: string;
  livemode: number;
  type: string;
  request_id: string | null;
  object: string;
  created_at: string;
}

/** What an event writer needs to know of webhooks: which endpoints take a type, and whom to nudge. */
export interface EventWriterHooks {
  /** Whether an endpoint's selectors (its `events`) take events of `type`. */
  takes(selectors: readonly string[], type: string): boolean;
  /** Called when an outbox row was written (not yet committed). */
  onOutbox(): void;
}

/**
 * An invoice to be numbered with the next value of its sequence as its events are written
 * (EventWriter.writeNumbered).
 */
export interface NumberedChange {
  invoiceId: string;
  companyId: string;
  livemode: number;
  sequence: string;
  year: number;
  /** The number is the prefix and the counter's value, zero-padded to `width` digits (and wider past them). */
  prefix: string;
  width: number;
  /** Stands for the number in the events' objects until the number is known; random, so nothing else matches it. */
  placeholder: string;
}

/**
 * A draft issued with the next number of its sequence: the claim (a compare-and-set UPDATE of the
 * invoice's row: `set` where the row is as `where` says) and the row alongside it (its hosted
 * link), written with the number and the events (EventWriter.writeNumbered).
 */
export interface NumberedClaim extends NumberedChange {
  claim: GuardedUpdate;
  alongside?: InsertChange | null;
}

/**
 * A row to be inserted with the next number of its sequence, and the rows that belong to it (a
 * credit note and its lines), as its events are written (EventWriter.writeNumberedInsert).
 */
export interface NumberedInsert extends Omit<NumberedChange, 'invoiceId'> {
  /** The row; its `numberColumn` is written with the number (whatever the row holds there). */
  insert: InsertChange;
  numberColumn: string;
  /** Rows of another table that go with it (its lines), none of which holds the number. */
  belonging: BelongingRows;
  /**
   * Clients may give numbers of the same series (an invoice's): the row goes in only when no row
   * of its company and mode holds the number; otherwise the counter keeps its step and the next
   * number is tried, as a finalize does.
   */
  unlessTaken?: boolean;
  /** One row of another table written with it, and only with it (its hosted link); none is null. */
  alongside?: InsertChange | null;
  /**
   * A compare-and-set written first (a credit note's change of its invoice): when it matches no
   * row, nothing is written, no number is taken, and the writer answers null. Not with `unlessTaken`.
   */
  guard?: GuardedUpdate | null;
}

/** The two ways of numbering an invoice (or a row of a numbered insert): the dialect uses one of them. */
export interface NumberingWays<N extends string | null = string> {
  /**
   * Numbers the invoice in steps (making it first, for a create; claiming the draft, for a
   * finalize) in the transaction `t`, answering the number (null: the draft was not claimed, or
   * a credit note's guard matched no row).
   */
  inSteps: (t: Kysely<Database>) => Promise<N>;
}

export interface EventWriter {
  /**
   * Writes the event, the change's INSERT (and the rows that belong to it) when there is one, and,
   * when an enabled endpoint of the event's company and mode takes its type, one outbox row: in
   * the caller's transaction when `executor` is one, all or nothing. A constraint an INSERT breaks
   * throws, as the INSERT alone would. On PostgreSQL all of it is one statement (the belonging rows
   * one JSON parameter); on SQLite steps in one transaction.
   */
  write(executor: Kysely<Database>, event: EventRow, change: InsertChange | null): Promise<void>;
  /**
   * The guard's UPDATE and, only when it changed a row, the INSERT, the events (in this order)
   * and their outbox rows: all or nothing, in the caller's transaction when `executor` is one.
   * False, with nothing written, when the row was no longer as `where` says (on PostgreSQL a racing
   * writer's row lock is waited for, then the row it left is compared).
   */
  writeGuarded(
    executor: Kysely<Database>,
    guard: GuardedUpdate,
    insert: InsertChange,
    events: readonly EventRow[],
  ): Promise<boolean>;
  /**
   * Claims the draft (`change.claim`, a compare-and-set UPDATE) and numbers it with the next
   * number of its sequence that no invoice of the company and mode has, writes the row alongside
   * it, then the events (of one company, mode, request and time), their objects' `placeholder`
   * replaced by the number, and their outbox rows: all or nothing, in the caller's transaction
   * when `executor` is one; answers the number, or null, with nothing written, when the draft was
   * no longer as the claim says (on PostgreSQL a racing writer's row lock is waited for, then the
   * row it left is compared). On PostgreSQL all of it is one statement, so the counter row's lock
   * is held for it (and the caller's COMMIT, if any) only, and without a caller's transaction no
   * BEGIN or COMMIT is sent; elsewhere the draft is claimed and numbered `inSteps`, then the rest
   * is written, in one transaction.
   */
  writeNumbered(
    executor: Kysely<Database>,
    events: EventRow[],
    change: NumberedClaim,
    ways: NumberingWays<string | null>,
  ): Promise<string | null>;
  /**
   * Takes the next number of the change's sequence, inserts the row with it, the rows that belong
   * to it and the row alongside it, then writes the events (of one company, mode, request and
   * time), their objects' `placeholder` replaced by the number, and their outbox rows: all or
   * nothing, in the caller's transaction when `executor` is one; answers the number. On
   * PostgreSQL all of it is one statement, so the counter row's lock is held for it (and the
   * caller's COMMIT, if any) only, and without a caller's transaction no BEGIN or COMMIT is sent;
   * elsewhere the row is numbered and inserted `inSteps`, then the rest is written, in one
   * transaction. Unless the change says `unlessTaken`, nothing else may hold the number: a unique
   * index it breaks throws. With a `guard`, its UPDATE comes first: null (nothing written) when
   * it matched no row, so `ways.inSteps` must answer null then too.
   */
  writeNumberedInsert<N extends string | null>(
    executor: Kysely<Database>,
    events: EventRow[],
    change: NumberedInsert,
    ways: NumberingWays<N>,
  ): Promise<N>;
}

/** The tables whose rows workers lease (id, lease_owner, lease_expires_at): webhook and email deliveries. */
export type LeasedTable = 'webhook_deliveries' | 'email_deliveries';

/** The lease a worker puts on a delivery row. */
export interface DeliveryLease {
  lease_owner: string;
  lease_expires_at: string;
}

/**
 * The outbox's place order, (xact, seq). On PostgreSQL `xact` is the writing transaction's id
 * (xid8), so a reader never passes a row whose transaction commits later (migration 0012); on
 * SQLite, whose one writer commits in order, `xact` is always 0 and `seq` alone orders the rows.
 * Outbox rows are `o` in the SQL these fragments go into.
 */
export interface OutboxDialect {
  /** A transaction id as a parameter, as the driver gave it. */
  xact(value: string | number): RawBuilder<unknown>;
  /** A sequence number as a parameter, as the driver gave it. */
  seq(value: string | number): RawBuilder<unknown>;
  /** A column of transaction ids, read so that it can be passed back (xid8 as text on PostgreSQL). */
  xactOf(column: string): RawBuilder<string | number>;
  /** Outbox row `o` compared with a position, in the shape its index range takes. */
  compare(op: '>' | '<=', xact: RawBuilder<unknown>, seq: RawBuilder<unknown>): RawBuilder<unknown>;
  /** Outbox rows `o` in place order. */
  readonly order: RawBuilder<unknown>;
  /** The newest row of a query over webhook_outbox first. */
  newestFirst<O>(
    query: SelectQueryBuilder<Database, 'webhook_outbox', O>,
  ): SelectQueryBuilder<Database, 'webhook_outbox', O>;
  /** The horizon now, as text: older than every transaction still running (null on SQLite, where every committed row is past it). */
  readonly horizonNow: RawBuilder<string | null>;
  /** `and` rows of `o` older than every transaction still running, or nothing. */
  readonly belowHorizonNow: RawBuilder<unknown>;
  /** `and` rows of `o` older than a horizon read before (`horizonNow`), or nothing. */
  belowHorizon(horizon: string | null): RawBuilder<unknown>;
  /**
   * The id of a new delivery of event `ev` to an endpoint (the event's UUIDv7 time and prefix,
   * then 48 bits), and what ends its INSERT: on PostgreSQL a digest of endpoint and event, so a
   * second dispatch of the pair (another instance's) changes nothing; on SQLite, whose one process
   * dispatches once, random bits.
   */
  deliveryId(endpointId: string): RawBuilder<unknown>;
  readonly onDuplicateDelivery: RawBuilder<unknown>;
  /** Deletes the rows every enabled endpoint of their company and mode has passed; returns how many. */
  deletePassed(db: Kysely<Database>): Promise<number>;
}

/**
 * Rows as one JSON value, so that a read brings a row with its children in one statement. Every
 * column such a read takes is text or a 32-bit integer (amounts and times are text), so a string
 * stays the same string and an integer the same number: nothing passes through a float.
 */
export interface JsonDialect {
  /**
   * The rows of `alias` in a FROM list, each an object of `columns`, as a JSON array in `orderBy`
   * order (an aggregate's own ORDER BY, which both databases honour); `[]` when there are none.
   */
  rows(alias: string, columns: readonly string[], orderBy: RawBuilder<unknown>): RawBuilder<unknown>;
  /** The row of `alias` as an object of `columns` (for a scalar subquery: null when it finds none). */
  row(alias: string, columns: readonly string[]): RawBuilder<unknown>;
  /** A column made by `rows` or `row` as read: PostgreSQL's driver parsed its json already, SQLite's is text. */
  parse<T>(value: unknown): T;
}

export interface Dialect {
  readonly name: DialectName;
  readonly json: JsonDialect;
  /**
   * Locks what a select in a transaction reads against other instances, skipping rows another
   * holds (PostgreSQL: FOR UPDATE SKIP LOCKED); SQLite's one writer needs no lock.
   */
  lockSkippingLocked<TB extends keyof Database, O>(
    query: SelectQueryBuilder<Database, TB, O>,
  ): SelectQueryBuilder<Database, TB, O>;
  /**
   * Holds `key` until transaction `t` ends, so that transactions taking the same key run their
   * reads and writes after it one at a time, each seeing what the one before committed
   * (PostgreSQL: a transaction-level advisory lock on the key's 64-bit hash; SQLite: nothing, its
   * one writer already runs transactions one after another).
   */
  serializeOn(t: Kysely<Database>, key: string): Promise<void>;
  /**
   * Leases the deliveries of `ids` that `free` still allows, so that of workers leasing at once,
   * here or in another instance, each row goes to one. Returns the ids to read back by lease
   * owner: on PostgreSQL those it locked (FOR UPDATE SKIP LOCKED) and leased in one transaction;
   * on SQLite all of `ids`, since one conditional UPDATE leased those still free.
   */
  leaseDeliveries<T extends LeasedTable>(
    db: Kysely<Database>,
    table: T,
    ids: readonly string[],
    free: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>,
    lease: DeliveryLease,
  ): Promise<string[]>;
  /**
   * How events are written. On PostgreSQL every statement is a round trip, so the event, its
   * outbox row and a change that is one INSERT are one statement (data-modifying CTEs), as are a
   * compare-and-set UPDATE, the INSERT that goes with it and their events; SQLite has no such
   * CTEs, and there they are steps in one transaction.
   */
  eventWriter(db: Kysely<Database>, hooks: EventWriterHooks): EventWriter;
  readonly outbox: OutboxDialect;
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
  // A statement that gave up (statement_timeout, a lock waited on too long) or was cancelled by an
  // operator wrote nothing that stays: asked again later, it may well succeed.
  '57014', // query_canceled
  '55P03', // lock_not_available (lock_timeout)
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
    // node-postgres reports pool and connection failures as plain Errors without a code ("timeout
    // expired": a client's own connect timeout). node:sqlite says "database is not open" on a closed handle.
    return /Connection terminated|timeout exceeded when trying to connect|^timeout expired$|Client has encountered a connection error|The database connection is not open|database is not open|driver has already been destroyed/i.test(
      error.message,
    );
  }
  return false;
}
