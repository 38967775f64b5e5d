import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Start-up allocates far more than it keeps: loading the modules and Fastify compiling every
// route's validators at ready grow V8's young generation to its maximum (2 × the semi-space of
// `npm start`) and its old generation to twice what stays live. V8 keeps those pages committed
// until a collection that aims to reduce memory, which an idle server never triggers on its own
// (measured: RSS unchanged after a minute of idle). One such collection, before the server
// listens, gives them back; under load the young generation grows again as V8 sees fit.

interface GcOptions {
  type: 'major';
  execution: 'sync';
  /** `last-resort`: the collection V8 runs before giving up on memory, which shrinks the heap. */
  flavor: 'last-resort';
}

/**
 * Runs one memory-reducing full collection. The `gc` function V8 exposes under `--expose-gc` is
 * taken from a throwaway context, and the flag is turned off again at once, so that no later
 * context or worker sees a global `gc` (unless the process was started with it).
 */
export function releaseStartupMemory(): void {
  const exposed = typeof (globalThis as { gc?: unknown }).gc === 'function';
  if (!exposed) setFlagsFromString('--expose-gc');
  try {
    const gc = runInNewContext('gc') as (options: GcOptions) => void;
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  } finally {
    if (!exposed) setFlagsFromString('--no-expose-gc');
  }
}
