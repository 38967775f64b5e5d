import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../src/db/database.js';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import { createTestDatabase, DIALECTS, TEST_POSTGRES_URL, type TestDatabase } from '../helpers/dialects.js';

// Several instances starting together must migrate one fresh schema exactly once, and a schema's
// migrations must not be confused by another schema's bookkeeping in the same database.

describe.skipIf(!DIALECTS.includes('postgres'))('migrations on postgres', () => {
  const databases: TestDatabase[] = [];
  afterEach(async () => {
    await Promise.all(databases.splice(0).map((d) => d.drop()));
  });

  async function freshDatabase(): Promise<TestDatabase> {
    const database = await createTestDatabase('postgres');
    databases.push(database);
    return database;
  }

  it('migrates a fresh schema exactly once when four instances migrate it at the same time', async () => {
    const database = await freshDatabase();
    const storages = Array.from({ length: 4 }, () => database.open({ poolMax: 3 }));
    try {
      const applied = await Promise.all(storages.map((s) => migrateToLatest(s.db)));
      const all = applied.flat();
      expect(all.sort()).toEqual(Object.keys(MIGRATIONS).sort());
      const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        storages[0]!.db,
      );
      expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(MIGRATIONS).sort());
      // Every instance can use the schema afterwards.
      await Promise.all(storages.map((s) => s.db.selectFrom('organizations').select('id').execute()));
    } finally {
      await Promise.all(storages.map((s) => s.close()));
    }
  });

  it('migrates its own schema even when another schema of the database already holds migration tables', async () => {
    const other = await freshDatabase();
    const otherStorage = other.open();
    await migrateToLatest(otherStorage.db);
    await otherStorage.close();

    const database = await freshDatabase();
    const storage = database.open();
    try {
      expect(await migrateToLatest(storage.db)).toEqual(Object.keys(MIGRATIONS).sort());
      await storage.db.selectFrom('organizations').select('id').execute();
    } finally {
      await storage.close();
    }
  });

  it('reaches the test database at the configured address', async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.end();
  });
});
