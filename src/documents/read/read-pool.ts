import type { HeapInfo } from 'node:v8';
import { WorkerJobError, WorkerPool, workerEntry, type WorkerPoolSettings } from '../../lib/worker-pool.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './read-limits.js';
import type { ReadJob } from './read-worker.js';
import type { ReceivedResult } from './received.js';

// Received documents are read off the event loop: parsing a 20 MiB XML or inflating a PDF's
// streams is CPU work the size of the upload, so it runs in the worker pool (lib/worker-pool.ts)
// with a bounded queue (full: 'busy', the API answers 503 with Retry-After), a deadline and a heap
// limit per document. A document that passes them (an XML or PDF built to take forever or to
// fill memory) fails with 'timeout' or 'memory', which the API answers 422; the worker is ended
// and the next document gets a fresh one, so it never stalls another tenant's.

/** Reads and judges a received document. */
export interface DocumentReader {
  read(bytes: Uint8Array, contentType: string | null): Promise<ReceivedResult>;
}

export { WorkerJobError as ReadError };

export class DocumentReadPool implements DocumentReader {
  private readonly pool: WorkerPool<ReadJob, ReceivedResult>;

  constructor(
    settings: WorkerPoolSettings,
    private readonly limits: ReadLimits = DEFAULT_READ_LIMITS,
  ) {
    this.pool = new WorkerPool(settings, workerEntry('read-worker', import.meta.url), {
      subject: 'The document',
      action: 'to read',
      service: 'The e-invoice reader',
      queueFull: 'Too many documents are waiting to be read',
    });
  }

  /** Documents reading and waiting now. */
  get load(): { reading: number; waiting: number } {
    const { running, waiting } = this.pool.load;
    return { reading: running, waiting };
  }

  /** Each reading thread's V8 heap (/metrics). */
  heaps(): Promise<HeapInfo[]> {
    return this.pool.heaps();
  }

  read(bytes: Uint8Array, contentType: string | null): Promise<ReceivedResult> {
    return this.pool.run({ bytes, contentType, limits: this.limits });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/**
 * Reads on the calling thread: for the CLI and scripts, where nothing else waits for the event
 * loop. The readers (saxes, pdf-lib) load on the first document, not with the process.
 */
export function inThreadReader(limits: ReadLimits = DEFAULT_READ_LIMITS): DocumentReader {
  return {
    read: async (bytes, contentType) => (await import('./received.js')).readAndJudge(bytes, contentType, limits),
  };
}
