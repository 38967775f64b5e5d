import { Decimal } from '../money/decimal.js';
import { roundMoney } from '../money/money.js';

// How a line's price is written so that the EN 16931 line identity holds exactly
// (PEPPOL-EN16931-R120): netAmount = quantity × price / baseQuantity − allowance. The line's
// discount becomes a line allowance (BG-27) of baseAmount − netAmount, where baseAmount is the
// line's amount before the discount in the minor unit. The price is baseAmount / quantity when
// that quotient is short and exact (the common case: 3 × 19.99); otherwise the price is the
// whole baseAmount for a base quantity of |quantity| (BT-149), which is exact by construction
// and never negative, because baseAmount has the sign of the quantity or is zero.

/** Most decimals of a price written per one unit; longer quotients use the base quantity. */
const MAX_UNIT_PRICE_DECIMALS = 10;

export interface LinePriceInput {
  quantity: Decimal;
  /** As given: net, or VAT-included when prices include tax. */
  unitPrice: Decimal;
  discountPercent: Decimal | null;
  /** BT-131 as computed. */
  netAmount: Decimal;
  /** The line's VAT rate, to find the net before discount of a gross-priced line. */
  vatRate: Decimal;
  pricesIncludeTax: boolean;
  digits: number;
}

export interface LinePrice {
  /** BT-146 */
  amount: Decimal;
  /** BT-149, null for one unit. */
  baseQuantity: Decimal | null;
  /** BG-27: the discount, when the line has one. */
  discount: { amount: Decimal; baseAmount: Decimal; percent: Decimal; exact: boolean } | null;
}

/** The line's amount before its discount, in the minor unit, with the sign of the quantity (or zero). */
function amountBeforeDiscount(line: LinePriceInput): Decimal {
  const { quantity, unitPrice, discountPercent, netAmount, vatRate, digits } = line;
  if (discountPercent === null || discountPercent.isZero()) return netAmount;
  if (!line.pricesIncludeTax) return roundMoney(quantity.times(unitPrice), digits);
  // Gross prices: the net is apportioned, so undo the discount on the net itself; a 100 %
  // discount leaves no net, so take the net of the undiscounted gross instead.
  if (discountPercent.equals(100))
    return roundMoney(quantity.times(unitPrice).times(100).dividedBy(vatRate.plus(100)), digits);
  return roundMoney(netAmount.times(100).dividedBy(new Decimal(100).minus(discountPercent)), digits);
}

export function linePrice(line: LinePriceInput): LinePrice {
  const base = amountBeforeDiscount(line);
  const quotient = base.dividedBy(line.quantity);
  const perUnit = quotient.decimalPlaces() <= MAX_UNIT_PRICE_DECIMALS && quotient.times(line.quantity).equals(base);
  const amount = perUnit ? quotient.abs() : base.abs();
  const baseQuantity = perUnit ? null : line.quantity.abs();
  let discount: LinePrice['discount'] = null;
  if (line.discountPercent !== null && !line.discountPercent.isZero()) {
    const allowance = base.minus(line.netAmount);
    // The percent and base amount are a formula claim (PEPPOL-EN16931-R040); make it only when exact.
    const exact = base.times(line.discountPercent).dividedBy(100).equals(allowance);
    discount = { amount: allowance, baseAmount: base, percent: line.discountPercent, exact };
  }
  return { amount, baseQuantity, discount };
}
