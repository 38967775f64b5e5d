import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Storage } from '../../src/db/database.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { migrateTo } from '../helpers/migrate.js';

// Migration 0009 on a database that already has keys: before it only the panel wrote key events,
// so keys the CLI created or revoked get theirs, and the events table learns roll and rename.

const key = (id: string, prefix: string, extra: Record<string, unknown>) => ({
  id,
  company_id: 'cmp_1',
  name: `Key ${id}`,
  lookup_prefix: prefix,
  key_digest: 'd'.repeat(64),
  permissions: '["invoice.create"]',
  created_at: '2026-01-01T10:00:00.000Z',
  created_by: null,
  expires_at: null,
  revoked_at: null,
  last_used_at: null,
  livemode: 1,
  ...extra,
});

for (const dialect of DIALECTS) {
  describe(`migration 0009 (key activity) on ${dialect}`, () => {
    let database: TestDatabase;
    let storage: Storage;

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      storage = database.open();
      await migrateTo(storage.db, '0008-test-mode');
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
        .insertInto('api_keys')
        .values([
          key('key_cli', 'AAAAAAAA', { created_by: 'cli' }),
          key('key_cli_revoked', 'BBBBBBBB', { created_by: 'cli', revoked_at: '2026-01-02T10:00:00.000Z' }),
          key('key_panel', 'CCCCCCCC', { created_by: 'usr_1', revoked_at: '2026-01-03T10:00:00.000Z' }),
        ])
        .execute();
      const event = (id: string, action: string, at: string) => ({
        id,
        company_id: 'cmp_1',
        api_key_id: 'key_panel',
        key_prefix: 'CCCCCCCC',
        key_name: 'Key key_panel',
        action,
        actor_user_id: null,
        actor_label: 'owner@example.com',
        at,
      });
      await db
        .insertInto('api_key_events')
        .values([
          event('kev_a', 'create', '2026-01-01T10:00:00.000Z'),
          event('kev_b', 'revoke', '2026-01-03T10:00:00.000Z'),
        ])
        .execute();
      expect(await migrateToLatest(storage.db)).toContain('0009-key-activity');
    });
    afterAll(async () => {
      await storage.close();
      await database.drop();
    });

    it('keeps the panel events and adds the ones of keys the CLI created or revoked, with CLI as the actor', async () => {
      const events = await storage.db
        .selectFrom('api_key_events')
        .selectAll()
        .orderBy('at')
        .orderBy('api_key_id')
        .execute();
      expect(events.map((e) => [e.api_key_id, e.action, e.actor_label, e.at])).toEqual([
        ['key_cli', 'create', 'CLI', '2026-01-01T10:00:00.000Z'],
        ['key_cli_revoked', 'create', 'CLI', '2026-01-01T10:00:00.000Z'],
        ['key_panel', 'create', 'owner@example.com', '2026-01-01T10:00:00.000Z'],
        ['key_cli_revoked', 'revoke', 'CLI', '2026-01-02T10:00:00.000Z'],
        ['key_panel', 'revoke', 'owner@example.com', '2026-01-03T10:00:00.000Z'],
      ]);
      expect(events.every((e) => e.detail === null)).toBe(true);
    });

    it('accepts roll and rename events and still refuses unknown actions', async () => {
      const event = {
        company_id: 'cmp_1',
        api_key_id: 'key_cli',
        key_prefix: 'AAAAAAAA',
        key_name: 'x',
        actor_user_id: null,
        actor_label: 'CLI',
        at: '2026-02-01T00:00:00.000Z',
      };
      await storage.db
        .insertInto('api_key_events')
        .values({ ...event, id: 'kev_roll', action: 'roll', detail: '{}' })
        .execute();
      await storage.db
        .insertInto('api_key_events')
        .values({ ...event, id: 'kev_rename', action: 'rename', detail: '{}' })
        .execute();
      const bogus = { ...event, id: 'kev_bogus', action: 'explode' as 'roll', detail: null };
      await expect(storage.db.insertInto('api_key_events').values(bogus).execute()).rejects.toThrow();
    });

    it('gives existing keys no successor', async () => {
      const keys = await storage.db.selectFrom('api_keys').select(['id', 'replaced_by']).execute();
      expect(keys).toHaveLength(3);
      expect(keys.every((k) => k.replaced_by === null)).toBe(true);
    });
  });
}
