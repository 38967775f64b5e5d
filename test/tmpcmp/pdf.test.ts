import { it } from 'vitest';
import { buildDocumentView } from '../../src/documents/index.js';
import { renderPdfDocument } from '../../src/documents/pdf/render.js';
import { sampleInput } from '../helpers/sample-document.js';

it('times pdf', async () => {
  const view = buildDocumentView(sampleInput());
  for (let round = 0; round < 3; round++) {
    const t = performance.now();
    let bytes = 0;
    for (let i = 0; i < 200; i++) bytes += (await renderPdfDocument(view, { lang: 'en' })).length;
    const mu = process.memoryUsage();
    console.log('pdf', ((performance.now() - t) / 200).toFixed(2), 'ms', bytes / 200, 'B', 'rss', (mu.rss / 1e6).toFixed(0), 'heap', (mu.heapUsed / 1e6).toFixed(0), 'ext', (mu.external / 1e6).toFixed(0), 'ab', (mu.arrayBuffers / 1e6).toFixed(0));
  }
}, 120_000);
