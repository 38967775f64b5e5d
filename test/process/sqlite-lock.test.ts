import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { spawn, type ChildProcess } from 'node:child_process';
import { setImmediate } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlitePathOf } from '../../src/db/database.js';
import { SQLITE_BUSY_CHANNEL } from '../../src/db/sqlite-group-commit.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

// SQLite never blocks the event loop on a lock. While another process holds the write lock
// (BEGIN EXCLUSIVE), reads and health answer as usual; writes wait for it on timers and answer
// 503 with Retry-After once DATABASE_BUSY_TIMEOUT_MS has passed, and succeed once it is free.

const BUSY_TIMEOUT_MS = 1500;

/** A second process that takes the database's write lock, says so, and holds it until told to let go. */
function holdWriteLock(path: string): Promise<{ child: ChildProcess; release: () => Promise<void> }> {
  const source = `
    const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('begin exclusive');
    db.exec("insert into companies (id, name, currency, created_at) values ('cmp_lock_holder', 'Lock Holder', 'EUR', '2026-01-01T00:00:00.000Z')");
    process.stdout.write('locked\\n');
    process.stdin.once('data', () => { db.exec('rollback'); db.close(); process.stdout.write('released\\n'); process.exit(0); });
  `;
  const child = spawn(process.execPath, ['--no-warnings', '-e', source, path], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => reject(new Error(`lock holder ended early: ${signal ?? code}`)));
    child.stdout!.once('data', (chunk: Buffer) => {
      if (!chunk.toString().startsWith('locked')) return reject(new Error(`lock holder said ${chunk.toString()}`));
      resolve({
        child,
        release: () =>
          new Promise((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.stdin!.write('go\n');
          }),
      });
    });
  });
}

/** Resolves when the driver next says, on its diagnostics channel, that a statement waits for another process's lock. */
function busySignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const onBusy = () => {
      unsubscribe(SQLITE_BUSY_CHANNEL, onBusy);
      resolve();
    };
    subscribe(SQLITE_BUSY_CHANNEL, onBusy);
  });
}

describe('sqlite under another process write lock', () => {
  let t: TestApp;
  let key: string;

  beforeAll(async () => {
    // Reads go back to back while a write waits: no rate limit in the way.
    t = await buildTestApp('sqlite', { databaseBusyTimeoutMs: BUSY_TIMEOUT_MS, rateLimitMax: 1_000_000 });
    ({ key } = await t.tenant());
    expect((await t.post('/organization', { name: 'Before The Lock', isCustomer: true }, key)).statusCode).toBe(201);
  });
  afterAll(async () => t.close());

  it('keeps answering reads and health while a write waits for the lock, answers that write 503 with Retry-After after the busy timeout, and writes again once the lock is gone', async () => {
    const lock = await holdWriteLock(sqlitePathOf(t.database.url));
    try {
      const waiting = busySignal();
      let settled = false;
      const write = (async () => {
        const started = Date.now();
        const res = await t.post('/organization', { name: 'During The Lock', isCustomer: true }, key);
        settled = true;
        return { res, ms: Date.now() - started };
      })();
      // From the moment the driver says the write waits until the write is answered, reads and
      // health keep being answered: the wait is on timers, not a blocked event loop (a busy handler
      // inside SQLite would hold the loop, and no round would finish before the write's answer).
      // How fast they answer meanwhile is a figure for a benchmark, not a test's to assert.
      await waiting;
      let roundsWhileWaiting = 0;
      while (!settled) {
        const [health, list] = await Promise.all([t.get('', key), t.get('/organization', key)]);
        expect(health.statusCode).toBe(200);
        expect(list.statusCode).toBe(200);
        expect(list.json().data.items.map((o: { name: string }) => o.name)).toEqual(['Before The Lock']);
        if (!settled) roundsWhileWaiting++;
        // inject answers within microtasks: let the timers run (the write's retries among them).
        await setImmediate();
      }
      expect(roundsWhileWaiting).toBeGreaterThanOrEqual(5);

      const { res, ms } = await write;
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_UNAVAILABLE');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // It gave up only once the configured busy timeout had passed (a lower bound, which load
      // cannot break: a slow machine only waits longer).
      expect(ms).toBeGreaterThanOrEqual(BUSY_TIMEOUT_MS);
      expect(lock.child.exitCode).toBeNull();
    } finally {
      await lock.release();
    }
    const after = await t.post('/organization', { name: 'After The Lock', isCustomer: true }, key);
    expect(after.statusCode).toBe(201);
    // The refused write left nothing behind.
    const names = (await t.get('/organization', key)).json().data.items.map((o: { name: string }) => o.name);
    expect(names).toEqual(['After The Lock', 'Before The Lock']);
  });

  it('lets a write that waited for a short lock succeed without a 503', async () => {
    const lock = await holdWriteLock(sqlitePathOf(t.database.url));
    // Released once the write has met the lock and waits, as the driver says on its channel.
    const waiting = busySignal();
    const write = t.post('/organization', { name: 'Waited Briefly', isCustomer: true }, key);
    await waiting;
    await lock.release();
    expect((await write).statusCode).toBe(201);
  });
});
