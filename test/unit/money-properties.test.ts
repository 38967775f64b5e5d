import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/money/decimal.js';
import { apportion } from '../../src/money/gross-prices.js';
import { minorUnit, sum } from '../../src/money/money.js';
import { readInvoiceInput } from '../../src/services/invoice-input.js';
import {
  calculateInvoice,
  type AllowanceChargeFigures,
  type VatCategory,
} from '../../src/money/invoice-calculation.js';
import { formatMoney } from '../../src/money/money.js';
import { plainDecimal } from '../../src/money/decimal.js';
import type { CreateInvoiceInput } from '../../src/schemas/invoice.js';
import { validAdjustments, validInvoiceFields } from '../helpers/invoice-arbitraries.js';
import { expectIdentities, type Answer } from '../helpers/invoice-identities.js';

// The arithmetic alone, without HTTP or a database, over many more random invoices.

describe('invoice arithmetic properties', () => {
  it('keeps every EN 16931 identity exact and every amount within the currency digits, with document allowances and charges', () => {
    fc.assert(
      fc.property(validInvoiceFields, validAdjustments, (fields, adjustments) => {
        const read = readInvoiceInput({ organizationId: 'org_x', ...fields } as CreateInvoiceInput, {
          currency: 'EUR',
          now: new Date(),
        });
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        const draft = read.value;
        const money = (v: Decimal) => formatMoney(v, draft.digits);
        const figures = (list: typeof adjustments.allowances): AllowanceChargeFigures[] =>
          list.map((a) => ({
            amount: new Decimal(a.amount),
            reason: a.reason,
            vatCategory: a.vatCategory as VatCategory,
            vatRate: new Decimal(a.vatRate),
          }));
        const allowances = figures(adjustments.allowances);
        const charges = figures(adjustments.charges);
        const result = calculateInvoice(
          draft.lines,
          { digits: draft.digits, pricesIncludeTax: draft.pricesIncludeTax },
          { allowances, charges },
        );
        const adjustment = (given: AllowanceChargeFigures, net: Decimal) => ({
          amount: money(net),
          given: plainDecimal(given.amount),
          vatCategory: given.vatCategory,
          vatRate: plainDecimal(given.vatRate),
        });
        const answer: Answer = {
          currency: draft.currency,
          pricesIncludeTax: draft.pricesIncludeTax,
          lines: draft.lines.map((line, i) => ({
            quantity: plainDecimal(line.quantity),
            unitPrice: plainDecimal(line.unitPrice),
            discountPercent: line.discountPercent === null ? null : plainDecimal(line.discountPercent),
            vatRate: plainDecimal(line.vatRate),
            vatCategory: line.vatCategory,
            netAmount: money(result.lineNetAmounts[i]!),
          })),
          vatBreakdown: result.vatBreakdown.map((g) => ({
            vatCategory: g.vatCategory,
            vatRate: plainDecimal(g.vatRate),
            taxableAmount: money(g.taxableAmount),
            taxAmount: money(g.taxAmount),
          })),
          allowances: allowances.map((a, i) => adjustment(a, result.allowanceAmounts[i]!)),
          charges: charges.map((c, i) => adjustment(c, result.chargeAmounts[i]!)),
          totals: {
            lineNetTotal: money(result.totals.lineNetTotal),
            allowanceTotal: money(result.totals.allowanceTotal),
            chargeTotal: money(result.totals.chargeTotal),
            taxExclusive: money(result.totals.taxExclusive),
            taxTotal: money(result.totals.taxTotal),
            taxInclusive: money(result.totals.taxInclusive),
            roundingAmount: money(result.totals.roundingAmount),
            payable: money(result.totals.payable),
          },
        };
        expectIdentities(answer);
      }),
      { numRuns: 2000 },
    );
  });

  it('apportions any total exactly, each share within a few units of its exact value', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -100_000, max: 100_000 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: -2, max: 2 }),
        fc.constantFrom(0, 2, 3),
        (grossUnits, offset, digits) => {
          const unit = minorUnit(digits);
          const shares = grossUnits.map((g) => new Decimal(g).times(unit).dividedBy('1.19'));
          if (shares.every((s) => s.isZero())) return;
          const target = sum(shares).toDecimalPlaces(digits).plus(unit.times(offset));
          const parts = apportion(target, shares, digits);
          expect(sum(parts).equals(target)).toBe(true);
          parts.forEach((p, i) => {
            expect(p.decimalPlaces()).toBeLessThanOrEqual(digits);
            if (shares[i]!.isZero()) expect(p.isZero()).toBe(true);
          });
        },
      ),
      { numRuns: 1000 },
    );
  });
});
