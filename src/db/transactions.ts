import { sql, type Kysely } from 'kysely';
import { isUniqueViolation } from './dialect.js';
import type { Database } from './schema.js';

/**
 * Runs `work` in the caller's transaction when there is one (an idempotent request's), else in a
 * transaction of its own: either way, all of it commits or none of it does.
 */
export function inTransaction<T>(
  db: Kysely<Database>,
  trx: Kysely<Database> | undefined,
  work: (t: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (trx?.isTransaction) return work(trx);
  return (trx ?? db).transaction().execute(work);
}

// One transaction runs its statements one after another, so one savepoint name serves every use.
const SAVEPOINT = sql.id('unless_taken');

/**
 * Runs one write inside a savepoint and reports a unique violation instead of throwing it. On
 * PostgreSQL a failed statement aborts the whole transaction; rolling back to the savepoint
 * keeps it usable, so the caller can try another number.
 */
export async function writeUnlessTaken(trx: Kysely<Database>, work: () => Promise<void>): Promise<boolean> {
  const written = await lastWriteUnlessTaken(trx, async () => {
    await work();
    return true;
  });
  if (written) await sql`release savepoint ${SAVEPOINT}`.execute(trx);
  return written ?? false;
}

/**
 * Like writeUnlessTaken, for a transaction's last statement: answers what `work` answered, or null
 * when it broke a unique index. On success the savepoint is left for the COMMIT to end, so nothing
 * is sent between `work` and the COMMIT. Outside a transaction `work` is one statement, which is
 * a transaction of its own: a broken index rolls all of it back, and no savepoint is needed.
 */
export async function lastWriteUnlessTaken<T>(trx: Kysely<Database>, work: () => Promise<T>): Promise<T | null> {
  if (!trx.isTransaction) {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }
  await sql`savepoint ${SAVEPOINT}`.execute(trx);
  try {
    return await work();
  } catch (error) {
    await sql`rollback to savepoint ${SAVEPOINT}`.execute(trx);
    await sql`release savepoint ${SAVEPOINT}`.execute(trx);
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}
