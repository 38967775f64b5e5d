import { Worker } from 'node:worker_threads';

// SQLite in WAL mode copies the log back into the database file (a checkpoint) from whichever
// connection commits past the threshold — with a synchronous driver that is the event loop, which then
// stalls for the copy and its fsync, and every request in flight waits. Instead, a worker thread
// with its own connection checkpoints in PASSIVE mode (never blocking writers) a few times a
// second, and the main connection's automatic threshold is raised to a safety net only.

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
// Node 22 warns once that node:sqlite is experimental; this thread's warning is not a fault.
const emitWarning = process.emitWarning;
process.emitWarning = (warning, ...rest) => {
  if (!/SQLite is an experimental feature/.test(String(warning && warning.message || warning))) emitWarning.call(process, warning, ...rest);
};
const { DatabaseSync } = require('node:sqlite');
process.emitWarning = emitWarning;
const db = new DatabaseSync(workerData.path);
// This thread may wait on a lock: it blocks only itself.
db.exec('pragma busy_timeout = 1000');
db.exec('pragma synchronous = FULL');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
let checkpoints = 0;
let frames = 0;
const timer = setInterval(() => {
  try {
    const result = checkpoint.get();
    checkpoints += 1;
    frames += result ? result.checkpointed : 0;
    parentPort.postMessage({ checkpoints, frames });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

export interface CheckpointStats {
  checkpoints: number;
  frames: number;
  lastError: string | null;
}

export class SqliteCheckpointer {
  private readonly worker: Worker;
  readonly stats: CheckpointStats = { checkpoints: 0, frames: 0, lastError: null };

  constructor(path: string, intervalMs = 250) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, intervalMs } });
    this.worker.on('message', (message: { checkpoints?: number; frames?: number; error?: string }) => {
      if (message.error) this.stats.lastError = message.error;
      else Object.assign(this.stats, { checkpoints: message.checkpoints, frames: message.frames });
    });
    // A failing checkpointer must never take the service down: the main connection's automatic
    // checkpoint still bounds the log.
    this.worker.on('error', (error) => {
      this.stats.lastError = error.message;
    });
    this.worker.unref();
  }

  async stop(): Promise<void> {
    const exited = new Promise((done) => this.worker.once('exit', done));
    this.worker.postMessage('stop');
    const timer = setTimeout(() => void this.worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
