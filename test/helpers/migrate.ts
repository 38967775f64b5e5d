import { Migrator, PostgresAdapter, sql, type Kysely } from 'kysely';
import { MIGRATIONS } from '../../src/db/migrations/index.js';
import type { Database } from '../../src/db/schema.js';

/** Migrates up to (and including) the named migration: a database as an older release left it. */
export async function migrateTo(db: Kysely<Database>, name: string): Promise<void> {
  const schema =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]!.s
      : undefined;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
