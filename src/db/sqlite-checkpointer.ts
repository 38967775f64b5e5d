import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

// SQLite in WAL mode copies the log back into the database file (a checkpoint) from whichever
// connection commits past the threshold — with a synchronous driver that is the event loop, which then
// stalls for the copy and its fsync, and every request in flight waits. Instead, a worker thread
// with its own connection checkpoints in PASSIVE mode (never blocking writers) a few times a
// second, and the main connection's automatic threshold is raised to a safety net only. The
// server's thread starts when the log first reaches 4 MB, not at start-up: until then there is
// little to copy, and the safety net (40 MB) is far off.

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

export interface CheckpointerOptions {
  /** How often the thread checkpoints. */
  intervalMs?: number;
  /**
   * The thread starts once the write-ahead log has grown to this many bytes, as seen by
   * `noteCommit`; 0 starts it at once. A server that has only started (its migrations and
   * setup token write a few pages) carries no thread and no second isolate for it.
   */
  startAtLogBytes?: number;
}

export class SqliteCheckpointer {
  private worker: Worker | null = null;
  private readonly logPath: string;
  private readonly startAtLogBytes: number;
  private readonly intervalMs: number;
  readonly stats: CheckpointStats = { checkpoints: 0, frames: 0, lastError: null };

  constructor(
    private readonly path: string,
    options: CheckpointerOptions = {},
  ) {
    this.logPath = `${path}-wal`;
    this.intervalMs = options.intervalMs ?? 250;
    this.startAtLogBytes = options.startAtLogBytes ?? 0;
    if (this.startAtLogBytes === 0) this.start();
  }

  /** Whether the thread runs. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** After a commit: starts the thread once the log has grown to its threshold. */
  noteCommit(): void {
    if (this.worker) return;
    let size = 0;
    try {
      size = statSync(this.logPath).size;
    } catch {
      return;
    }
    if (size < this.startAtLogBytes) return;
    // Called after a commit: a thread that cannot start must not fail the commit's caller; the
    // main connection's automatic checkpoint still bounds the log.
    try {
      this.start();
    } catch (error) {
      this.stats.lastError = error instanceof Error ? error.message : String(error);
    }
  }

  private start(): void {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { path: this.path, intervalMs: this.intervalMs },
    });
    worker.on('message', (message: { checkpoints?: number; frames?: number; error?: string }) => {
      if (message.error) this.stats.lastError = message.error;
      else Object.assign(this.stats, { checkpoints: message.checkpoints, frames: message.frames });
    });
    // A failing checkpointer must never take the service down: the main connection's automatic
    // checkpoint still bounds the log.
    worker.on('error', (error) => {
      this.stats.lastError = error.message;
    });
    worker.unref();
    this.worker = worker;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((done) => worker.once('exit', done));
    worker.postMessage('stop');
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await exited;
    clearTimeout(timer);
  }
}
