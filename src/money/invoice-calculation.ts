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

/**
 * A document-level allowance (BG-20) or charge (BG-21). `amount` is what the customer saw: net
 * with net prices, VAT included when prices include tax (the engine derives the net). The reason
 * fields ride along for the documents; the arithmetic reads only amount, category and rate.
 */
export interface AllowanceChargeFigures {
  amount: Decimal;
  reason?: string | null;
  /** UNCL5189 for allowances, UNCL7161 for charges. */
  reasonCode?: string | null;
  vatCategory: VatCategory;
  /** Percent, 0 to 100. */
  vatRate: Decimal;
}

export interface DocumentAdjustments {
  allowances?: AllowanceChargeFigures[];
  charges?: AllowanceChargeFigures[];
}

export interface VatGroup {
  vatCategory: VatCategory;
  vatRate: Decimal;
  /** Indexes of the lines in this group, in line order. */
  lineIndexes: number[];
  /** Indexes of the document allowances in this group. */
  allowanceIndexes: number[];
  /** Indexes of the document charges in this group. */
  chargeIndexes: number[];
  /** BT-116: its line nets − its allowances + its charges. */
  taxableAmount: Decimal;
  /** BT-117: round(taxableAmount × rate / 100). */
  taxAmount: Decimal;
}

export interface InvoiceTotals {
  /** BT-106 */
  lineNetTotal: Decimal;
  /** BT-107 */
  allowanceTotal: Decimal;
  /** BT-108 */
  chargeTotal: Decimal;
  /** BT-109 = BT-106 − BT-107 + BT-108 */
  taxExclusive: Decimal;
  /** BT-110 */
  taxTotal: Decimal;
  /** BT-112 */
  taxInclusive: Decimal;
  /** BT-114 */
  roundingAmount: Decimal;
  /** BT-115 */
  payable: Decimal;
}

export interface InvoiceCalculation {
  lineNetAmounts: Decimal[];
  /** BT-92 of each document allowance: net of VAT, in the minor unit. */
  allowanceAmounts: Decimal[];
  /** BT-99 of each document charge: net of VAT, in the minor unit. */
  chargeAmounts: Decimal[];
  vatBreakdown: VatGroup[];
  totals: InvoiceTotals;
}

export interface CalculationOptions {
  /** Minor-unit digits of the currency. */
  digits: number;
  /** Unit prices (and document allowance and charge amounts) include VAT: nets are derived. */
  pricesIncludeTax: boolean;
}

/** quantity × unitPrice × (1 − discountPercent / 100), unrounded. */
export function extendedAmount(line: LineFigures): Decimal {
  const amount = line.quantity.times(line.unitPrice);
  return line.discountPercent === null
    ? amount
    : amount.times(new Decimal(100).minus(line.discountPercent)).dividedBy(100);
}

type GroupMembers = Omit<VatGroup, 'taxableAmount' | 'taxAmount'>;
type Taxed = Pick<LineFigures, 'vatCategory' | 'vatRate'>;

/** The (category, rate) groups in order of first appearance: lines, then allowances, then charges. */
function groupMembers(lines: Taxed[], allowances: Taxed[], charges: Taxed[]): GroupMembers[] {
  const groups = new Map<string, GroupMembers>();
  const place = (item: Taxed, index: number, list: 'lineIndexes' | 'allowanceIndexes' | 'chargeIndexes') => {
    const key = `${item.vatCategory}|${item.vatRate.toFixed()}`;
    let group = groups.get(key);
    if (!group) {
      group = {
        vatCategory: item.vatCategory,
        vatRate: item.vatRate,
        lineIndexes: [],
        allowanceIndexes: [],
        chargeIndexes: [],
      };
      groups.set(key, group);
    }
    group[list].push(index);
  };
  lines.forEach((line, i) => place(line, i, 'lineIndexes'));
  allowances.forEach((allowance, i) => place(allowance, i, 'allowanceIndexes'));
  charges.forEach((charge, i) => place(charge, i, 'chargeIndexes'));
  return [...groups.values()];
}

export function calculateInvoice(
  lines: LineFigures[],
  options: CalculationOptions,
  adjustments: DocumentAdjustments = {},
): InvoiceCalculation {
  const { digits } = options;
  const allowances = adjustments.allowances ?? [];
  const charges = adjustments.charges ?? [];
  // Net prices: these are the nets. Gross prices: what the customer saw, VAT included.
  const lineTotals = lines.map((line) => roundMoney(extendedAmount(line), digits));
  const allowanceTotals = allowances.map((a) => roundMoney(a.amount, digits));
  const chargeTotals = charges.map((c) => roundMoney(c.amount, digits));
  const groups = groupMembers(lines, allowances, charges);
  const lineNetAmounts = [...lineTotals];
  const allowanceAmounts = [...allowanceTotals];
  const chargeAmounts = [...chargeTotals];

  if (options.pricesIncludeTax) {
    for (const group of groups) {
      // One signed list per group: line grosses and charges add, allowances subtract. The
      // group's net is found from its gross sum and shared by largest remainder, so the
      // taxable amount (lines − allowances + charges) is exactly that net.
      const signedGrosses = [
        ...group.lineIndexes.map((i) => lineTotals[i]!),
        ...group.allowanceIndexes.map((i) => allowanceTotals[i]!.negated()),
        ...group.chargeIndexes.map((i) => chargeTotals[i]!),
      ];
      const groupNet = netOfGross(sum(signedGrosses), group.vatRate, digits);
      const divisor = group.vatRate.plus(100).dividedBy(100);
      const nets = apportion(
        groupNet,
        signedGrosses.map((gross) => gross.dividedBy(divisor)),
        digits,
      );
      let k = 0;
      for (const i of group.lineIndexes) lineNetAmounts[i] = nets[k++]!;
      for (const i of group.allowanceIndexes) allowanceAmounts[i] = nets[k++]!.negated();
      for (const i of group.chargeIndexes) chargeAmounts[i] = nets[k++]!;
    }
  }

  const vatBreakdown: VatGroup[] = groups.map((group) => {
    const taxableAmount = sum(group.lineIndexes.map((i) => lineNetAmounts[i]!))
      .minus(sum(group.allowanceIndexes.map((i) => allowanceAmounts[i]!)))
      .plus(sum(group.chargeIndexes.map((i) => chargeAmounts[i]!)));
    return { ...group, taxableAmount, taxAmount: taxOf(taxableAmount, group.vatRate, digits) };
  });

  const lineNetTotal = sum(lineNetAmounts);
  const allowanceTotal = sum(allowanceAmounts);
  const chargeTotal = sum(chargeAmounts);
  const taxExclusive = lineNetTotal.minus(allowanceTotal).plus(chargeTotal);
  const taxTotal = sum(vatBreakdown.map((g) => g.taxAmount));
  const taxInclusive = taxExclusive.plus(taxTotal);
  // Gross prices: the customer pays what they saw; the difference to the tax-inclusive total
  // (at most one minor unit per group) is the rounding amount, BT-114.
  const grossSum = sum(lineTotals).minus(sum(allowanceTotals)).plus(sum(chargeTotals));
  const roundingAmount = options.pricesIncludeTax ? grossSum.minus(taxInclusive) : new Decimal(0);
  const payable = taxInclusive.plus(roundingAmount);
  return {
    lineNetAmounts,
    allowanceAmounts,
    chargeAmounts,
    vatBreakdown,
    totals: {
      lineNetTotal,
      allowanceTotal,
      chargeTotal,
      taxExclusive,
      taxTotal,
      taxInclusive,
      roundingAmount,
      payable,
    },
  };
}
