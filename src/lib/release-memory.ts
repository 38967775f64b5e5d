import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8 keeps the pages a burst of allocations grew committed until a collection that aims to
// reduce memory, which an idle thread never triggers on its own. Start-up is such a burst: loading
// the modules and Fastify compiling every route's validators grow the young generation to its
// maximum (2 × the semi-space of `npm start`) and the old generation to twice what stays live
// (measured: RSS unchanged after a minute of idle). So is a PDF or a received document in a
// worker thread, whose pages (on Node 24) stay resident even after the thread ends. One such
// collection gives them back: the server runs it before it listens, a pool's worker once it has
// been idle a moment (worker-thread.ts).

interface GcOptions {
  type: 'major';
  execution: 'sync';
  /** `last-resort`: the collection V8 runs before giving up on memory, which shrinks the heap. */
  flavor: 'last-resort';
}

/**
 * Runs one memory-reducing full collection on the calling thread. The
 * `gc` function V8 exposes under `--expose-gc` is taken from a throwaway context, and the flag is
 * turned off again at once, so that no later context or worker sees a global `gc` (unless the
 * process was started with it). The flag is the process's: when another thread turns it off in
 * between, the context has no `gc`, and this collection is skipped rather than failing.
 */
export function releaseMemory(): void {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  if (!exposed) setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('typeof gc === "function" ? gc : null') as ((options: GcOptions) => void) | null;
    gc?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    if (!exposed) setFlagsFromString('--no-expose-gc');
  }
}
