import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Storage } from '../../src/db/database.js';
import { prepareQuery, preparedInsert } from '../../src/db/prepared-query.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';

for (const dialect of DIALECTS) {
  describe(`prepared queries on ${dialect}`, () => {
    let database: TestDatabase;
    let storage: Storage;
    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      storage = database.open();
      await migrateToLatest(storage.db);
    });
    afterAll(async () => {
      await storage.close();
      await database.drop();
    });

    it('compile once and run with new values on every call, in or out of a transaction', async () => {
      const insert = preparedInsert(storage.db, 'companies');
      const byCurrency = prepareQuery<{ currency: string }, { id: string }>(storage.db, (db, param) =>
        db.selectFrom('companies').select('id').where('currency', '=', param('currency')).orderBy('id'),
      );
      const row = (id: string, currency: string) => ({
        id,
        name: id,
        currency,
        vat_id: null,
        country_code: null,
        created_at: '2026-01-01T00:00:00.000Z',
      });
      await insert([row('c1', 'EUR'), row('c2', 'JPY')]);
      await storage.db.transaction().execute(async (trx) => {
        await insert([row('c3', 'EUR')], trx);
        expect((await byCurrency({ currency: 'EUR' }, trx)).rows.map((r) => r.id)).toEqual(['c1', 'c3']);
      });
      expect((await byCurrency({ currency: 'JPY' })).rows.map((r) => r.id)).toEqual(['c2']);
      expect((await byCurrency({ currency: 'CHF' })).rows).toEqual([]);
    });

    // PostgreSQL only: SQLite has no server to send statements to (its driver caches them itself).
    if (dialect === 'postgres')
      it('are sent to PostgreSQL as named statements, parsed once per connection, while other statements stay unnamed', async () => {
        // One connection, so that what the server holds prepared is what this test ran.
        const single = database.open({ poolMax: 1 });
        try {
          const byName = prepareQuery<{ name: string }, { id: string }>(single.db, (db, param) =>
            db.selectFrom('companies').select('id').where('name', '=', param('name')),
          );
          await byName({ name: 'nobody' });
          await byName({ name: 'nobody else' });
          await single.db.selectFrom('companies').select('id').where('currency', '=', 'XXX').execute();
          const { rows } = await sql<{
            name: string;
            statement: string;
          }>`select name, statement from pg_prepared_statements`.execute(single.db);
          expect(rows).toHaveLength(1);
          expect(rows[0]!.name).toMatch(/^hot_\d+$/);
          expect(rows[0]!.statement).toContain('"name" = $1');
        } finally {
          await single.close();
        }
      });

    it('refuses a query with a value that is not a named parameter', () => {
      expect(() =>
        prepareQuery(storage.db, (db) => db.selectFrom('companies').selectAll().where('currency', '=', 'EUR')),
      ).toThrow(/name every value/);
    });
  });
}
