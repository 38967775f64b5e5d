import fc from 'fast-check';

// Random invoice bodies for the property tests: every value within the documented limits.

/** A plain decimal string with up to `maxScale` decimals and `maxInt` integer digits. */
export function decimalString(options: {
  maxInt: number;
  maxScale: number;
  min?: bigint;
  max?: bigint;
}): fc.Arbitrary<string> {
  return fc.integer({ min: 0, max: options.maxScale }).chain((scale) => {
    const factor = 10n ** BigInt(scale);
    const limit = 10n ** BigInt(options.maxInt) * factor - 1n;
    const min = options.min !== undefined ? options.min * factor : -limit;
    const max = options.max !== undefined ? options.max * factor : limit;
    return fc.bigInt({ min: min < -limit ? -limit : min, max: max > limit ? limit : max }).map((scaled) => {
      const negative = scaled < 0n;
      const digits = (negative ? -scaled : scaled).toString().padStart(scale + 1, '0');
      const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
      return negative ? `-${text}` : text;
    });
  });
}

/** Some decimals go as JSON numbers, when the number's text is the same decimal. */
const wire = (arb: fc.Arbitrary<string>) =>
  fc
    .tuple(arb, fc.boolean())
    .map(([text, asNumber]) =>
      asNumber && String(Number(text)) === text.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') ? Number(text) : text,
    );

const rate = fc.oneof(
  fc.constantFrom('19', '7', '5.5', '20', '10', '8.1', '0', '100'),
  decimalString({ maxInt: 2, maxScale: 4, min: 0n, max: 99n }),
);

export const validLine = fc
  .record({
    name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
    quantity: wire(decimalString({ maxInt: 4, maxScale: 6, min: -999n, max: 9999n }).filter((q) => Number(q) !== 0)),
    unitPrice: wire(decimalString({ maxInt: 6, maxScale: 6, min: 0n, max: 999_999n })),
    discountPercent: fc.option(wire(decimalString({ maxInt: 2, maxScale: 4, min: 0n, max: 99n })).map(String), {
      nil: undefined,
    }),
    vatRate: rate,
    zeroCategory: fc.constantFrom('Z', 'E', 'AE', 'K', 'G', 'O'),
    explicitCategory: fc.boolean(),
  })
  .map(({ zeroCategory, explicitCategory, ...line }) => {
    const zero = Number(line.vatRate) === 0;
    const category = zero ? zeroCategory : 'S';
    return {
      ...line,
      ...(line.discountPercent === undefined ? { discountPercent: undefined } : {}),
      ...(explicitCategory || (zero && category !== 'Z') ? { vatCategory: category } : {}),
      ...(category === 'E' || category === 'AE' ? { exemptionReason: 'Exempt by law' } : {}),
    };
  })
  .map((line) => JSON.parse(JSON.stringify(line)) as Record<string, unknown>);

export const CURRENCIES = ['EUR', 'JPY', 'KWD', 'USD', 'CHF', 'BHD', 'KRW'] as const;

export const validInvoiceFields = fc.record({
  currency: fc.constantFrom(...CURRENCIES),
  pricesIncludeTax: fc.boolean(),
  lines: fc.array(validLine, { minLength: 1, maxLength: 12 }),
});

/** A document-level allowance or charge (BG-20/BG-21) with a category that fits its rate. */
export const validAdjustment = fc
  .record({
    amount: decimalString({ maxInt: 4, maxScale: 3, min: 0n, max: 9999n }),
    vatRate: rate,
    zeroCategory: fc.constantFrom('Z', 'E', 'AE', 'K', 'G', 'O'),
    reason: fc.constantFrom('Discount', 'Freight', 'Packing', 'Loyalty rebate'),
  })
  .map(({ zeroCategory, ...adjustment }) => ({
    ...adjustment,
    vatCategory: Number(adjustment.vatRate) === 0 ? zeroCategory : 'S',
  }));

export const validAdjustments = fc.record({
  allowances: fc.array(validAdjustment, { maxLength: 3 }),
  charges: fc.array(validAdjustment, { maxLength: 3 }),
});
