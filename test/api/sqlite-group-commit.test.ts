import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from '../../src/db/database.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';

// Group commit runs each transaction inside a SAVEPOINT of one shared transaction. The pages a
// savepoint changes are copied to SQLite's statement journal, which the writer keeps in memory
// (temp_store = MEMORY): a rollback to the savepoint must still restore them exactly, however
// many pages the failing transaction touched, while the others in the same COMMIT keep theirs.

describe.runIf(DIALECTS.includes('sqlite'))('SQLite group commit', () => {
  let database: TestDatabase;
  let storage: Storage;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    storage = database.open();
    await sql`create table scratch (id integer primary key, owner text not null, body text not null)`.execute(
      storage.db,
    );
    await sql`create index scratch_owner on scratch (owner, id)`.execute(storage.db);
  });

  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  it('keeps the writer’s statement journal in memory', async () => {
    const { rows } = await sql<{ temp_store: number }>`pragma temp_store`.execute(storage.db);
    // 2 is MEMORY; 0 (the default) writes the journal of every savepoint to a temporary file.
    expect(rows[0]?.temp_store).toBe(2);
  });

  it('rolls back only the failing transaction of a shared commit, across the many pages it changed', async () => {
    // Rows the failing transaction rewrites: committed before, so the rollback has pages to restore.
    const body = 'x'.repeat(2_000);
    await storage.db.transaction().execute(async (t) => {
      for (let i = 0; i < 200; i++)
        await sql`insert into scratch (owner, body) values ('kept', ${`${body}${i}`})`.execute(t);
    });
    const before = await sql<{ id: number; body: string }>`select id, body from scratch order by id`.execute(
      storage.db,
    );

    const writer = (owner: string, fail: boolean) =>
      storage.db.transaction().execute(async (t) => {
        for (let i = 0; i < 50; i++)
          await sql`insert into scratch (owner, body) values (${owner}, ${`${body}${owner}${i}`})`.execute(t);
        if (fail) {
          await sql`update scratch set body = 'overwritten' where owner = 'kept'`.execute(t);
          await sql`delete from scratch where owner = 'kept' and id % 2 = 0`.execute(t);
          throw new Error(`${owner} gives up`);
        }
      });
    const outcomes = await Promise.allSettled([writer('first', false), writer('failing', true), writer('last', false)]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const counts = await sql<{ owner: string; n: number }>`
      select owner, count(*) as n from scratch group by owner order by owner`.execute(storage.db);
    expect(counts.rows).toEqual([
      { owner: 'first', n: 50 },
      { owner: 'kept', n: 200 },
      { owner: 'last', n: 50 },
    ]);
    const after = await sql<{ id: number; body: string }>`
      select id, body from scratch where owner = 'kept' order by id`.execute(storage.db);
    expect(after.rows).toEqual(before.rows);
  });
});
