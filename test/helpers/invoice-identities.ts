import { expect } from 'vitest';
import { minorUnitDigits } from '../../src/money/currency.js';
import { Decimal } from '../../src/money/decimal.js';
import { extendedAmount } from '../../src/money/invoice-calculation.js';
import { roundMoney } from '../../src/money/money.js';

export interface Answer {
  currency: string;
  pricesIncludeTax: boolean;
  lines: { quantity: string; unitPrice: string; discountPercent: string | null; vatRate: string; vatCategory: string; netAmount: string }[];
  vatBreakdown: { vatCategory: string; vatRate: string; taxableAmount: string; taxAmount: string }[];
  totals: Record<'lineNetTotal' | 'taxExclusive' | 'taxTotal' | 'taxInclusive' | 'roundingAmount' | 'payable', string>;
}

const d = (value: string) => new Decimal(value);
const total = (values: string[]) => values.reduce((s, v) => s.plus(v), new Decimal(0));

/** Every EN 16931 identity of the issue, checked exactly on the strings the API answered. */
export function expectIdentities(invoice: Answer): void {
  const digits = minorUnitDigits(invoice.currency);
  const amount = new RegExp(digits === 0 ? '^-?\\d+$' : `^-?\\d+\\.\\d{${digits}}$`);
  const { lines, vatBreakdown, totals } = invoice;
  for (const value of [...lines.map((l) => l.netAmount), ...vatBreakdown.flatMap((g) => [g.taxableAmount, g.taxAmount]), ...Object.values(totals)]) {
    expect(value).toMatch(amount);
  }
  expect(d(totals.lineNetTotal).equals(total(lines.map((l) => l.netAmount)))).toBe(true); // BR-CO-10
  expect(d(totals.taxExclusive).equals(d(totals.lineNetTotal))).toBe(true); // BR-CO-13 (no document allowances or charges)
  expect(d(totals.taxTotal).equals(total(vatBreakdown.map((g) => g.taxAmount)))).toBe(true); // BR-CO-14
  expect(d(totals.taxInclusive).equals(d(totals.taxExclusive).plus(totals.taxTotal))).toBe(true); // BR-CO-15
  expect(d(totals.payable).equals(d(totals.taxInclusive).plus(totals.roundingAmount))).toBe(true); // BR-CO-16
  for (const group of vatBreakdown) {
    const members = lines.filter((l) => l.vatCategory === group.vatCategory && d(l.vatRate).equals(group.vatRate));
    expect(members.length).toBeGreaterThan(0);
    expect(d(group.taxableAmount).equals(total(members.map((l) => l.netAmount)))).toBe(true); // BR-S-08 and kin
    expect(d(group.taxAmount).equals(roundMoney(d(group.taxableAmount).times(group.vatRate).dividedBy(100), digits))).toBe(true);
  }
  expect(new Set(lines.map((l) => `${l.vatCategory}|${d(l.vatRate).toFixed()}`)).size).toBe(vatBreakdown.length);
  const lineTotals = lines.map((l) =>
    roundMoney(
      extendedAmount({ quantity: d(l.quantity), unitPrice: d(l.unitPrice), discountPercent: l.discountPercent === null ? null : d(l.discountPercent), vatRate: d(l.vatRate), vatCategory: 'S' }),
      digits,
    ),
  );
  if (invoice.pricesIncludeTax) {
    // The customer pays the sum of the gross line totals; rounding is at most one unit per group.
    expect(d(totals.payable).equals(lineTotals.reduce((s, v) => s.plus(v), new Decimal(0)))).toBe(true);
    expect(d(totals.roundingAmount).abs().lessThanOrEqualTo(new Decimal(vatBreakdown.length).dividedBy(10 ** digits))).toBe(true);
  } else {
    expect(lines.every((l, i) => d(l.netAmount).equals(lineTotals[i]!))).toBe(true);
    expect(d(totals.roundingAmount).isZero()).toBe(true);
  }
}
