import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { it } from 'vitest';
import { buildTestApp } from '../test/helpers/build.js';
import {
  apiScenarioArbitrary,
  DOCUMENT_FORMATS,
  getDocument,
  issueScenario,
} from '../test/helpers/einvoice-api-scenarios.js';

// Writes documents made THROUGH THE API for scripts/validate-einvoices.mjs --api: random
// companies, buyers, invoices and credit notes (test/helpers/einvoice-api-scenarios.ts, the
// generator of test/api/einvoice-api-properties.test.ts) created with the app on a temp SQLite
// database, and each document fetched from GET /invoice/{id}/ubl|cii?profile=… and
// /credit-note/{id}/…, until EINVOICE_SAMPLES_COUNT of every format are written to
// EINVOICE_SAMPLES_DIR/<format>/<n>.xml. A 422 answer (EINVOICE_INCOMPLETE) is counted as
// refused, by rule, and not written: the service did not answer a document.

it('writes e-invoices of every format made through the API for the official validators', async () => {
  const dir = process.env.EINVOICE_SAMPLES_DIR;
  if (!dir) throw new Error('Set EINVOICE_SAMPLES_DIR');
  const count = Number(process.env.EINVOICE_SAMPLES_COUNT ?? 300);
  const seed = Number(process.env.EINVOICE_SAMPLES_SEED ?? 20260301);
  const t = await buildTestApp('sqlite');
  const summary: Record<string, { written: number; refusedDocuments: number; refused: Record<string, number> }> = {};
  const names = DOCUMENT_FORMATS.flatMap((f) => [f.name, `${f.name}-creditnote`]);
  for (const name of names) {
    summary[name] = { written: 0, refusedDocuments: 0, refused: {} };
    mkdirSync(join(dir, name), { recursive: true });
  }
  const done = () => names.every((name) => summary[name]!.written >= count);
  let scenarios = 0;
  let creditNotes = 0;
  try {
    for (let chunk = 0; !done(); chunk++) {
      if (chunk >= 40)
        throw new Error(
          `Not ${count} documents of every format after ${scenarios} scenarios: ${JSON.stringify(summary)}`,
        );
      for (const scenario of fc.sample(apiScenarioArbitrary({ digits: [0, 2] }), { numRuns: 50, seed: seed + chunk })) {
        if (done()) break;
        const issued = await issueScenario(t, scenario, ++scenarios);
        creditNotes += issued.creditNotes.length;
        const sources = [
          { kind: 'invoice' as const, id: issued.invoice.id as string },
          ...issued.creditNotes.map((note) => ({ kind: 'credit-note' as const, id: note.id as string })),
        ];
        for (const source of sources) {
          for (const f of DOCUMENT_FORMATS) {
            const name = source.kind === 'invoice' ? f.name : `${f.name}-creditnote`;
            const result = summary[name]!;
            if (result.written >= count) continue;
            const res = await getDocument(t, issued.key, source.kind, source.id, f);
            if (res.status === 422) {
              const error = JSON.parse(res.body).error as { code: string; details: { code: string }[] };
              if (error.code !== 'EINVOICE_INCOMPLETE') throw new Error(`${name}: ${res.body}`);
              result.refusedDocuments++;
              for (const code of new Set(error.details.map((d) => d.code)))
                result.refused[code] = (result.refused[code] ?? 0) + 1;
              continue;
            }
            if (res.status !== 200) throw new Error(`${name}: ${res.status} ${res.body}`);
            writeFileSync(join(dir, name, `${String(result.written).padStart(4, '0')}.xml`), res.body);
            result.written++;
          }
        }
      }
    }
  } finally {
    await t.close();
  }
  writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  process.stdout.write(
    `\n${scenarios} scenarios through the API: ${scenarios} invoices, ${creditNotes} credit notes\n`,
  );
}, 3_600_000);
