import type { HeapInfo } from 'node:v8';
import {
  WorkerJobError,
  WorkerPool,
  workerEntry,
  type WorkerFailure,
  type WorkerPoolSettings,
} from '../../lib/worker-pool.js';
import type { DocumentView } from '../model.js';
import type { PdfOptions } from './render.js';
import type { RenderJob } from './render-worker.js';

// PDFs render off the event loop, in the worker pool (lib/worker-pool.ts): as many threads as the
// machine has cores, a bounded queue in front (a full one refuses at once: 503 with Retry-After),
// and a deadline and heap limit per document.

export type PdfPoolSettings = WorkerPoolSettings;
export type PdfRenderFailure = WorkerFailure;
/** Why a PDF was not rendered: `reason` is busy, timeout, memory, failed or closed. */
export const PdfRenderError = WorkerJobError;
export type PdfRenderError = WorkerJobError;

export class PdfRenderPool {
  private readonly pool: WorkerPool<RenderJob, Uint8Array>;

  constructor(settings: PdfPoolSettings) {
    this.pool = new WorkerPool(settings, workerEntry('render-worker', import.meta.url), {
      subject: 'The PDF',
      action: 'to render',
      service: 'The PDF renderer',
      queueFull: 'Too many documents are waiting to be rendered',
    });
  }

  /** Documents rendering and waiting now. */
  get load(): { rendering: number; waiting: number } {
    const { running, waiting } = this.pool.load;
    return { rendering: running, waiting };
  }

  /** Each rendering thread's V8 heap (/metrics). */
  heaps(): Promise<HeapInfo[]> {
    return this.pool.heaps();
  }

  async render(view: DocumentView, options: PdfOptions): Promise<Buffer> {
    const pdf = await this.pool.run({ view, options });
    return Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  }

  /** Ends every worker; waiting documents fail ('closed'). */
  close(): Promise<void> {
    return this.pool.close();
  }
}
