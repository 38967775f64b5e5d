import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { DocumentView } from '../model.js';
import { renderPdfDocument, type PdfOptions } from './render.js';

// A PDF render worker of the pool (pool.ts): renders one document at a time and answers with
// its bytes, which are transferred, not copied.

export interface RenderMessage {
  id: number;
  view: DocumentView;
  options: PdfOptions;
}

export type RenderAnswer = { id: number; ok: true; pdf: Uint8Array } | { id: number; ok: false; message: string };

/**
 * Rendering is background work next to the event loop, which answers every other request: on
 * Linux this thread lowers its own scheduling priority (nice 10), so that when the cores are
 * busy the kernel runs the event loop first. A thread is a task of its own there, named by
 * /proc/thread-self; elsewhere the thread keeps its priority.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

lowerPriority();
const port = parentPort;
if (!port) throw new Error('render-worker.js runs as a worker thread of the PDF pool');
port.on('message', (message: RenderMessage) => {
  renderPdfDocument(message.view, message.options).then(
    (pdf) => {
      const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      const answer: RenderAnswer = { id: message.id, ok: true, pdf: bytes };
      // A Buffer from Buffer.concat owns its memory unless it is small (pooled): transfer only then.
      port.postMessage(answer, pdf.byteOffset === 0 && pdf.byteLength === pdf.buffer.byteLength ? [bytes.buffer as ArrayBuffer] : []);
    },
    (error: unknown) => port.postMessage({ id: message.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies RenderAnswer),
  );
});
