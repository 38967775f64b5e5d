import type { HeapInfo } from 'node:v8';
import { Worker } from 'node:worker_threads';

// CPU work off the event loop: a pool of worker threads (each at a lower priority than the event
// loop, see worker-thread.ts), a bounded queue in front of them, and limits per job. A job waits
// its turn while the queue has room and is refused at once when it has none (the caller answers
// 503 with Retry-After), so a burst never stalls the service or grows its memory without bound.
// Once a worker has a job it must finish within `timeoutMs` and within its heap limit
// (`maxMemoryMb`); otherwise the worker is ended, the job fails with a reason, and a fresh worker
// takes the next one. What runs in the workers (rendering PDFs, reading received documents) is
// the entry module's business; the pool only moves jobs and answers.

export interface WorkerPoolSettings {
  /** Worker threads. */
  workers: number;
  /** Jobs that may wait for a worker; past it, run() fails at once ('busy'). */
  maxQueued: number;
  /** The longest one job may take once a worker has it. */
  timeoutMs: number;
  /** Each worker's V8 heap limit, which one job may use. */
  maxMemoryMb: number;
}

/** How the pool's refusals and failures are worded for what it does. */
export interface WorkerPoolWords {
  /** "The PDF", "The document": what one job makes or reads. */
  subject: string;
  /** "to render", "to read". */
  action: string;
  /** "The PDF renderer": the pool as a whole. */
  service: string;
  /** "Too many documents are waiting to be rendered". */
  queueFull: string;
}

export type WorkerFailure = 'busy' | 'timeout' | 'memory' | 'failed' | 'closed';

export class WorkerJobError extends Error {
  override name = 'WorkerJobError';
  constructor(
    readonly reason: WorkerFailure,
    message: string,
  ) {
    super(message);
  }
}

/** What the pool posts to a worker, and what the worker answers (see worker-thread.ts). */
export interface JobMessage<J> {
  id: number;
  job: J;
}
export type JobAnswer<V> = { id: number; ok: true; value: V } | { id: number; ok: false; message: string };

interface Queued<J, V> {
  id: number;
  job: J;
  resolve: (value: V) => void;
  reject: (error: Error) => void;
}

interface Slot<J, V> {
  worker: Worker;
  job: Queued<J, V> | null;
  timer: NodeJS.Timeout | null;
  /** Settles when the thread has ended (a question asked of it then may never be answered). */
  exited: Promise<void>;
}

// The built service runs the entry's compiled .js; the tests run the TypeScript sources, whose
// worker needs a loader for .ts files first.
const FROM_SOURCE_ENTRY = new URL('./worker-from-source.mjs', import.meta.url);

/** The module a worker runs: `name`.ts beside `base` when running from the sources, else `name`.js. */
export function workerEntry(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

export class WorkerPool<J, V> {
  private readonly slots = new Set<Slot<J, V>>();
  private readonly idle: Slot<J, V>[] = [];
  private readonly queue: Queued<J, V>[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly settings: WorkerPoolSettings,
    /** The worker's module (workerEntry). */
    private readonly entry: URL,
    private readonly words: WorkerPoolWords,
  ) {}

  /** Jobs running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.slots.size - this.idle.length, waiting: this.queue.length };
  }

  /** Each live worker's V8 heap, as `v8.getHeapStatistics()` reports it in that thread (one ending meanwhile is left out). */
  async heaps(): Promise<HeapInfo[]> {
    const asked = await Promise.allSettled(
      [...this.slots].map((slot) => Promise.race([slot.worker.getHeapStatistics(), slot.exited.then(() => null)])),
    );
    return asked.flatMap((heap) => (heap.status === 'fulfilled' && heap.value ? [heap.value] : []));
  }

  run(job: J): Promise<V> {
    if (this.closed) return Promise.reject(this.shuttingDown());
    const free = this.idle.length > 0 || this.slots.size < this.settings.workers;
    if (!free && this.queue.length >= this.settings.maxQueued) {
      return Promise.reject(new WorkerJobError('busy', `${this.words.queueFull} (${this.settings.maxQueued}).`));
    }
    return new Promise<V>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, job, resolve, reject });
      this.pump();
    });
  }

  /** Ends every worker; waiting jobs fail ('closed'). */
  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.reject(this.shuttingDown());
    await Promise.all([...this.slots].map((slot) => this.retire(slot, this.shuttingDown())));
  }

  private shuttingDown(): WorkerJobError {
    return new WorkerJobError('closed', `${this.words.service} is shutting down.`);
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.idle.pop() ?? (this.slots.size < this.settings.workers ? this.spawn() : undefined);
      if (!slot) return;
      const queued = this.queue.shift()!;
      slot.job = queued;
      slot.timer = setTimeout(() => {
        void this.retire(
          slot,
          new WorkerJobError(
            'timeout',
            `${this.words.subject} took longer than ${this.settings.timeoutMs} ms ${this.words.action}.`,
          ),
        );
      }, this.settings.timeoutMs);
      const message: JobMessage<J> = { id: queued.id, job: queued.job };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot<J, V> {
    const fromSource = this.entry.pathname.endsWith('.ts');
    const worker = new Worker(fromSource ? FROM_SOURCE_ENTRY : this.entry, {
      ...(fromSource ? { workerData: { entry: this.entry.href } } : {}),
      resourceLimits: { maxOldGenerationSizeMb: this.settings.maxMemoryMb },
    });
    worker.unref();
    const slot: Slot<J, V> = {
      worker,
      job: null,
      timer: null,
      exited: new Promise<void>((ended) => worker.once('exit', () => ended())),
    };
    this.slots.add(slot);
    worker.on('message', (answer: JobAnswer<V>) => {
      const queued = slot.job;
      if (!queued || queued.id !== answer.id) return;
      this.release(slot);
      if (answer.ok) queued.resolve(answer.value);
      else queued.reject(new WorkerJobError('failed', answer.message));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const reason = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed';
      const message =
        reason === 'memory'
          ? `${this.words.subject} needed more than ${this.settings.maxMemoryMb} MB ${this.words.action}.`
          : `${this.words.service} failed: ${error.message}`;
      void this.retire(slot, new WorkerJobError(reason, message));
    });
    worker.on('exit', () => void this.retire(slot, new WorkerJobError('failed', `${this.words.service} stopped.`)));
    return slot;
  }

  /** The slot's job is done: the worker takes the next one. */
  private release(slot: Slot<J, V>): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    this.idle.push(slot);
    this.pump();
  }

  /** Ends a worker for good (its job, if any, fails with `error`); the next one is spawned on demand. */
  private async retire(slot: Slot<J, V>, error: WorkerJobError): Promise<void> {
    if (!this.slots.delete(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    const idleAt = this.idle.indexOf(slot);
    if (idleAt >= 0) this.idle.splice(idleAt, 1);
    slot.job?.reject(error);
    slot.job = null;
    await slot.worker.terminate();
    if (!this.closed) this.pump();
  }
}
