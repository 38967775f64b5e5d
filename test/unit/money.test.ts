import { describe, expect, it } from 'vitest';
import { isKnownCurrency, minorUnitDigits } from '../../src/money/currency.js';
import { Decimal, parseDecimal, plainDecimal } from '../../src/money/decimal.js';
import { apportion, netOfGross, taxOf } from '../../src/money/gross-prices.js';
import {
  calculateInvoice,
  type AllowanceChargeFigures,
  type LineFigures,
} from '../../src/money/invoice-calculation.js';
import { formatMoney, roundMoney } from '../../src/money/money.js';

const d = (value: string) => new Decimal(value);
const LIMITS = { maxScale: 6, maxIntegerDigits: 15 };

describe('decimal parsing', () => {
  it('accepts plain decimal strings and JSON numbers by the digits the client wrote', () => {
    for (const [input, expected] of [
      ['19.99', '19.99'],
      [19.99, '19.99'],
      [0.1, '0.1'],
      ['-2.500000', '-2.5'],
      ['007', '7'],
      [123456789012345, '123456789012345'],
      ['0.000001', '0.000001'],
    ] as const) {
      const parsed = parseDecimal(input, LIMITS);
      expect(parsed.ok && plainDecimal(parsed.value)).toBe(expected);
    }
  });

  it('refuses exponents, NaN, infinities, separators, blanks and non-numbers', () => {
    for (const input of [
      '1e3',
      '1E-2',
      'NaN',
      'Infinity',
      '1,5',
      ' 1',
      '1 ',
      '',
      '+1',
      '.5',
      '5.',
      '0x10',
      1e21,
      1e-7,
      NaN,
      true,
      null,
      {},
      [],
    ]) {
      expect(parseDecimal(input, LIMITS)).toMatchObject({ ok: false, code: 'invalid_decimal' });
    }
  });

  it('refuses more decimal places or integer digits than allowed, ignoring trailing zeros', () => {
    expect(parseDecimal('1.1234567', LIMITS)).toMatchObject({ ok: false, code: 'too_many_decimals' });
    expect(parseDecimal('1.1234560000', LIMITS)).toMatchObject({ ok: true });
    expect(parseDecimal('1234567890123456', LIMITS)).toMatchObject({ ok: false, code: 'too_large' });
    expect(parseDecimal(0.1 + 0.2, LIMITS)).toMatchObject({ ok: false, code: 'too_many_decimals' });
  });
});

describe('currencies', () => {
  it('knows the minor-unit digits from Intl: EUR 2, JPY 0, KWD 3', () => {
    expect([minorUnitDigits('EUR'), minorUnitDigits('JPY'), minorUnitDigits('KWD')]).toEqual([2, 0, 3]);
  });

  it('knows ISO 4217 codes and nothing else', () => {
    expect(isKnownCurrency('EUR')).toBe(true);
    expect(isKnownCurrency('ABC')).toBe(false);
    expect(isKnownCurrency('eur')).toBe(false);
  });
});

describe('rounding and formatting', () => {
  it('rounds half away from zero, on both sides of zero', () => {
    expect(roundMoney(d('0.125'), 2).toFixed(2)).toBe('0.13');
    expect(roundMoney(d('-0.125'), 2).toFixed(2)).toBe('-0.13');
    expect(roundMoney(d('2.5'), 0).toFixed(0)).toBe('3');
    expect(roundMoney(d('1.2345'), 3).toFixed(3)).toBe('1.235');
    expect(roundMoney(d('0.124999999'), 2).toFixed(2)).toBe('0.12');
  });

  it('formats with exactly the currency digits and never as negative zero', () => {
    expect(formatMoney(d('5'), 2)).toBe('5.00');
    expect(formatMoney(d('1100'), 0)).toBe('1100');
    expect(formatMoney(d('1.25'), 3)).toBe('1.250');
    expect(formatMoney(d('-0.001'), 2)).toBe('0.00');
  });
});

describe('gross prices', () => {
  it('finds the net whose net plus tax equals the gross when one exists', () => {
    expect(netOfGross(d('119.00'), d('19'), 2).toFixed(2)).toBe('100.00');
    expect(netOfGross(d('60.02'), d('19'), 2).toFixed(2)).toBe('50.44');
    expect(netOfGross(d('5.00'), d('0'), 2).toFixed(2)).toBe('5.00');
  });

  it('takes the nearest net when no net meets the gross exactly', () => {
    // 1.03 at 19 %: 0.86 + 0.16 = 1.02, 0.87 + 0.17 = 1.04; round(1.03 / 1.19) = 0.87 wins the tie.
    const net = netOfGross(d('1.03'), d('19'), 2);
    expect(net.toFixed(2)).toBe('0.87');
    expect(taxOf(net, d('19'), 2).toFixed(2)).toBe('0.17');
  });

  it('apportions a total by largest remainder and leaves zero shares alone', () => {
    const shares = [d('0.99').dividedBy(1.19), d('0.04').dividedBy(1.19), d('0')];
    expect(apportion(d('0.87'), shares, 2).map((a) => a.toFixed(2))).toEqual(['0.83', '0.04', '0.00']);
    expect(apportion(d('0.86'), shares, 2).map((a) => a.toFixed(2))).toEqual(['0.83', '0.03', '0.00']);
    expect(apportion(d('-1'), [d('-0.4'), d('-0.4'), d('-0.2')], 0).map((a) => a.toFixed(0))).toEqual(['-1', '0', '0']);
  });
});

describe('invoice arithmetic', () => {
  const line = (
    quantity: string,
    unitPrice: string,
    vatRate: string,
    extra: Partial<LineFigures> = {},
  ): LineFigures => ({
    quantity: d(quantity),
    unitPrice: d(unitPrice),
    discountPercent: null,
    vatRate: d(vatRate),
    vatCategory: d(vatRate).isZero() ? 'Z' : 'S',
    ...extra,
  });

  it('computes lines, the breakdown per category and rate, and the totals', () => {
    const result = calculateInvoice(
      [
        line('3', '20.50', '19'),
        line('0.5', '0.25', '7'),
        line('1', '100', '19', { discountPercent: d('100') }),
        line('1', '3.37', '7'),
      ],
      { digits: 2, pricesIncludeTax: false },
    );
    expect(result.lineNetAmounts.map((a) => a.toFixed(2))).toEqual(['61.50', '0.13', '0.00', '3.37']);
    expect(
      result.vatBreakdown.map((g) => [
        g.vatCategory,
        g.vatRate.toFixed(),
        g.taxableAmount.toFixed(2),
        g.taxAmount.toFixed(2),
      ]),
    ).toEqual([
      ['S', '19', '61.50', '11.69'],
      ['S', '7', '3.50', '0.25'],
    ]);
    expect(Object.fromEntries(Object.entries(result.totals).map(([k, v]) => [k, v.toFixed(2)]))).toEqual({
      lineNetTotal: '65.00',
      allowanceTotal: '0.00',
      chargeTotal: '0.00',
      taxExclusive: '65.00',
      taxTotal: '11.94',
      taxInclusive: '76.94',
      roundingAmount: '0.00',
      payable: '76.94',
    });
  });

  it('groups equal rates written differently together', () => {
    const result = calculateInvoice([line('1', '1', '19'), line('1', '1', '19.00')], {
      digits: 2,
      pricesIncludeTax: false,
    });
    expect(result.vatBreakdown).toHaveLength(1);
  });

  it('makes payable equal the sum of the line grosses when prices include tax', () => {
    const result = calculateInvoice([line('3', '19.99', '19'), line('2', '1.07', '7')], {
      digits: 2,
      pricesIncludeTax: true,
    });
    expect(result.totals.payable.toFixed(2)).toBe('62.11');
    expect(result.totals.roundingAmount.toFixed(2)).toBe('0.01');
  });

  const adjustment = (
    amount: string,
    vatRate: string,
    vatCategory: LineFigures['vatCategory'] = 'S',
  ): AllowanceChargeFigures => ({
    amount: d(amount),
    reason: 'Test',
    vatCategory,
    vatRate: d(vatRate),
  });
  const fixed = (values: Decimal[]) => values.map((v) => v.toFixed(2));

  it('subtracts document allowances and adds charges in the totals and in their VAT group (BR-CO-13, BR-S-08)', () => {
    const result = calculateInvoice(
      [line('1', '100', '19'), line('1', '50', '7')],
      { digits: 2, pricesIncludeTax: false },
      {
        allowances: [adjustment('10', '19')],
        charges: [adjustment('5', '7')],
      },
    );
    expect(
      result.vatBreakdown.map((g) => [g.vatRate.toFixed(), g.taxableAmount.toFixed(2), g.taxAmount.toFixed(2)]),
    ).toEqual([
      ['19', '90.00', '17.10'],
      ['7', '55.00', '3.85'],
    ]);
    const { lineNetTotal, allowanceTotal, chargeTotal, taxExclusive, taxTotal, payable } = result.totals;
    expect(fixed([lineNetTotal, allowanceTotal, chargeTotal, taxExclusive, taxTotal, payable])).toEqual([
      '150.00',
      '10.00',
      '5.00',
      '145.00',
      '20.95',
      '165.95',
    ]);
  });

  it('gives a charge whose category and rate no line has a VAT group of its own', () => {
    const result = calculateInvoice(
      [line('1', '100', '19')],
      { digits: 2, pricesIncludeTax: false },
      { charges: [adjustment('4.99', '0', 'Z')] },
    );
    expect(
      result.vatBreakdown.map((g) => [g.vatCategory, g.lineIndexes, g.chargeIndexes, g.taxableAmount.toFixed(2)]),
    ).toEqual([
      ['S', [0], [], '100.00'],
      ['Z', [], [0], '4.99'],
    ]);
    expect(result.totals.payable.toFixed(2)).toBe('123.99');
  });

  it('reads allowance and charge amounts as gross when prices include tax and derives their nets', () => {
    const result = calculateInvoice(
      [line('1', '119', '19')],
      { digits: 2, pricesIncludeTax: true },
      { allowances: [adjustment('11.90', '19')] },
    );
    expect(fixed(result.allowanceAmounts)).toEqual(['10.00']);
    expect(fixed(result.lineNetAmounts)).toEqual(['100.00']);
    expect(
      fixed([result.totals.taxExclusive, result.totals.taxTotal, result.totals.roundingAmount, result.totals.payable]),
    ).toEqual(['90.00', '17.10', '0.00', '107.10']);
  });

  it('keeps payable equal to what the customer saw when gross allowances do not divide evenly', () => {
    const result = calculateInvoice(
      [line('3', '19.99', '19'), line('2', '1.07', '7')],
      { digits: 2, pricesIncludeTax: true },
      {
        allowances: [adjustment('0.99', '19')],
        charges: [adjustment('4.95', '7')],
      },
    );
    // 59.97 − 0.99 + 2.14 + 4.95 = 66.07, whatever the nets come to.
    expect(result.totals.payable.toFixed(2)).toBe('66.07');
    expect(result.totals.roundingAmount.abs().lessThanOrEqualTo('0.02')).toBe(true);
  });
});
