import { plainDecimal, type Decimal } from '../money/decimal.js';
import {
  extendedAmount,
  type AllowanceChargeFigures,
  type InvoiceCalculation,
  type LineFigures,
} from '../money/invoice-calculation.js';
import { formatMoney } from '../money/money.js';
import { UNCL5305 } from './code-lists.js';
import { linePrice } from './line-price.js';
import type { DocumentAllowanceCharge, DocumentLine, DocumentView, VatBreakdownEntry } from './model.js';

// From what an invoice stores (its inputs) and what our arithmetic computed to the view. This
// is the one place that decides EN 16931 presentation: the price of each line (line-price.ts),
// which exemption reason a VAT group carries, and what a document outside the scope of VAT
// leaves out. Amounts become text in the currency's minor unit here, and nowhere else.

export interface DocumentLineInput extends LineFigures {
  name: string;
  description: string | null;
  unitCode: string;
  exemptionReason: string | null;
}

/** Everything of the view except what the arithmetic decides. */
export type DocumentInput = Omit<DocumentView, 'lines' | 'allowances' | 'charges' | 'vatBreakdown' | 'totals'> & {
  lines: DocumentLineInput[];
  allowances: AllowanceChargeFigures[];
  charges: AllowanceChargeFigures[];
};

const DISCOUNT_REASON_CODE = '95';

/**
 * Builds the view from a calculation already made (the one stored with the invoice). The one
 * builder of a view: src/services/document-view.ts calls it for every stored document.
 */
export function documentViewFrom(input: DocumentInput, calculation: InvoiceCalculation): DocumentView {
  const digits = input.currency.minorDigits;
  const money = (value: Decimal) => formatMoney(value, digits);

  const lines: DocumentLine[] = input.lines.map((line, index) => {
    const netAmount = calculation.lineNetAmounts[index]!;
    const price = linePrice({ ...line, netAmount, pricesIncludeTax: input.pricesIncludeTax, digits });
    const discount = price.discount;
    return {
      id: String(index + 1),
      name: line.name,
      description: line.description,
      quantity: plainDecimal(line.quantity),
      unitCode: line.unitCode,
      price: {
        amount: plainDecimal(price.amount),
        baseQuantity: price.baseQuantity === null ? null : plainDecimal(price.baseQuantity),
      },
      allowances: discount
        ? [
            {
              amount: money(discount.amount),
              baseAmount: discount.exact ? money(discount.baseAmount) : null,
              percent: discount.exact ? plainDecimal(discount.percent) : null,
              reason: `Discount ${plainDecimal(discount.percent)} %`,
              reasonCode: DISCOUNT_REASON_CODE,
            },
          ]
        : [],
      netAmount: money(netAmount),
      vatCategory: line.vatCategory,
      vatRate: plainDecimal(line.vatRate),
      unitPriceAsGiven: plainDecimal(line.unitPrice),
      discountPercent: line.discountPercent === null ? null : plainDecimal(line.discountPercent),
      amountAsGiven: money(extendedAmount(line)),
    };
  });

  const adjustment = (given: AllowanceChargeFigures, net: Decimal): DocumentAllowanceCharge => ({
    amount: money(net),
    amountAsGiven: money(given.amount),
    reason: given.reason ?? null,
    reasonCode: given.reasonCode ?? null,
    vatCategory: given.vatCategory,
    vatRate: plainDecimal(given.vatRate),
  });

  const vatBreakdown: VatBreakdownEntry[] = calculation.vatBreakdown.map((group) => {
    const rules = UNCL5305[group.vatCategory];
    // EN 16931 carries one reason per breakdown entry: the group's first line's, else the
    // category's standard one; categories that forbid a reason (S, Z) carry none.
    const given =
      group.lineIndexes.map((i) => input.lines[i]!.exemptionReason).find((r) => r !== null && r.trim() !== '') ?? null;
    const required = rules.exemption === 'required';
    return {
      vatCategory: group.vatCategory,
      vatRate: plainDecimal(group.vatRate),
      taxableAmount: money(group.taxableAmount),
      taxAmount: money(group.taxAmount),
      exemptionReason: required ? (given ?? rules.defaultExemption?.text ?? null) : null,
      exemptionReasonCode: required ? (rules.defaultExemption?.code ?? null) : null,
    };
  });

  // A document wholly outside the scope of VAT states no VAT identifiers (BR-O-02).
  const categories = new Set(vatBreakdown.map((g) => g.vatCategory));
  const outsideScope = categories.size === 1 && categories.has('O');
  // An intra-community supply names the country delivered to (BR-IC-12): without a deliver-to
  // address of its own, goods go to the buyer's address.
  const deliverTo = input.deliverTo ?? (categories.has('K') ? { name: null, address: input.buyer.address } : null);
  const { totals } = calculation;
  const { allowances: _a, charges: _c, lines: _l, ...header } = input;
  return {
    ...header,
    deliverTo,
    // A cash-discount line (#SKONTO#…#) must be followed by a line break (BR-DE-18, DE-R-018).
    paymentTerms:
      input.paymentTerms && /#\s*$/.test(input.paymentTerms) ? `${input.paymentTerms.trimEnd()}\n` : input.paymentTerms,
    seller: outsideScope ? { ...input.seller, vatId: null } : input.seller,
    buyer: outsideScope ? { ...input.buyer, vatId: null } : input.buyer,
    paymentMeans: input.paymentMeans && {
      ...input.paymentMeans,
      remittanceInformation: input.paymentMeans.remittanceInformation ?? input.number,
    },
    allowances: input.allowances.map((a, i) => adjustment(a, calculation.allowanceAmounts[i]!)),
    charges: input.charges.map((c, i) => adjustment(c, calculation.chargeAmounts[i]!)),
    lines,
    vatBreakdown,
    totals: {
      lineNetTotal: money(totals.lineNetTotal),
      allowanceTotal: money(totals.allowanceTotal),
      chargeTotal: money(totals.chargeTotal),
      taxExclusive: money(totals.taxExclusive),
      taxTotal: money(totals.taxTotal),
      taxInclusive: money(totals.taxInclusive),
      roundingAmount: money(totals.roundingAmount),
      payable: money(totals.payable),
    },
  };
}
