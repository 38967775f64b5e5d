import { afterEach, describe, expect, it } from 'vitest';
import { renderPdf } from '../../../src/documents/index.js';
import { PdfRenderError, PdfRenderPool, type PdfPoolSettings } from '../../../src/documents/pdf/pool.js';
import { eventually } from '../../helpers/eventually.js';
import { germanInput, viewOf } from '../../helpers/sample-document.js';

// The pool renders in worker threads exactly what the renderer renders in the main thread, and
// keeps its limits: a bounded queue, a deadline and a heap limit per document.

const view = viewOf(germanInput());
const NOW = new Date('2026-03-02T10:00:00Z');
const SETTINGS: PdfPoolSettings = { workers: 1, maxQueued: 4, timeoutMs: 60_000, maxMemoryMb: 256 };

let pool: PdfRenderPool | undefined;
afterEach(async () => pool?.close());

describe('the PDF render pool', () => {
  it('renders in a worker the very bytes the renderer makes in the main thread', async () => {
    pool = new PdfRenderPool(SETTINGS);
    const [inWorker, inThread] = await Promise.all([
      pool.render(view, { lang: 'de', now: NOW }),
      renderPdf(view, { lang: 'de', now: NOW }),
    ]);
    expect(inWorker.equals(inThread)).toBe(true);
  });

  it('refuses at once when as many documents wait as the queue holds, and renders those it took', async () => {
    pool = new PdfRenderPool({ ...SETTINGS, maxQueued: 2 });
    const taken = [
      pool.render(view, { lang: 'en' }),
      pool.render(view, { lang: 'en' }),
      pool.render(view, { lang: 'en' }),
    ];
    await expect(pool.render(view, { lang: 'en' })).rejects.toMatchObject({ reason: 'busy' });
    for (const pdf of await Promise.all(taken)) expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('ends a document that passes its deadline, and the next one renders on a fresh worker', async () => {
    pool = new PdfRenderPool({ ...SETTINGS, timeoutMs: 1 });
    await expect(pool.render(view, { lang: 'en' })).rejects.toMatchObject({ reason: 'timeout' });
    await pool.close();
    pool = new PdfRenderPool(SETTINGS);
    expect((await pool.render(view, { lang: 'en' })).length).toBeGreaterThan(1000);
  });

  it('ends a document that needs more memory than a worker may take', async () => {
    pool = new PdfRenderPool({ ...SETTINGS, maxMemoryMb: 4 });
    const failure = await pool.render(view, { lang: 'en' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PdfRenderError);
    expect((failure as PdfRenderError).reason).toBe('memory');
  });

  it('gives back the heap its renders grew once its worker has had no document for a moment', async () => {
    pool = new PdfRenderPool(SETTINGS);
    const committed = async () => (await pool!.heaps()).reduce((sum, heap) => sum + heap.total_physical_size, 0);
    // The largest heap seen between renders: each render grows it again, so one slow turn of this
    // thread (in which the worker could already give memory back) does not hide the growth.
    let grown = 0;
    for (let render = 0; render < 12; render++) {
      await pool.render(view, { lang: render % 2 === 0 ? 'de' : 'en' });
      grown = Math.max(grown, await committed());
    }
    await eventually(async () => expect(await committed()).toBeLessThan(grown * 0.7), {
      what: 'the idle worker to give back its heap',
    });
    expect(await pool.heaps()).toHaveLength(1);
    // Released memory is no lasting change: the worker renders the same document after it.
    expect((await pool.render(view, { lang: 'en' })).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it("answers for its threads' heaps while one is ended past its deadline, leaving that one out", async () => {
    pool = new PdfRenderPool({ ...SETTINGS, timeoutMs: 1 });
    const rendering = pool.render(view, { lang: 'en' }).catch((error: unknown) => error);
    const heaps = await pool.heaps();
    expect(heaps.length).toBeLessThanOrEqual(1);
    expect(await rendering).toMatchObject({ reason: 'timeout' });
    expect(await pool.heaps()).toEqual([]);
  });
});
