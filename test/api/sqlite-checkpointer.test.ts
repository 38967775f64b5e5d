import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStorage } from '../../src/db/database.js';
import { SqliteCheckpointer } from '../../src/db/sqlite-checkpointer.js';
import { openSqliteDatabase } from '../../src/db/sqlite-driver.js';
import { eventually } from '../helpers/eventually.js';

describe('the SQLite checkpointer', () => {
  it('copies the write-ahead log into the database from its own thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-ckpt-'));
    const path = join(dir, 'db.sqlite');
    const db = openSqliteDatabase(path);
    db.exec('pragma wal_autocheckpoint = 0');
    db.exec('create table t (id integer primary key, v text)');
    const checkpointer = new SqliteCheckpointer(path, { intervalMs: 50 });
    try {
      const insert = db.prepare('insert into t (v) values (?)');
      for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200));
      await eventually(() => checkpointer.stats.frames > 0, { timeoutMs: 5000, what: 'a checkpoint' }).catch(() => {});
      expect(checkpointer.stats.lastError).toBeNull();
      expect(checkpointer.stats.frames).toBeGreaterThan(0);
      // The rows are in the main database file, not only in the log.
      expect(statSync(path).size).toBeGreaterThan(2000 * 200);
    } finally {
      await checkpointer.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('starts its thread only once the write-ahead log has grown to its threshold', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-ckpt-'));
    const path = join(dir, 'db.sqlite');
    const db = openSqliteDatabase(path);
    db.exec('pragma wal_autocheckpoint = 0');
    db.exec('create table t (id integer primary key, v text)');
    const checkpointer = new SqliteCheckpointer(path, { intervalMs: 50, startAtLogBytes: 1024 * 1024 });
    try {
      const insert = db.prepare('insert into t (v) values (?)');
      insert.run('small');
      checkpointer.noteCommit();
      expect(checkpointer.running).toBe(false);
      for (let i = 0; i < 2000; i++) insert.run('x'.repeat(200));
      expect(statSync(`${path}-wal`).size).toBeGreaterThanOrEqual(1024 * 1024);
      checkpointer.noteCommit();
      expect(checkpointer.running).toBe(true);
      await eventually(() => checkpointer.stats.frames > 0, { timeoutMs: 5000, what: 'a checkpoint' });
      expect(checkpointer.stats.lastError).toBeNull();
    } finally {
      await checkpointer.stop();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the database file current for the storage the server opens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-ckpt-'));
    const path = join(dir, 'db.sqlite');
    const storage = openStorage(`sqlite:${path}`, { backgroundCheckpoints: true });
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(storage.db);
      expect(rows[0]?.wal_autocheckpoint).toBe(10_000);
      await sql`create table t (id integer primary key, v text)`.execute(storage.db);
      for (let i = 0; i < 2000; i++) await sql`insert into t (v) values (${'x'.repeat(200)})`.execute(storage.db);
      // The main connection's own checkpoints are only a safety net now; the worker keeps the file current.
      await eventually(() => statSync(path).size >= 2000 * 200, {
        timeoutMs: 5000,
        what: 'the database file to grow',
      }).catch(() => {});
      expect(statSync(path).size).toBeGreaterThan(2000 * 200);
    } finally {
      await storage.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
