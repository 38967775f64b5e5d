import { Decimal } from './decimal.js';
import { apportion, netOfGross, taxOf } from './gross-prices.js';
import { roundMoney, sum } from './money.js';

// The arithmetic of an invoice (EN 16931 semantics), on exact decimals. Every amount it returns
// is already rounded to the currency's minor unit, half away from zero.

export const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O'] as const;
export type VatCategory = (typeof VAT_CATEGORIES)[number];

export interface LineFigures {
  quantity: Decimal;
  unitPrice: Decimal;
  /** 0 to 100; null for none. */
  discountPercent: Decimal | null;
  /** Percent, 0 to 100. */
  vatRate: Decimal;
  vatCategory: VatCategory;
}

export interface VatGroup {
  vatCategory: VatCategory;
  vatRate: Decimal;
  /** Indexes of the lines in this group, in line order. */
  lineIndexes: number[];
  taxableAmount: Decimal;
  taxAmount: Decimal;
}

export interface InvoiceTotals {
  lineNetTotal: Decimal;
  taxExclusive: Decimal;
  taxTotal: Decimal;
  taxInclusive: Decimal;
  roundingAmount: Decimal;
  payable: Decimal;
}

export interface InvoiceCalculation {
  lineNetAmounts: Decimal[];
  vatBreakdown: VatGroup[];
  totals: InvoiceTotals;
}

export interface CalculationOptions {
  /** Minor-unit digits of the currency. */
  digits: number;
  /** Unit prices include VAT: line totals are gross and nets are derived from them. */
  pricesIncludeTax: boolean;
}

/** quantity × unitPrice × (1 − discountPercent / 100), unrounded. */
export function extendedAmount(line: LineFigures): Decimal {
  const amount = line.quantity.times(line.unitPrice);
  return line.discountPercent === null ? amount : amount.times(new Decimal(100).minus(line.discountPercent)).dividedBy(100);
}

/** The (category, rate) groups in order of first appearance. */
function groupLines(lines: LineFigures[]): Omit<VatGroup, 'taxableAmount' | 'taxAmount'>[] {
  const groups = new Map<string, Omit<VatGroup, 'taxableAmount' | 'taxAmount'>>();
  lines.forEach((line, index) => {
    const key = `${line.vatCategory}|${line.vatRate.toFixed()}`;
    const group = groups.get(key);
    if (group) group.lineIndexes.push(index);
    else groups.set(key, { vatCategory: line.vatCategory, vatRate: line.vatRate, lineIndexes: [index] });
  });
  return [...groups.values()];
}

export function calculateInvoice(lines: LineFigures[], options: CalculationOptions): InvoiceCalculation {
  const { digits } = options;
  // Net prices: the line total is the net. Gross prices: it is what the customer saw, VAT included.
  const lineTotals = lines.map((line) => roundMoney(extendedAmount(line), digits));
  const groups = groupLines(lines);
  const lineNetAmounts = [...lineTotals];
  let grossSum = new Decimal(0);

  if (options.pricesIncludeTax) {
    for (const group of groups) {
      const grosses = group.lineIndexes.map((i) => lineTotals[i]!);
      const groupGross = sum(grosses);
      grossSum = grossSum.plus(groupGross);
      const groupNet = netOfGross(groupGross, group.vatRate, digits);
      const divisor = group.vatRate.plus(100).dividedBy(100);
      const nets = apportion(groupNet, grosses.map((gross) => gross.dividedBy(divisor)), digits);
      group.lineIndexes.forEach((lineIndex, k) => (lineNetAmounts[lineIndex] = nets[k]!));
    }
  }

  const vatBreakdown: VatGroup[] = groups.map((group) => {
    const taxableAmount = sum(group.lineIndexes.map((i) => lineNetAmounts[i]!));
    return { ...group, taxableAmount, taxAmount: taxOf(taxableAmount, group.vatRate, digits) };
  });

  const lineNetTotal = sum(lineNetAmounts);
  const taxExclusive = lineNetTotal;
  const taxTotal = sum(vatBreakdown.map((g) => g.taxAmount));
  const taxInclusive = taxExclusive.plus(taxTotal);
  const roundingAmount = options.pricesIncludeTax ? grossSum.minus(taxInclusive) : new Decimal(0);
  const payable = taxInclusive.plus(roundingAmount);
  return {
    lineNetAmounts,
    vatBreakdown,
    totals: { lineNetTotal, taxExclusive, taxTotal, taxInclusive, roundingAmount, payable },
  };
}
