import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { releaseMemory } from './release-memory.js';
import type { JobAnswer, JobMessage } from './worker-pool.js';

// The worker side of a WorkerPool: one job at a time, each answered with its value (transferring
// the buffers the handler names instead of copying them) or with the message of its failure. A
// worker that has had no job for IDLE_RELEASE_MS gives back what its jobs grew (release-memory.ts):
// a PDF or a received document grows a worker's heap by tens of MB, which V8 would otherwise keep
// for as long as the thread lives, and on Node 24 even after it ends.

/** How long a worker waits for its next job before it gives back its memory. */
const IDLE_RELEASE_MS = 1000;

/**
 * Pool work is background work next to the event loop, which answers every other request: on
 * Linux this thread lowers its own scheduling priority (nice 10), so that when the cores are
 * busy the kernel runs the event loop first. A thread is a task of its own there, named by
 * /proc/thread-self; elsewhere the thread keeps its priority.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

export interface Handled<V> {
  value: V;
  /** Buffers of `value` to move to the pool's thread rather than copy (they are unusable here after). */
  transfer?: ArrayBuffer[];
}

/** Serves the pool's jobs with `handle`, at a lower priority. Call once, from the worker's entry module. */
export function serveJobs<J, V>(what: string, handle: (job: J) => Promise<Handled<V>>): void {
  lowerPriority();
  const port = parentPort;
  if (!port) throw new Error(`${what} runs as a worker thread of its pool`);
  let idle: NodeJS.Timeout | undefined;
  const answered = () => {
    // Under steady load the next job comes first and the timer is cleared: no collection then.
    idle = setTimeout(releaseMemory, IDLE_RELEASE_MS);
  };
  port.on('message', (message: JobMessage<J>) => {
    clearTimeout(idle);
    handle(message.job)
      .then(
        ({ value, transfer }) =>
          port.postMessage({ id: message.id, ok: true, value } satisfies JobAnswer<V>, transfer ?? []),
        (error: unknown) =>
          port.postMessage({
            id: message.id,
            ok: false,
            message: error instanceof Error ? error.message : String(error),
          } satisfies JobAnswer<V>),
      )
      .finally(answered);
  });
}
