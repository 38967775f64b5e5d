import { Type, type TNumber } from '@sinclair/typebox';
import { MAX_TEXT_LENGTH, type DecimalLimits } from '../money/decimal.js';
import { AMOUNT_INTEGER_DIGITS, PERCENT, PRICE, QUANTITY } from '../money/limits.js';
import { DocumentedAs } from './documented-as.js';

// The values invoices are made of: decimals in and out, money amounts, calendar dates.
//
// Decimal and date inputs are checked by code (src/money/decimal.ts, src/services/invoice-input.ts),
// not by the schema validator, because that code's detail codes (invalid_decimal,
// too_many_decimals, too_large, out_of_range, invalid_date) are part of the contract and come
// after the shape checks. So their limits live in the document only (DocumentedAs): the validator
// keeps letting any value through to that code, exactly as before.

/** Digits before and after the point, as parseDecimal counts them (leading and trailing zeros are free). */
function digits(limits: DecimalLimits): string {
  return `0*\\d{1,${limits.maxIntegerDigits}}(?:\\.\\d{1,${limits.maxScale}}0*)?`;
}

const PLAIN_NOTATION =
  'Send a string in plain notation ("19.99") or a JSON number (19.99); no exponent, spaces, separators or plus sign.';

function DecimalInput(
  title: string,
  description: string,
  pattern: string,
  number: TNumber,
  examples: (string | number)[],
) {
  return DocumentedAs(
    Type.Unsafe({}),
    Type.Union([Type.String({ pattern, maxLength: MAX_TEXT_LENGTH }), number], {
      title,
      description: `${description} ${PLAIN_NOTATION}`,
      examples,
    }),
  );
}

const tenToThe = (n: number) => 10 ** n;

export const QuantityInput = DecimalInput(
  'Quantity',
  `A line quantity: up to ${QUANTITY.maxIntegerDigits} digits before the point and ${QUANTITY.maxScale} after; not zero; negative credits a quantity.`,
  `^-?${digits(QUANTITY)}$`,
  Type.Number({
    exclusiveMinimum: -tenToThe(QUANTITY.maxIntegerDigits),
    exclusiveMaximum: tenToThe(QUANTITY.maxIntegerDigits),
  }),
  ['7.5', 3],
);

export const PriceInput = DecimalInput(
  'Price',
  `A unit price, net, or gross (VAT included) when the invoice's pricesIncludeTax is true: not negative; up to ${PRICE.maxIntegerDigits} digits before the point and ${PRICE.maxScale} after.`,
  // "-0" is zero, not negative, and is accepted like "0".
  `^(?:-0+(?:\\.0+)?|${digits(PRICE)})$`,
  Type.Number({ minimum: 0, exclusiveMaximum: tenToThe(PRICE.maxIntegerDigits) }),
  ['19.99', 12.45],
);

export const PercentInput = DecimalInput(
  'Percent',
  `A percentage from 0 to 100 with up to ${PERCENT.maxScale} decimal places.`,
  `^0*(?:100(?:\\.0+)?|\\d{1,2}(?:\\.\\d{1,${PERCENT.maxScale}}0*)?)$`,
  Type.Number({ minimum: 0, maximum: 100 }),
  ['19', 7.5],
);

export const AmountInput = DecimalInput(
  'AmountInput',
  `A money amount: above zero, with at most the currency's minor-unit digits (2 for EUR, 0 for JPY, 3 for KWD) and ${AMOUNT_INTEGER_DIGITS} digits before the point (the largest amount there is: every amount of an invoice has at most ${AMOUNT_INTEGER_DIGITS}).`,
  `^0*\\d{1,${AMOUNT_INTEGER_DIGITS}}(?:\\.\\d{1,3}0*)?$`,
  Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: tenToThe(AMOUNT_INTEGER_DIGITS) }),
  ['119.00', 59.5],
);

/** A decimal the API answers with: plain notation, no trailing zeros. */
export const DecimalOutput = Type.String({
  title: 'Decimal',
  pattern: '^-?(?:0|[1-9]\\d*)(?:\\.\\d*[1-9])?$',
  description: 'A decimal as a string in plain notation without trailing zeros ("7.5", "19", "-0.25").',
  examples: ['7.5'],
});

/** A money amount the API answers with. */
export const Amount = Type.String({
  title: 'Amount',
  pattern: '^-?\\d+(?:\\.\\d+)?$',
  description:
    'A money amount as a string with exactly the minor-unit digits of the currency ("59.97" in EUR, "1100" in JPY, "1.250" in KWD).',
  examples: ['59.97'],
});

/** YYYY-MM-DD with a year from 1900 to 9999, as src/services/invoice-input.ts accepts them. */
const DATE_1900_TO_9999 = '^(?:19\\d{2}|[2-9]\\d{3})-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])$';

/** An invoice date the API answers with (always a calendar day from 1900 to 9999). */
export const DateOutput = (description?: string) =>
  Type.String({ format: 'date', pattern: DATE_1900_TO_9999, ...(description === undefined ? {} : { description }) });

/**
 * An invoice date a client sends. The validator checks the format; the year range is checked by
 * code, answering `invalid_date`, so the pattern is in the document only.
 */
export const DateInput = (description: string) =>
  DocumentedAs(
    Type.String({ format: 'date' }),
    Type.String({ format: 'date', pattern: DATE_1900_TO_9999, description }),
  );

/** Which world a resource lives in: live data, or the company's test sandbox. */
export const Livemode = Type.Boolean({
  description: 'true: live data; false: the test sandbox that inv_test_ keys work in.',
});
