import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { it } from 'vitest';
import { problemsFor, renderCii, renderUbl } from '../src/documents/index.js';
import { documentInputArbitrary } from '../test/helpers/document-arbitraries.js';
import { viewOf } from '../test/helpers/sample-document.js';

// Writes random documents for scripts/validate-einvoices.mjs, made by the same generator as the
// property tests: EINVOICE_SAMPLES_DIR/<format>/<n>.xml for each format, EINVOICE_SAMPLES_COUNT
// of each. Documents problemsFor refuses are counted, not written: the service would answer 422.

const FORMATS = [
  { name: 'ubl-peppol', typeCode: '380', render: 'ubl', profile: 'peppol' },
  { name: 'ubl-peppol-creditnote', typeCode: '381', render: 'ubl', profile: 'peppol' },
  { name: 'ubl-xrechnung', typeCode: '380', render: 'ubl', profile: 'xrechnung' },
  { name: 'ubl-xrechnung-creditnote', typeCode: '381', render: 'ubl', profile: 'xrechnung' },
  { name: 'cii-en16931', typeCode: '380', render: 'cii', profile: 'en16931' },
  { name: 'cii-en16931-creditnote', typeCode: '381', render: 'cii', profile: 'en16931' },
  { name: 'cii-xrechnung', typeCode: '380', render: 'cii', profile: 'xrechnung' },
  { name: 'cii-xrechnung-creditnote', typeCode: '381', render: 'cii', profile: 'xrechnung' },
] as const;

it('writes random e-invoices of every format for the official validators', () => {
  const dir = process.env.EINVOICE_SAMPLES_DIR;
  if (!dir) throw new Error('Set EINVOICE_SAMPLES_DIR');
  const count = Number(process.env.EINVOICE_SAMPLES_COUNT ?? 300);
  const seed = Number(process.env.EINVOICE_SAMPLES_SEED ?? 20260301);
  const summary: Record<string, { written: number; refused: Record<string, number> }> = {};
  FORMATS.forEach((format, f) => {
    const out = join(dir, format.name);
    mkdirSync(out, { recursive: true });
    const inputs = fc.sample(documentInputArbitrary({ digits: [0, 2] }), { numRuns: count, seed: seed + f });
    const result = { written: 0, refused: {} as Record<string, number> };
    inputs.forEach((input, n) => {
      const view = viewOf({
        ...input,
        typeCode: format.typeCode,
        precedingInvoice: format.typeCode === '381' ? { number: '2026-00001', issueDate: '2026-01-15' } : null,
      });
      const problems = problemsFor(view, ['en16931', format.profile === 'en16931' ? 'en16931' : format.profile]);
      if (problems.length > 0) {
        for (const p of problems) result.refused[p.code] = (result.refused[p.code] ?? 0) + 1;
        return;
      }
      const xml =
        format.render === 'ubl'
          ? renderUbl(view, { profile: format.profile as 'peppol' | 'xrechnung' })
          : renderCii(view, { profile: format.profile as 'en16931' | 'xrechnung' });
      writeFileSync(join(out, `${String(n).padStart(4, '0')}.xml`), xml);
      result.written++;
    });
    summary[format.name] = result;
  });
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
}, 600_000);
