import { Decimal } from '../../../src/money/decimal.js';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../../../src/documents/index.js';
import { canInspectPdf, pdfPageTexts } from '../../helpers/pdf-tools.js';
import { germanInput, viewOf } from '../../helpers/sample-document.js';

// The totals never stand alone on a page: whatever the number of lines, the page that holds
// them holds the last line above them, and the whole of the totals. Swept over every line count
// from 1 to 80 (so the last line falls on every position of a page), with net and with gross
// prices (which add a note under the table), and with allowance and charge labels long enough
// to wrap (which make the totals taller than one row each).

const base = germanInput();
const LONG = 'Rabatt für langjährige Zusammenarbeit im Rahmen des Rahmenvertrags Nr. 2019-44 über Wartung und Betrieb';

interface Variant {
  name: string;
  gross: boolean;
  long: boolean;
}

const VARIANTS: Variant[] = [
  { name: 'net prices', gross: false, long: false },
  { name: 'gross prices and wrapped allowance labels', gross: true, long: true },
];

function documentWith(lines: number, variant: Variant) {
  const allowances = variant.long
    ? [0, 1, 2].map((i) => ({ ...base.allowances[0]!, amount: new Decimal(`${i + 1}`), reason: `${LONG} (${i + 1})` }))
    : base.allowances;
  const charges = variant.long ? [{ ...base.charges[0]!, reason: `${LONG} — Versandkosten` }] : base.charges;
  return viewOf(
    germanInput({
      pricesIncludeTax: variant.gross,
      allowances,
      charges,
      lines: Array.from({ length: lines }, (_, i) => ({
        ...base.lines[i % 2]!,
        name: `Item ${i + 1}`,
        description: i % 3 === 0 ? 'A description that takes a second line under the item' : null,
      })),
    }),
  );
}

describe.skipIf(!canInspectPdf)('the totals of a PDF', () => {
  for (const variant of VARIANTS) {
    it(`stand on a page with the last line above them for every count of lines from 1 to 80 (${variant.name})`, async () => {
      const problems: string[] = [];
      for (let count = 1; count <= 80; count++) {
        const pages = pdfPageTexts(await renderPdf(documentWith(count, variant), { lang: 'en' }));
        const withTotals = pages
          .map((text, index) => ({ text, index }))
          .filter(({ text }) => text.includes('Total excluding VAT'));
        if (withTotals.length !== 1) {
          problems.push(`${count} lines: the totals begin on ${withTotals.length} pages`);
          continue;
        }
        const { text, index } = withTotals[0]!;
        const last = new RegExp(`\\bItem ${count}\\b`);
        // The last line and every part of the totals are on that page, the line above them.
        if (!last.test(text))
          problems.push(`${count} lines: page ${index + 1} of ${pages.length} holds the totals without the last line`);
        else if (text.search(last) > text.indexOf('Total excluding VAT'))
          problems.push(`${count} lines: the last line is below the totals`);
        for (const part of ['Total including VAT', 'Amount due'])
          if (!text.includes(part)) problems.push(`${count} lines: "${part}" is not on the totals' page`);
      }
      expect(problems).toEqual([]);
    }, 600_000);
  }
});
