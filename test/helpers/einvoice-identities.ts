import { expect } from 'vitest';
import { Decimal } from '../../src/money/decimal.js';
import { roundMoney } from '../../src/money/money.js';
import type { ReadDocument } from './einvoice-reading.js';

// The EN 16931 calculation rules, checked exactly on figures read back from the XML.

const d = (text: string | null) => new Decimal(text ?? '0');
const sum = (texts: (string | null)[]) => texts.reduce((total, t) => total.plus(d(t)), new Decimal(0));

export function expectXmlIdentities(doc: ReadDocument, digits: number): void {
  const amount = new RegExp(digits === 0 ? '^-?\\d+$' : `^-?\\d+\\.\\d{${digits}}$`);
  for (const text of doc.amounts) expect(text, 'every amount in the currency digits').toMatch(amount);
  const t = doc.totals;
  expect(d(t.lineNet).equals(sum(doc.lines.map((l) => l.net))), 'BR-CO-10').toBe(true);
  expect(d(t.allowances).equals(sum(doc.allowances.map((a) => a.amount))), 'BR-CO-11').toBe(true);
  expect(d(t.charges).equals(sum(doc.charges.map((c) => c.amount))), 'BR-CO-12').toBe(true);
  expect(d(t.taxExclusive).equals(d(t.lineNet).minus(d(t.allowances)).plus(d(t.charges))), 'BR-CO-13').toBe(true);
  expect(d(t.taxTotal).equals(sum(doc.breakdown.map((g) => g.tax))), 'BR-CO-14').toBe(true);
  expect(d(t.taxInclusive).equals(d(t.taxExclusive).plus(d(t.taxTotal))), 'BR-CO-15').toBe(true);
  expect(d(t.payable).equals(d(t.taxInclusive).plus(d(t.rounding))), 'BR-CO-16').toBe(true);
  const sameGroup = (g: { category: string; rate: string | null }) => (x: { category: string; rate: string | null }) =>
    x.category === g.category && (g.category === 'O' || d(x.rate).equals(d(g.rate)));
  for (const g of doc.breakdown) {
    const inGroup = sameGroup(g);
    const taxable = sum(doc.lines.filter(inGroup).map((l) => l.net))
      .minus(sum(doc.allowances.filter(inGroup).map((a) => a.amount)))
      .plus(sum(doc.charges.filter(inGroup).map((c) => c.amount)));
    expect(d(g.taxable).equals(taxable), `BR-${g.category}-08: taxable amount of ${g.category} ${g.rate}`).toBe(true);
    expect(
      d(g.tax).equals(roundMoney(d(g.taxable).times(d(g.rate)).dividedBy(100), digits)),
      'BR-CO-17, rounded once per group',
    ).toBe(true);
    if (['E', 'AE', 'K', 'G', 'O'].includes(g.category))
      expect(g.reason ?? g.reasonCode, `BR-${g.category}-10`).toBeTruthy();
    else expect(g.reason ?? g.reasonCode, `BR-${g.category}-10 forbids a reason`).toBeNull();
  }
  for (const line of doc.lines) {
    // PEPPOL-EN16931-R120, exactly: net × base = quantity × price − allowances × base.
    const base = d(line.baseQuantity ?? '1');
    expect(base.greaterThan(0), 'PEPPOL-EN16931-R121').toBe(true);
    expect(d(line.price).isNegative() && !d(line.price).isZero(), 'BR-27: no negative price').toBe(false);
    const lhs = d(line.net).plus(sum(line.allowances)).times(base);
    expect(lhs.equals(d(line.quantity).times(d(line.price))), `PEPPOL-EN16931-R120 on ${JSON.stringify(line)}`).toBe(
      true,
    );
    if (line.category === 'O') expect(line.rate, 'BR-O-05').toBeNull();
  }
}
