import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS } from '../helpers/dialects.js';

// Answered means durable: a write acknowledged to a client survives a power cut. On SQLite the
// log is synced at every commit (synchronous = FULL in WAL; group commit makes that one fsync per
// group); on PostgreSQL the commit waits for its WAL flush (synchronous_commit on).

describe('durability of acknowledged writes', () => {
  it.runIf(DIALECTS.includes('sqlite'))('syncs the SQLite write-ahead log at every commit', async () => {
    const database = await createTestDatabase('sqlite');
    const storage = database.open();
    try {
      const { rows: journal } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(storage.db);
      const { rows: synchronous } = await sql<{ synchronous: number }>`pragma synchronous`.execute(storage.db);
      expect(journal[0]?.journal_mode).toBe('wal');
      // 2 is FULL; NORMAL (1) may lose the last commits on a power cut in WAL mode.
      expect(synchronous[0]?.synchronous).toBe(2);
    } finally {
      await storage.close();
      await database.drop();
    }
  });

  it.runIf(DIALECTS.includes('postgres'))('keeps PostgreSQL commits waiting for their WAL flush', async () => {
    const database = await createTestDatabase('postgres');
    const storage = database.open();
    try {
      const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(storage.db);
      expect(rows[0]?.synchronous_commit).toBe('on');
    } finally {
      await storage.close();
      await database.drop();
    }
  });
});
