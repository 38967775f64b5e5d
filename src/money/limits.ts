import { Decimal, type DecimalLimits } from './decimal.js';
import { formatMoney } from './money.js';

// The largest amount, in one place. A payment, a refund, a credit note and every amount an
// invoice or credit note carries (each line's net amount, each VAT group, each total) has at most
// 15 digits before the decimal point, so that whatever an invoice asks for can be paid, refunded
// and credited, and every amount fits what an XML Schema processor must carry exactly (xs:decimal
// with at least 18 digits in total: 15 plus at most 3 minor-unit digits). Quantities and prices
// may be larger or finer; their products are what is held to this.

export const AMOUNT_INTEGER_DIGITS = 15;

/** How an amount given in a currency with `digits` minor-unit digits is parsed. */
export function amountLimits(digits: number): DecimalLimits {
  return { maxScale: digits, maxIntegerDigits: AMOUNT_INTEGER_DIGITS };
}

/** 10^15: every amount is below it, either sign. Worked out once; every document's amounts are held to it. */
const AMOUNT_BOUND = new Decimal(10).pow(AMOUNT_INTEGER_DIGITS);
const largest = new Map<number, string>();

/** The largest amount in a currency with `digits` minor-unit digits: 999999999999999.99 for EUR. */
export function largestAmount(digits: number): string {
  let text = largest.get(digits);
  if (text === undefined) {
    text = formatMoney(AMOUNT_BOUND.minus(new Decimal(1).dividedBy(new Decimal(10).pow(digits))), digits);
    // Currencies have 0 to 4 minor-unit digits: the map stays as small as that.
    largest.set(digits, text);
  }
  return text;
}

/** Whether an amount (as stored: rounded to its currency's digits) is within the limit, either sign. */
export function isWithinAmountLimit(amount: Decimal | string): boolean {
  return new Decimal(amount).abs().lessThan(AMOUNT_BOUND);
}

// The other decimals an invoice takes, as the input reader parses them and the API documents them.

/** A line quantity: 15 digits before the point, 6 after. */
export const QUANTITY: DecimalLimits = { maxScale: 6, maxIntegerDigits: 15 };
/** A unit price, or an allowance's or charge's amount before rounding: 15 digits before the point, 6 after. */
export const PRICE: DecimalLimits = { maxScale: 6, maxIntegerDigits: 15 };
/** A VAT rate or a discount: up to 100, 4 decimal places. */
export const PERCENT: DecimalLimits = { maxScale: 4, maxIntegerDigits: 3 };
