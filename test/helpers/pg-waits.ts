import pg from 'pg';
import { eventually } from './eventually.js';

// PostgreSQL tests that hold a lock in a client's open transaction and look at the one statement
// that waits on it: which statement a request sends, and whether it began its transaction.

/** A backend's statement waiting on a client's transaction. */
export interface WaitingStatement {
  pid: number;
  /** Its text, as far as pg_stat_activity keeps it (track_activity_query_size, 1 kB by default). */
  query: string;
  /** Whether it is the first statement of its transaction. */
  first: boolean;
}

/** Waits until exactly `count` backends wait on the transaction of the client `clientPid`, and answers their statements. */
export function statementsBlockedBy(
  observer: pg.Client,
  clientPid: number,
  count: number,
  what: string,
): Promise<WaitingStatement[]> {
  return eventually(
    async () => {
      // pg_stat_activity's rows are a snapshot taken as the query starts, pg_blocking_pids is
      // asked later, row by row: a backend that began its statement in between shows its previous
      // one (idle) though it now waits. Only a row that already shows the wait is the statement.
      const { rows } = await observer.query<WaitingStatement>(
        `select pid, query, xact_start = query_start as first
           from pg_stat_activity
          where $1::int = any(pg_blocking_pids(pid)) and state = 'active' and wait_event_type = 'Lock'`,
        [clientPid],
      );
      return rows.length === count ? rows : false;
    },
    { what },
  );
}

/** Waits until exactly one backend waits on the transaction of the client `clientPid`, and answers its statement. */
export async function statementBlockedBy(
  observer: pg.Client,
  clientPid: number,
  what: string,
): Promise<WaitingStatement> {
  return (await statementsBlockedBy(observer, clientPid, 1, what))[0]!;
}

/** Two connections to `url`: a client that holds locks in its transactions, and an observer that watches it. */
export async function lockingClients(url: string): Promise<{ client: pg.Client; observer: pg.Client }> {
  const client = new pg.Client({ connectionString: url });
  const observer = new pg.Client({ connectionString: url });
  await Promise.all([client.connect(), observer.connect()]);
  return { client, observer };
}
