import { describe, expect, it } from 'vitest';
import { LeasingWorker, type LeasingOptions } from '../../src/lib/leasing.js';

// The leasing worker with its storage replaced by arrays in memory: what it leases, starts, gives
// back and waits for. Attempts end when the test says so (a promise it resolves), never by time.

interface Job {
  id: string;
  key: string;
}

function harness(jobs: Job[], options: Partial<LeasingOptions<Job>> & { abortAtStop?: boolean } = {}) {
  const due = [...jobs];
  const released: string[] = [];
  const started: string[] = [];
  const ended: string[] = [];
  const aborted: string[] = [];
  const finish = new Map<string, () => void>();
  const worker = new LeasingWorker<Job>({
    intervalMs: 60_000,
    nudgeDelayMs: 0,
    maxConcurrent: 3,
    lease: async (limit) => due.splice(0, limit),
    release: async (ids) => {
      released.push(...ids);
      due.unshift(...jobs.filter((job) => ids.includes(job.id)));
    },
    idOf: (job) => job.id,
    attempt: (job, signal) =>
      new Promise<void>((resolve) => {
        started.push(job.id);
        finish.set(job.id, () => {
          ended.push(job.id);
          resolve();
        });
        signal.addEventListener('abort', () => {
          aborted.push(job.id);
          resolve();
        });
      }),
    abortAtStop: options.abortAtStop ?? false,
    onError: (error) => {
      throw error;
    },
    lookWhat: 'leasing',
    jobWhat: (job) => job.id,
    ...options,
  });
  return { worker, due, released, started, ended, aborted, finish };
}

const jobs = (n: number, key = 'k'): Job[] => Array.from({ length: n }, (_, i) => ({ id: `j${i + 1}`, key }));

/** Resolves once `check` holds, asking after each turn of the event loop (no timers). */
async function turnsUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(check()).toBe(true);
}

describe('the leasing worker', () => {
  it('leases no more than its free slots and takes the next job when an attempt ends', async () => {
    const h = harness(jobs(5));
    h.worker.start();
    await turnsUntil(() => h.started.length === 3);
    expect(h.worker.activeCount).toBe(3);
    expect(h.due.map((job) => job.id)).toEqual(['j4', 'j5']);
    h.finish.get('j1')!();
    await turnsUntil(() => h.started.length === 4);
    expect(h.started).toEqual(['j1', 'j2', 'j3', 'j4']);
    for (const id of ['j2', 'j3', 'j4']) h.finish.get(id)!();
    await turnsUntil(() => h.started.length === 5);
    h.finish.get('j5')!();
    await h.worker.stop();
    expect(h.ended).toEqual(['j1', 'j2', 'j3', 'j4', 'j5']);
  });

  it('gives back a leased job it may not start, and starts it once its key has room', async () => {
    const inFlight = new Map<string, number>();
    const h = harness(jobs(3, 'slow'), {
      // As the webhook lease does, a key at its limit is not leased; one batch may still overfill it.
      lease: async (limit) => {
        const free = h.due.filter((job) => (inFlight.get(job.key) ?? 0) < 1).slice(0, limit);
        for (const job of free) h.due.splice(h.due.indexOf(job), 1);
        return free;
      },
      admit: (job) => (inFlight.get(job.key) ?? 0) < 1,
      onStart: (job) => inFlight.set(job.key, (inFlight.get(job.key) ?? 0) + 1),
      onEnd: (job) => inFlight.set(job.key, inFlight.get(job.key)! - 1),
    });
    h.worker.start();
    await turnsUntil(() => h.started.length === 1 && h.released.length === 2);
    expect(h.released).toEqual(['j2', 'j3']);
    h.finish.get('j1')!();
    await turnsUntil(() => h.started.length === 2);
    expect(h.started).toEqual(['j1', 'j2']);
    expect(h.released).toEqual(['j2', 'j3', 'j3']);
    h.finish.get('j2')!();
    await turnsUntil(() => h.started.length === 3);
    h.finish.get('j3')!();
    await h.worker.stop();
  });

  it('lets attempts end at stop, or aborts them and gives their leases back', async () => {
    const patient = harness(jobs(2));
    patient.worker.start();
    await turnsUntil(() => patient.started.length === 2);
    const stopped = patient.worker.stop();
    patient.finish.get('j1')!();
    patient.finish.get('j2')!();
    await stopped;
    expect(patient.aborted).toEqual([]);
    expect(patient.released).toEqual([]);

    const hasty = harness(jobs(2), { abortAtStop: true });
    hasty.worker.start();
    await turnsUntil(() => hasty.started.length === 2);
    await hasty.worker.stop();
    expect(hasty.aborted).toEqual(['j1', 'j2']);
    expect(hasty.released).toEqual(['j1', 'j2']);
    expect(hasty.worker.activeCount).toBe(0);
  });

  it('drains until every job due now has ended, running the look before each pass', async () => {
    let passes = 0;
    const h = harness(jobs(4), {
      attempt: async (job) => {
        h.started.push(job.id);
        await new Promise((resolve) => setImmediate(resolve));
        h.ended.push(job.id);
      },
    });
    h.worker.start();
    await h.worker.drain(() => {
      passes += 1;
    });
    expect(h.ended.sort()).toEqual(['j1', 'j2', 'j3', 'j4']);
    expect(h.worker.activeCount).toBe(0);
    expect(passes).toBeGreaterThan(0);
    await h.worker.stop();
    await h.worker.drain();
  });
});
