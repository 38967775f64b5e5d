import { serveJobs } from '../../lib/worker-thread.js';
import type { DocumentView } from '../model.js';
import { renderPdfDocument, type PdfOptions } from './render.js';

// A PDF render worker of the pool (pool.ts): renders one document at a time and answers with
// its bytes, which are transferred, not copied.

export interface RenderJob {
  view: DocumentView;
  options: PdfOptions;
}

serveJobs<RenderJob, Uint8Array>('render-worker.js', async ({ view, options }) => {
  const pdf = await renderPdfDocument(view, options);
  const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  // A Buffer from Buffer.concat owns its memory unless it is small (pooled): transfer only then.
  return {
    value: bytes,
    transfer: pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : [],
  };
});
