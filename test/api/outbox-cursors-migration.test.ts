import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Storage } from '../../src/db/database.js';
import { Outbox } from '../../src/webhooks/outbox-repository.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { migrateTo } from '../helpers/migrate.js';

// Migration 0012 on a database whose outbox holds rows not yet dispatched: they keep their order,
// existing endpoints start before all of them, and the first dispatch after it gives them out.

const EVENTS = [
  'evt_01a20000-0000-7000-8000-000000000001',
  'evt_01a20000-0000-7000-8000-000000000002',
  'evt_01a20000-0000-7000-8000-000000000003',
];

for (const dialect of DIALECTS) {
  describe(`migration 0012 (outbox cursors) on ${dialect}`, () => {
    let database: TestDatabase;
    let storage: Storage;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      storage = database.open();
      await migrateTo(storage.db, '0011-webhook-outbox');
      const db = storage.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await db
        .insertInto('companies')
        .values({
          id: 'cmp_1',
          name: 'Old Co',
          currency: 'EUR',
          vat_id: null,
          country_code: null,
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      await db
        .insertInto('webhook_endpoints')
        .values({
          id: 'we_1',
          company_id: 'cmp_1',
          livemode: 1,
          url: 'https://hooks.example.com/in',
          events: '["*"]',
          description: null,
          enabled: 1,
          disabled_reason: null,
          secret_sealed: 'sealed',
          previous_secret_sealed: null,
          previous_secret_expires_at: null,
          failing_since: null,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();
      for (const id of EVENTS) {
        await db
          .insertInto('events')
          .values({
            id,
            company_id: 'cmp_1',
            livemode: 1,
            type: 'organization.created',
            request_id: null,
            object: '{}',
            created_at: '2026-02-01T00:00:00.000Z',
          })
          .execute();
      }
      // Written out of order: the migration keeps the order the outbox was read in (by event id).
      for (const id of [...EVENTS].reverse()) {
        await db
          .insertInto('webhook_outbox')
          .values({
            event_id: id,
            company_id: 'cmp_1',
            livemode: 1,
            type: 'organization.created',
            created_at: '2026-02-01T00:00:00.000Z',
          })
          .execute();
      }
      expect(await migrateToLatest(storage.db)).toContain('0012-outbox-cursors');
    });
    afterAll(async () => {
      await storage.close();
      await database.drop();
    });

    it('keeps every outbox row, and puts the existing endpoint before all of them', async () => {
      const rows = await storage.db.selectFrom('webhook_outbox').select(['event_id', 'seq']).orderBy('seq').execute();
      expect(rows.map((row) => row.event_id).sort()).toEqual(EVENTS);
      if (dialect === 'sqlite') expect(rows.map((row) => row.event_id)).toEqual(EVENTS);
      const cursors = await storage.db
        .selectFrom('webhook_outbox_cursors')
        .select(['endpoint_id', sql<string>`cast(seq as text)`.as('seq')])
        .execute();
      expect(cursors).toEqual([{ endpoint_id: 'we_1', seq: '0' }]);
    });

    it('gives the rows waiting in the outbox to the endpoint at the first dispatch, then deletes them', async () => {
      const outbox = new Outbox(storage.db, storage.dialect);
      expect(await outbox.dispatch()).toMatchObject({ made: 3, moved: 1 });
      await outbox.cleanUp();
      const deliveries = await storage.db
        .selectFrom('webhook_deliveries')
        .select(['endpoint_id', 'event_id'])
        .orderBy('event_id')
        .execute();
      expect(deliveries).toEqual(EVENTS.map((event_id) => ({ endpoint_id: 'we_1', event_id })));
      expect(await storage.db.selectFrom('webhook_outbox').select('event_id').execute()).toEqual([]);
    });
  });
}
