import { serveJobs } from '../../lib/worker-thread.js';
import type { ReadLimits } from './read-limits.js';
import { readAndJudge, type ReceivedResult } from './received.js';

// A reading worker of the pool (read-pool.ts): reads and judges one received document at a time.
// A refusal is an answer like any other; only a crash of the reader is a failure.

export interface ReadJob {
  bytes: Uint8Array;
  contentType: string | null;
  limits: ReadLimits;
}

serveJobs<ReadJob, ReceivedResult>('read-worker.js', async ({ bytes, contentType, limits }) => ({
  value: await readAndJudge(bytes, contentType, limits),
}));
