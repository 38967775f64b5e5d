import { Decimal, ROUND_HALF_AWAY_FROM_ZERO } from './decimal.js';

/** Rounds half away from zero to the given number of minor-unit digits. */
export function roundMoney(value: Decimal, digits: number): Decimal {
  return value.toDecimalPlaces(digits, ROUND_HALF_AWAY_FROM_ZERO);
}

/** An amount as the API shows it: exactly `digits` digits after the point, never "-0.00". */
export function formatMoney(value: Decimal, digits: number): string {
  const rounded = roundMoney(value, digits);
  return (rounded.isZero() ? new Decimal(0) : rounded).toFixed(digits);
}

/** One minor unit of a currency with this many digits: 0.01 for EUR, 1 for JPY. */
export function minorUnit(digits: number): Decimal {
  return new Decimal(1).dividedBy(new Decimal(10).pow(digits));
}

export function sum(values: Decimal[]): Decimal {
  return values.reduce((total, value) => total.plus(value), new Decimal(0));
}
