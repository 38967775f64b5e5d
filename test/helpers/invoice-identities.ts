import { expect } from 'vitest';
import { minorUnitDigits } from '../../src/money/currency.js';
import { Decimal } from '../../src/money/decimal.js';
import { extendedAmount } from '../../src/money/invoice-calculation.js';
import { roundMoney } from '../../src/money/money.js';

export interface Answer {
  currency: string;
  pricesIncludeTax: boolean;
  lines: {
    quantity: string;
    unitPrice: string;
    discountPercent: string | null;
    vatRate: string;
    vatCategory: string;
    netAmount: string;
  }[];
  vatBreakdown: { vatCategory: string; vatRate: string; taxableAmount: string; taxAmount: string }[];
  totals: Record<'lineNetTotal' | 'taxExclusive' | 'taxTotal' | 'taxInclusive' | 'roundingAmount' | 'payable', string> &
    Partial<Record<'allowanceTotal' | 'chargeTotal', string>>;
  /** Document-level allowances (BG-20) and charges (BG-21): `amount` is the net (BT-92, BT-99), `gross` what the customer saw. */
  allowances?: DocumentAdjustment[];
  charges?: DocumentAdjustment[];
}

export interface DocumentAdjustment {
  amount: string;
  /** The amount as given: gross when prices include tax. */
  given: string;
  vatCategory: string;
  vatRate: string;
}

const d = (value: string) => new Decimal(value);
const total = (values: string[]) => values.reduce((s, v) => s.plus(v), new Decimal(0));

/** Every EN 16931 identity of the issue, checked exactly on the strings the API answered. */
export function expectIdentities(invoice: Answer): void {
  const digits = minorUnitDigits(invoice.currency);
  const amount = new RegExp(digits === 0 ? '^-?\\d+$' : `^-?\\d+\\.\\d{${digits}}$`);
  const { lines, vatBreakdown, totals } = invoice;
  const allowances = invoice.allowances ?? [];
  const charges = invoice.charges ?? [];
  const adjustmentAmounts = [...allowances, ...charges].map((a) => a.amount);
  for (const value of [
    ...lines.map((l) => l.netAmount),
    ...adjustmentAmounts,
    ...vatBreakdown.flatMap((g) => [g.taxableAmount, g.taxAmount]),
    ...Object.values(totals),
  ]) {
    expect(value).toMatch(amount);
  }
  const allowanceTotal = total(allowances.map((a) => a.amount));
  const chargeTotal = total(charges.map((c) => c.amount));
  expect(d(totals.lineNetTotal).equals(total(lines.map((l) => l.netAmount)))).toBe(true); // BR-CO-10
  if (totals.allowanceTotal !== undefined) expect(d(totals.allowanceTotal).equals(allowanceTotal)).toBe(true); // BR-CO-11
  if (totals.chargeTotal !== undefined) expect(d(totals.chargeTotal).equals(chargeTotal)).toBe(true); // BR-CO-12
  expect(d(totals.taxExclusive).equals(d(totals.lineNetTotal).minus(allowanceTotal).plus(chargeTotal))).toBe(true); // BR-CO-13
  expect(d(totals.taxTotal).equals(total(vatBreakdown.map((g) => g.taxAmount)))).toBe(true); // BR-CO-14
  expect(d(totals.taxInclusive).equals(d(totals.taxExclusive).plus(totals.taxTotal))).toBe(true); // BR-CO-15
  expect(d(totals.payable).equals(d(totals.taxInclusive).plus(totals.roundingAmount))).toBe(true); // BR-CO-16
  for (const group of vatBreakdown) {
    const inGroup = (item: { vatCategory: string; vatRate: string }) =>
      item.vatCategory === group.vatCategory && d(item.vatRate).equals(group.vatRate);
    const members = lines.filter(inGroup);
    const groupAllowances = allowances.filter(inGroup);
    const groupCharges = charges.filter(inGroup);
    expect(members.length + groupAllowances.length + groupCharges.length).toBeGreaterThan(0);
    const taxable = total(members.map((l) => l.netAmount))
      .minus(total(groupAllowances.map((a) => a.amount)))
      .plus(total(groupCharges.map((c) => c.amount)));
    expect(d(group.taxableAmount).equals(taxable)).toBe(true); // BR-S-08 and kin
    expect(
      d(group.taxAmount).equals(roundMoney(d(group.taxableAmount).times(group.vatRate).dividedBy(100), digits)),
    ).toBe(true);
  }
  expect(
    new Set([...lines, ...allowances, ...charges].map((l) => `${l.vatCategory}|${d(l.vatRate).toFixed()}`)).size,
  ).toBe(vatBreakdown.length);
  const lineTotals = lines.map((l) =>
    roundMoney(
      extendedAmount({
        quantity: d(l.quantity),
        unitPrice: d(l.unitPrice),
        discountPercent: l.discountPercent === null ? null : d(l.discountPercent),
        vatRate: d(l.vatRate),
        vatCategory: 'S',
      }),
      digits,
    ),
  );
  const givenTotal = (items: DocumentAdjustment[]) => total(items.map((a) => roundMoney(d(a.given), digits).toFixed()));
  if (invoice.pricesIncludeTax) {
    // The customer pays what they saw: gross line totals − gross allowances + gross charges;
    // rounding is at most one unit per group.
    const seen = total(lineTotals.map((v) => v.toFixed()))
      .minus(givenTotal(allowances))
      .plus(givenTotal(charges));
    expect(d(totals.payable).equals(seen)).toBe(true);
    // A net allowance or charge keeps the sign of what was given (it may shrink to zero).
    for (const a of [...allowances, ...charges])
      expect(d(a.amount).isNegative() && !d(a.amount).isZero() && !d(a.given).isNegative()).toBe(false);
    // So does a line net: zero, or the sign of its gross total (the documents rely on it).
    lines.forEach((l, i) =>
      expect(d(l.netAmount).isZero() || d(l.netAmount).isNegative() === lineTotals[i]!.isNegative()).toBe(true),
    );
    expect(
      d(totals.roundingAmount)
        .abs()
        .lessThanOrEqualTo(new Decimal(vatBreakdown.length).dividedBy(10 ** digits)),
    ).toBe(true);
  } else {
    expect(lines.every((l, i) => d(l.netAmount).equals(lineTotals[i]!))).toBe(true);
    for (const a of [...allowances, ...charges]) expect(d(a.amount).equals(roundMoney(d(a.given), digits))).toBe(true);
    expect(d(totals.roundingAmount).isZero()).toBe(true);
  }
}
