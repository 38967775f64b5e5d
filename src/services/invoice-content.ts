import type { ErrorDetail } from '../errors/app-error.js';
import { Decimal, plainDecimal } from '../money/decimal.js';
import { AMOUNT_INTEGER_DIGITS, isWithinAmountLimit, largestAmount } from '../money/limits.js';
import {
  calculateInvoice,
  type AllowanceChargeFigures,
  type InvoiceCalculation,
} from '../money/invoice-calculation.js';
import { formatMoney } from '../money/money.js';
import type { InvoiceRow } from '../repositories/invoice-repository.js';
import type { DraftLine } from './invoice-input.js';
import type { StoredVatBreakdown } from './invoice-mapping.js';
import { lineFieldsOf, type LineColumns } from './stored-line.js';

// The stored form of computed content, shared by invoices and credit notes: amounts as decimal
// text with exactly the currency's digits, lines as rows.

export type ComputedTotals = Pick<
  InvoiceRow,
  | 'vat_breakdown'
  | 'line_net_total'
  | 'allowance_total'
  | 'charge_total'
  | 'tax_exclusive'
  | 'tax_total'
  | 'tax_inclusive'
  | 'rounding_amount'
  | 'payable'
>;

/** A line's stored columns, without the document it belongs to. */
export type { LineColumns };

export interface ComputedContent {
  calculation: InvoiceCalculation;
  totals: ComputedTotals;
  lines: LineColumns[];
}

export function computeContent(
  lines: DraftLine[],
  options: { digits: number; pricesIncludeTax: boolean },
  adjustments: { allowances: AllowanceChargeFigures[]; charges: AllowanceChargeFigures[] } = {
    allowances: [],
    charges: [],
  },
): ComputedContent {
  const { digits } = options;
  const money = (value: Parameters<typeof formatMoney>[0]) => formatMoney(value, digits);
  const calculation = calculateInvoice(lines, { digits, pricesIncludeTax: options.pricesIncludeTax }, adjustments);
  const rows: LineColumns[] = lines.map((line, index) => ({
    position: index + 1,
    name: line.name,
    description: line.description,
    quantity: plainDecimal(line.quantity),
    unit_code: line.unitCode,
    unit_price: plainDecimal(line.unitPrice),
    discount_percent: line.discountPercent === null ? null : plainDecimal(line.discountPercent),
    vat_rate: plainDecimal(line.vatRate),
    vat_category: line.vatCategory,
    exemption_reason: line.exemptionReason,
    net_amount: money(calculation.lineNetAmounts[index]!),
  }));
  const breakdown: StoredVatBreakdown[] = calculation.vatBreakdown.map((group) => ({
    vatCategory: group.vatCategory,
    vatRate: plainDecimal(group.vatRate),
    taxableAmount: money(group.taxableAmount),
    taxAmount: money(group.taxAmount),
    // EN 16931 carries one exemption reason per breakdown entry: the group's first.
    exemptionReason: group.lineIndexes.map((i) => lines[i]!.exemptionReason).find((r) => r !== null) ?? null,
  }));
  const { totals } = calculation;
  return {
    calculation,
    lines: rows,
    totals: {
      vat_breakdown: JSON.stringify(breakdown),
      line_net_total: money(totals.lineNetTotal),
      allowance_total: money(totals.allowanceTotal),
      charge_total: money(totals.chargeTotal),
      tax_exclusive: money(totals.taxExclusive),
      tax_total: money(totals.taxTotal),
      tax_inclusive: money(totals.taxInclusive),
      rounding_amount: money(totals.roundingAmount),
      payable: money(totals.payable),
    },
  };
}

const TOTAL_NAMES: [keyof ComputedTotals, string, string][] = [
  ['line_net_total', 'totals.lineNetTotal', 'sum of line net amounts'],
  ['allowance_total', 'totals.allowanceTotal', 'allowance total'],
  ['charge_total', 'totals.chargeTotal', 'charge total'],
  ['tax_exclusive', 'totals.taxExclusive', 'total without VAT'],
  ['tax_total', 'totals.taxTotal', 'VAT total'],
  ['tax_inclusive', 'totals.taxInclusive', 'total with VAT'],
  ['payable', 'totals.payable', 'amount payable'],
];

/**
 * Every amount of a document's content (computed, or as stored) above the largest amount there
 * is (src/money/limits.ts), as details that name the limit: such a document could never be paid,
 * credited or written as an e-invoice, so it is refused before anything is stored.
 */
export function oversizedAmounts(
  content: { lines: Pick<LineColumns, 'net_amount'>[]; totals: ComputedTotals },
  digits: number,
  noun: 'invoice' | 'credit note' | 'quote',
): ErrorDetail[] {
  const maximum = largestAmount(digits);
  const limit = `an amount is at most ${maximum} (${AMOUNT_INTEGER_DIGITS} digits before the decimal point), what a payment, a credit note and an e-invoice can carry.`;
  const details: ErrorDetail[] = [];
  content.lines.forEach((line, index) => {
    if (!isWithinAmountLimit(line.net_amount)) {
      details.push({
        field: `lines[${index}]`,
        code: 'amount_too_large',
        message: `The line's net amount would be ${line.net_amount}: ${limit}`,
        maximum,
      });
    }
  });
  const breakdown = JSON.parse(content.totals.vat_breakdown) as StoredVatBreakdown[];
  const totals: [string, string, string][] = [
    ...TOTAL_NAMES.map(([column, field, name]): [string, string, string] => [
      field,
      name,
      content.totals[column] ?? '0',
    ]),
    ...breakdown.flatMap((group, i): [string, string, string][] => [
      [
        `vatBreakdown[${i}].taxableAmount`,
        `taxable amount at ${group.vatCategory} ${group.vatRate} %`,
        group.taxableAmount,
      ],
      [`vatBreakdown[${i}].taxAmount`, `VAT at ${group.vatCategory} ${group.vatRate} %`, group.taxAmount],
    ]),
  ];
  for (const [field, name, value] of totals) {
    if (!isWithinAmountLimit(value))
      details.push({
        field,
        code: 'total_too_large',
        message: `The ${noun}'s ${name} would be ${value}: ${limit}`,
        maximum,
      });
  }
  return details;
}

/** A stored line as the arithmetic takes it. */
export function draftLineOf(line: LineColumns, negate = false): DraftLine {
  const fields = lineFieldsOf(line);
  const quantity = new Decimal(fields.quantity);
  return {
    ...fields,
    quantity: negate ? quantity.negated() : quantity,
    unitPrice: new Decimal(fields.unitPrice),
    discountPercent: fields.discountPercent === null ? null : new Decimal(fields.discountPercent),
    vatRate: new Decimal(fields.vatRate),
  };
}
