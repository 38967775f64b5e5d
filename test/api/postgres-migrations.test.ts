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

  it('migrates its own schema while other sessions keep creating and dropping schemas of their own', async () => {
    // Two sessions create and drop schemas until three fresh schemas are migrated. Kysely's own
    // introspection read every schema and failed on one dropped during its read (six of six
    // migrations failed so); ours reads the connection's schema alone.
    let migrating = true;
    const churn = async (id: number) => {
      const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await client.connect();
      let made = 0;
      try {
        while (migrating) {
          const name = `churn_${process.pid}_${id}_${made++}`;
          await client.query(`create schema "${name}"; create table "${name}".t (a int)`);
          await client.query(`drop schema "${name}" cascade`);
        }
      } finally {
        await client.end();
      }
      return made;
    };
    const churners = [churn(1), churn(2)];
    try {
      for (let i = 0; i < 3; i++) {
        const storage = (await freshDatabase()).open({ poolMax: 2 });
        try {
          expect(await migrateToLatest(storage.db)).toEqual(Object.keys(MIGRATIONS).sort());
        } finally {
          await storage.close();
        }
      }
    } finally {
      migrating = false;
    }
    const made = await Promise.all(churners);
    expect(Math.min(...made)).toBeGreaterThan(3);
  });

  it('reaches the test database at the configured address', async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    await client.end();
  });
});
