import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeDocument, readDocument } from '../../../src/documents/read/index.js';
import { corpus, INVALID, REFUSED, stated } from '../../helpers/einvoice-corpus.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';

// Every document of ../shared/einvoice/examples is either read with exactly the totals its XML
// states (BT-106 to BT-115, as written) and its lines, or refused with a clear reason. The XML's
// own figures come from the tests' own leaf extraction (xmlbuilder2), not from our reader.

describe('the shared e-invoice corpus', () => {
  it('has the documents this test expects', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(110);
    for (const name of [...Object.keys(REFUSED), ...Object.keys(INVALID)]) expect(corpus).toContain(name);
  });

  it.each(corpus)('%s is read with the totals and lines its XML states, or refused with a reason', async (name) => {
    const read = await readDocument(readFileSync(join(EINVOICE_DIR, 'examples', name)));
    const refusal = REFUSED[name];
    if (refusal) {
      expect(read).toMatchObject({ ok: false, code: refusal.code, message: expect.stringMatching(refusal.message) });
      return;
    }
    if (!read.ok) throw new Error(`${name} refused: ${read.code} ${read.message}`);
    const xml = Buffer.from(read.xml).toString('utf8');
    const expected = stated(xml, read.syntax);
    const t = read.model.totals;
    expect({
      lineNet: t.lineNetTotal,
      allowances: t.allowanceTotal,
      charges: t.chargeTotal,
      taxExclusive: t.taxExclusive,
      taxInclusive: t.taxInclusive,
      prepaid: t.prepaid ?? null,
      rounding: t.roundingAmount,
      payable: t.payable,
    }).toEqual(expected.totals);
    if (t.taxTotal === null) expect(expected.taxTotals).toEqual([]);
    else expect(expected.taxTotals).toContain(t.taxTotal);
    expect(read.model.lines.map((l) => l.quantity)).toEqual(expected.quantities);
    expect(read.model.lines.map((l) => l.netAmount)).toEqual(expected.lineNets);
    const judged = judgeDocument(read);
    const fatal = [
      ...new Set(
        [...judged.structure.findings, ...judged.findings].filter((f) => f.severity === 'fatal').map((f) => f.rule),
      ),
    ].sort();
    if (INVALID[name]) {
      expect(judged.verdict).toBe('invalid');
      expect(fatal).toEqual(expect.arrayContaining(INVALID[name]));
    } else {
      expect(fatal).toEqual([]);
    }
  });
});
