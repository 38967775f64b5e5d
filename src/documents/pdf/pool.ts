import { Worker } from 'node:worker_threads';
import type { DocumentView } from '../model.js';
import type { PdfOptions } from './render.js';
import type { RenderAnswer, RenderMessage } from './render-worker.js';

// PDFs render off the event loop: a pool of worker threads (as many as the machine has cores,
// each at a lower priority than the event loop), a bounded queue in front of them, and limits
// per document. A document waits its turn while the queue has room and is refused at once when
// it has none (the caller answers 503 with Retry-After), so a burst of PDFs never stalls the
// service or grows its memory without bound. Once a worker has a document it must finish within
// `timeoutMs` and within its heap limit (`maxMemoryMb`); otherwise the worker is ended, the
// document fails with a reason, and a fresh worker takes the next one.

export interface PdfPoolSettings {
  /** Worker threads. */
  workers: number;
  /** Documents that may wait for a worker; past it, render() fails at once ('busy'). */
  maxQueued: number;
  /** The longest one document may take once a worker has it. */
  timeoutMs: number;
  /** Each worker's V8 heap limit, which one document may use. */
  maxMemoryMb: number;
}

export type PdfRenderFailure = 'busy' | 'timeout' | 'memory' | 'failed' | 'closed';

export class PdfRenderError extends Error {
  override name = 'PdfRenderError';
  constructor(
    readonly reason: PdfRenderFailure,
    message: string,
  ) {
    super(message);
  }
}

interface Job {
  id: number;
  view: DocumentView;
  options: PdfOptions;
  resolve: (pdf: Buffer) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  timer: NodeJS.Timeout | null;
}

// The built service runs render-worker.js; the tests run the TypeScript sources, whose worker
// needs a loader for .ts files first.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_ENTRY = new URL(FROM_SOURCE ? './worker-from-source.mjs' : './render-worker.js', import.meta.url);
const SOURCE_ENTRY = new URL('./render-worker.ts', import.meta.url).href;

export class PdfRenderPool {
  private readonly slots = new Set<Slot>();
  private readonly idle: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly settings: PdfPoolSettings) {}

  /** Documents rendering and waiting now. */
  get load(): { rendering: number; waiting: number } {
    return { rendering: this.slots.size - this.idle.length, waiting: this.queue.length };
  }

  render(view: DocumentView, options: PdfOptions): Promise<Buffer> {
    if (this.closed) return Promise.reject(new PdfRenderError('closed', 'The PDF renderer is shutting down.'));
    const free = this.idle.length > 0 || this.slots.size < this.settings.workers;
    if (!free && this.queue.length >= this.settings.maxQueued) {
      return Promise.reject(new PdfRenderError('busy', `Too many documents are waiting to be rendered (${this.settings.maxQueued}).`));
    }
    return new Promise<Buffer>((resolve, reject) => {
      this.queue.push({ id: this.nextId++, view, options, resolve, reject });
      this.pump();
    });
  }

  /** Ends every worker; waiting documents fail ('closed'). */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new PdfRenderError('closed', 'The PDF renderer is shutting down.'));
    await Promise.all([...this.slots].map((slot) => this.retire(slot, new PdfRenderError('closed', 'The PDF renderer is shutting down.'))));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const slot = this.idle.pop() ?? (this.slots.size < this.settings.workers ? this.spawn() : undefined);
      if (!slot) return;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => {
        void this.retire(slot, new PdfRenderError('timeout', `The PDF took longer than ${this.settings.timeoutMs} ms to render.`));
      }, this.settings.timeoutMs);
      const message: RenderMessage = { id: job.id, view: job.view, options: job.options };
      slot.worker.postMessage(message);
    }
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_ENTRY, {
      ...(FROM_SOURCE ? { workerData: { entry: SOURCE_ENTRY } } : {}),
      resourceLimits: { maxOldGenerationSizeMb: this.settings.maxMemoryMb },
    });
    worker.unref();
    const slot: Slot = { worker, job: null, timer: null };
    this.slots.add(slot);
    worker.on('message', (answer: RenderAnswer) => {
      const job = slot.job;
      if (!job || job.id !== answer.id) return;
      this.release(slot);
      if (answer.ok) job.resolve(Buffer.from(answer.pdf.buffer, answer.pdf.byteOffset, answer.pdf.byteLength));
      else job.reject(new PdfRenderError('failed', answer.message));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const reason = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'failed';
      const message = reason === 'memory' ? `The PDF needed more than ${this.settings.maxMemoryMb} MB to render.` : `The PDF renderer failed: ${error.message}`;
      void this.retire(slot, new PdfRenderError(reason, message));
    });
    worker.on('exit', () => void this.retire(slot, new PdfRenderError('failed', 'The PDF renderer stopped.')));
    return slot;
  }

  /** The slot's document is done: the worker takes the next one. */
  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.job = null;
    this.idle.push(slot);
    this.pump();
  }

  /** Ends a worker for good (its document, if any, fails with `error`); the next one is spawned on demand. */
  private async retire(slot: Slot, error: PdfRenderError): Promise<void> {
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
