import { Decimal as DecimalJs } from 'decimal.js';

// One Decimal constructor for the whole application: enough significant digits that no sum or
// product of accepted inputs is ever rounded by the library itself (500 lines of 15 + 6 digit
// quantities times 15 + 6 digit prices stay far below 100), and half-away-from-zero as the one
// rounding mode. decimal.js calls that mode ROUND_HALF_UP.
export const Decimal = DecimalJs.clone({
  precision: 100,
  rounding: DecimalJs.ROUND_HALF_UP,
  toExpNeg: -100,
  toExpPos: 100,
});
export type Decimal = InstanceType<typeof Decimal>;

export const ROUND_HALF_AWAY_FROM_ZERO = DecimalJs.ROUND_HALF_UP;

export interface DecimalLimits {
  /** Most digits after the decimal point. */
  maxScale: number;
  /** Most digits before the decimal point. */
  maxIntegerDigits: number;
}

export type ParsedDecimal =
  | { ok: true; value: Decimal }
  | { ok: false; code: 'invalid_decimal' | 'too_many_decimals' | 'too_large'; message: string };

// Plain decimal notation only: an optional minus, digits, an optional fraction. No exponent, no
// leading plus, no thousands separators, no NaN or Infinity.
const PLAIN_DECIMAL = /^-?(\d+)(?:\.(\d+))?$/;
export const MAX_TEXT_LENGTH = 40;

/**
 * A decimal from the wire: a string in plain notation, or a JSON number, read through its
 * shortest round-trip text (the digits the client wrote: 19.99 is "19.99", never
 * 19.989999...). Numbers whose text needs an exponent (1e-7, 1e+21) are refused like exponents
 * in strings.
 */
export function parseDecimal(input: unknown, limits: DecimalLimits): ParsedDecimal {
  let text: string;
  if (typeof input === 'string') text = input;
  else if (typeof input === 'number' && Number.isFinite(input)) text = String(input);
  else
    return {
      ok: false,
      code: 'invalid_decimal',
      message: 'Must be a decimal number, as a string such as "19.99" or a JSON number.',
    };
  const match = text.length <= MAX_TEXT_LENGTH ? PLAIN_DECIMAL.exec(text) : null;
  if (!match) {
    return {
      ok: false,
      code: 'invalid_decimal',
      message: 'Must be a decimal in plain notation such as "19.99" (no exponent, no spaces).',
    };
  }
  const integerDigits = match[1]!.replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > limits.maxScale) {
    return { ok: false, code: 'too_many_decimals', message: `Must have at most ${limits.maxScale} decimal places.` };
  }
  if (integerDigits.length > limits.maxIntegerDigits) {
    return {
      ok: false,
      code: 'too_large',
      message: `Must have at most ${limits.maxIntegerDigits} digits before the decimal point.`,
    };
  }
  return { ok: true, value: new Decimal(text) };
}

/** The largest value `limits` take, as text: 999999999999999.999999 for 15 digits before the point and 6 after. */
export function largestDecimal(limits: DecimalLimits): string {
  return `${'9'.repeat(limits.maxIntegerDigits)}${limits.maxScale > 0 ? `.${'9'.repeat(limits.maxScale)}` : ''}`;
}

/** A decimal as plain text without trailing zeros or exponent ("19", "7.5", "-0.25"). */
export function plainDecimal(value: Decimal): string {
  return value.isZero() ? '0' : value.toFixed();
}
