import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocument } from '../../../src/documents/read/index.js';
import { buildTestApp, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import { corpus, INVALID, REFUSED, stated } from '../../helpers/einvoice-corpus.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';
import { receive } from '../../helpers/purchase-documents.js';

// "Done when": every document of ../shared/einvoice/examples, POSTed to /purchase-invoice, is
// either received with exactly the totals its XML states (BT-106 to BT-115, as written) and its
// lines, or refused with a clear reason. The XML's figures come from the tests' own leaf
// extraction (xmlbuilder2); the API's from its answer. The whole corpus on SQLite; on PostgreSQL
// every fourth document and every refusal (the storage is the same code; this keeps the suite
// fast), each in a company of its own (the corpus holds some business cases twice: as UBL and
// as CII, which one company would rightly refuse as duplicates).

const onPostgres = (name: string, index: number) => index % 4 === 0 || name in REFUSED || name in INVALID;

for (const dialect of DIALECTS) {
  const documents = dialect === 'sqlite' ? corpus : corpus.filter(onPostgres);
  describe(`the shared e-invoice corpus through the API on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    it.each(documents)(
      '%s is received with the totals and lines its XML states, or refused with a reason',
      async (name) => {
        const bytes = readFileSync(join(EINVOICE_DIR, 'examples', name));
        const { key } = await t.tenant(['purchase-invoice.create', 'purchase-invoice.read']);
        const res = await receive(t, key, bytes, {
          contentType: name.endsWith('.pdf') ? 'application/pdf' : 'application/xml',
        });
        const refusal = REFUSED[name];
        if (refusal) {
          expect(res.statusCode, res.body).toBe(422);
          expect(res.json().error).toMatchObject({
            code: 'EINVOICE_REFUSED',
            message: expect.stringMatching(refusal.message),
            details: [{ field: 'body', code: refusal.code.toLowerCase() }],
          });
          return;
        }
        expect(res.statusCode, res.body).toBe(201);
        const data = res.json().data;
        // The XML the API read: the document itself, or the one embedded in the PDF.
        const read = await readDocument(bytes);
        if (!read.ok) throw new Error(`${name}: ${read.message}`);
        const expected = stated(Buffer.from(read.xml).toString('utf8'), data.syntax);
        const t_ = data.totals;
        expect({
          lineNet: t_.lineNetTotal,
          allowances: t_.allowanceTotal,
          charges: t_.chargeTotal,
          taxExclusive: t_.taxExclusive,
          taxInclusive: t_.taxInclusive,
          prepaid: t_.prepaid ?? null,
          rounding: t_.roundingAmount,
          payable: t_.payable,
        }).toEqual(expected.totals);
        if (t_.taxTotal === null) expect(expected.taxTotals).toEqual([]);
        else expect(expected.taxTotals).toContain(t_.taxTotal);
        expect(data.document.lines.map((l: { quantity: string }) => l.quantity)).toEqual(expected.quantities);
        expect(data.document.lines.map((l: { netAmount: string }) => l.netAmount)).toEqual(expected.lineNets);
        if (INVALID[name]) {
          expect(data.verdict).toBe('invalid');
          const fatal = [...data.judgement.structure.findings, ...data.judgement.findings]
            .filter((f: { severity: string }) => f.severity === 'fatal')
            .map((f: { rule: string }) => f.rule);
          expect(fatal).toEqual(expect.arrayContaining(INVALID[name]));
        } else {
          expect(data.verdict).not.toBe('invalid');
        }
      },
    );
  });
}
