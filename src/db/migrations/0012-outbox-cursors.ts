import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Each webhook endpoint reads the outbox at its own pace. Until now a dispatch turned every
// outbox row into a delivery row for every endpoint at once, and deleted it: with an endpoint
// that never answers, a delivery row (three indexes, three foreign keys) per change piled up for
// attempts hours away, and on PostgreSQL POST /invoice ran at about 0.8 of its rate without the
// endpoint. Now an endpoint keeps a cursor over the outbox and is given events only while few of
// its deliveries wait for a first attempt; the rest wait, as outbox rows, in order. An outbox row
// is deleted once every enabled endpoint of its company and mode has passed it.
//
// A cursor must never pass a row that commits later. On SQLite one writer at a time makes commit
// order the AUTOINCREMENT order of `seq` (`xact` is always 0 there). On PostgreSQL a row's position is (xact, seq): the
// transaction id of the change, then a sequence; a dispatch reads only rows whose transaction is
// older than every transaction still running (pg_snapshot_xmin), which can no longer gain rows.
// Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table webhook_outbox add column xact xid8 not null default pg_current_xact_id()`.execute(db);
    await sql`alter table webhook_outbox add column seq bigint generated always as identity`.execute(db);
    await sql`create table webhook_outbox_cursors (
      endpoint_id text primary key references webhook_endpoints (id),
      xact xid8 not null,
      seq bigint not null)`.execute(db);
  } else {
    // SQLite cannot add an AUTOINCREMENT key to a table: the table is made again, rows in order.
    await sql`create table webhook_outbox_next (
      seq integer primary key autoincrement,
      xact integer not null default 0,
      event_id text not null unique,
      company_id text not null,
      livemode integer not null,
      type text not null,
      created_at text not null)`.execute(db);
    await sql`insert into webhook_outbox_next (event_id, company_id, livemode, type, created_at)
              select event_id, company_id, livemode, type, created_at from webhook_outbox order by event_id`.execute(
      db,
    );
    await sql`drop table webhook_outbox`.execute(db);
    await sql`alter table webhook_outbox_next rename to webhook_outbox`.execute(db);
    await sql`create table webhook_outbox_cursors (
      endpoint_id text primary key references webhook_endpoints (id),
      xact integer not null,
      seq integer not null)`.execute(db);
  }
  // Each endpoint reads its company and mode's rows from its cursor on: one index range.
  const position = db.getExecutor().adapter instanceof PostgresAdapter ? sql`xact, seq` : sql`seq`;
  await sql`create index webhook_outbox_position_idx on webhook_outbox (company_id, livemode, ${position})`.execute(db);
  // Existing endpoints start before every row: what the outbox holds now still reaches them.
  await sql`insert into webhook_outbox_cursors (endpoint_id, xact, seq) select id, ${sql.lit('0')}, 0 from webhook_endpoints`.execute(
    db,
  );
  // How many deliveries of an endpoint wait for their first attempt: the dispatch asks each time.
  await sql`create index webhook_deliveries_fresh_idx on webhook_deliveries (endpoint_id) where status = 'pending' and attempts = 0`.execute(
    db,
  );
}
