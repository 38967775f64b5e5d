import type { Decimal } from '../../money/decimal.js';
import { shadowedInCii, type RuleContext } from './en16931-core.js';
import { decimalsOf, dec, isVatScheme, present, round0, round2, sum } from './finding.js';

// The EN 16931 calculation rules, re-done exactly with decimal.js: BR-CO-10 … BR-CO-17 (totals,
// VAT total, VAT breakdown) and the decimals of every amount (BR-DEC-…). Rounding is XPath's
// round(x × 100) div 100, as the official rules have it. BR-CO-17 allows a difference of one
// unit; a tax that differs from the exact product at all is reported as a warning of our own.

const equal = (a: Decimal | null, b: Decimal | null) => a !== null && b !== null && a.equals(b);

function totals({ doc, syntax, add }: RuleContext): void {
  const t = doc.totals;
  const lineNet = dec(t.lineNetTotal);
  const allowanceTotal = dec(t.allowanceTotal);
  const chargeTotal = dec(t.chargeTotal);
  const taxExclusive = dec(t.taxExclusive);
  const taxTotal = dec(t.taxTotal);
  const taxInclusive = dec(t.taxInclusive);
  const prepaid = dec(t.prepaid);
  const rounding = dec(t.roundingAmount);
  const payable = dec(t.payable);
  // Without the totals group (BG-22) at all, its rules have no context: the structure says it is missing.
  const group =
    [
      t.lineNetTotal,
      t.allowanceTotal,
      t.chargeTotal,
      t.taxExclusive,
      t.taxInclusive,
      t.prepaid,
      t.roundingAmount,
      t.payable,
    ].some(present) ||
    (syntax === 'cii' && present(t.taxTotal));
  // CII states the VAT total's currency (or not); the rules count it only in the document currency.
  const taxTotalInCurrency =
    taxTotal !== null && (t.taxTotalCurrency === undefined || t.taxTotalCurrency === doc.currency.code);
  fifteen(doc, taxExclusive, taxTotalInCurrency ? taxTotal : null, taxInclusive, syntax, add);
  if (
    syntax === 'cii'
      ? taxTotalInCurrency && !taxTotal.equals(round2(sum(doc.vatBreakdown.map((b) => dec(b.taxAmount)))))
      : doc.vatBreakdown.length > 0 && !equal(taxTotal, round2(sum(doc.vatBreakdown.map((b) => dec(b.taxAmount)))))
  ) {
    add(
      'BR-CO-14',
      'BT-110',
      'totals.taxTotal',
      `The VAT breakdown's taxes sum to ${round2(sum(doc.vatBreakdown.map((b) => dec(b.taxAmount)))).toFixed()}, not ${t.taxTotal ?? 'absent'} (BT-110).`,
    );
  }
  if (!group) return;
  const lineSum = round2(sum(doc.lines.map((l) => dec(l.netAmount))));
  if (!equal(lineNet, lineSum))
    add(
      'BR-CO-10',
      'BT-106',
      'totals.lineNetTotal',
      `The sum of line net amounts is ${lineSum.toFixed()}, not ${t.lineNetTotal ?? 'absent'} (BT-106).`,
    );
  const check = (
    total: Decimal | null,
    text: string | null,
    items: { amount: string | null }[],
    rule: string,
    term: string,
    field: string,
  ) => {
    const expected = round2(sum(items.map((i) => dec(i.amount))));
    const holds = (!present(text) && items.length === 0) || equal(total, expected);
    if (!holds)
      add(
        rule,
        term,
        field,
        `The document ${term === 'BT-107' ? 'allowances' : 'charges'} sum to ${expected.toFixed()}, not ${text ?? 'absent'} (${term}).`,
      );
  };
  check(allowanceTotal, t.allowanceTotal, doc.allowances, 'BR-CO-11', 'BT-107', 'totals.allowanceTotal');
  check(chargeTotal, t.chargeTotal, doc.charges, 'BR-CO-12', 'BT-108', 'totals.chargeTotal');
  if (lineNet !== null && (!present(t.allowanceTotal) || allowanceTotal) && (!present(t.chargeTotal) || chargeTotal)) {
    let expected = lineNet;
    if (allowanceTotal) expected = expected.minus(allowanceTotal);
    if (chargeTotal) expected = expected.plus(chargeTotal);
    if (!equal(taxExclusive, round2(expected)))
      add(
        'BR-CO-13',
        'BT-109',
        'totals.taxExclusive',
        `The total without VAT should be ${round2(expected).toFixed()}, not ${t.taxExclusive ?? 'absent'} (BT-109).`,
      );
  } else {
    add(
      'BR-CO-13',
      'BT-109',
      'totals.taxExclusive',
      'The total without VAT (BT-109) cannot be checked: an amount it is made of is missing.',
    );
  }
  if (
    taxInclusive !== null &&
    payable !== null &&
    (!present(t.prepaid) || prepaid) &&
    (!present(t.roundingAmount) || rounding)
  ) {
    let expected = taxInclusive;
    if (prepaid) expected = expected.minus(prepaid);
    if (rounding) expected = expected.plus(rounding);
    // UBL's artefact rounds each side to two decimals first; CII's and ours compare exactly.
    const holds =
      syntax === 'ubl'
        ? round2(rounding ? payable.minus(rounding) : payable).equals(
            prepaid ? round2(taxInclusive.minus(prepaid)) : taxInclusive,
          ) &&
          (rounding !== null || prepaid !== null || payable.equals(taxInclusive))
        : payable.equals(expected);
    if (!holds)
      add(
        'BR-CO-16',
        'BT-115',
        'totals.payable',
        `The amount due should be ${expected.toFixed()}, not ${t.payable} (BT-115).`,
      );
  } else {
    add(
      'BR-CO-16',
      'BT-115',
      'totals.payable',
      'The amount due (BT-115) cannot be checked: an amount it is made of is missing.',
    );
  }
}

/** BR-CO-15, for each document currency there is (none: nothing to check). */
function fifteen(
  doc: RuleContext['doc'],
  taxExclusive: Decimal | null,
  taxTotal: Decimal | null,
  taxInclusive: Decimal | null,
  syntax: RuleContext['syntax'],
  add: RuleContext['add'],
): void {
  if (!present(doc.currency.code)) return;
  const withTax = taxExclusive && taxTotal ? round2(taxExclusive.plus(taxTotal)) : null;
  const holds =
    syntax === 'cii' ? equal(taxInclusive, withTax) || equal(taxInclusive, taxExclusive) : equal(taxInclusive, withTax);
  if (!holds)
    add(
      'BR-CO-15',
      'BT-112',
      'totals.taxInclusive',
      `The total with VAT should be the total without VAT plus the VAT total${withTax ? `, ${withTax.toFixed()}` : ''}, not ${doc.totals.taxInclusive ?? 'absent'} (BT-112).`,
    );
}

function breakdownTaxes({ doc, syntax, add }: RuleContext): void {
  doc.vatBreakdown.forEach((entry, i) => {
    if (syntax === 'cii' && shadowedInCii(entry)) return;
    const tax = dec(entry.taxAmount);
    const taxable = dec(entry.taxableAmount);
    const rate = isVatScheme(entry) ? dec(entry.vatRate) : null;
    const field = `vatBreakdown[${i}].taxAmount`;
    let holds: boolean;
    if (rate === null) holds = tax !== null && round0(tax).isZero();
    else if (round0(rate).isZero()) holds = tax !== null && round0(tax).isZero();
    else if (tax === null || taxable === null) holds = false;
    else {
      const expected = round2(taxable.abs().times(rate.dividedBy(100)));
      const low = tax.abs().minus(1);
      const high = tax.abs().plus(1);
      holds =
        syntax === 'cii'
          ? low.lessThanOrEqualTo(expected) && high.greaterThanOrEqualTo(expected)
          : low.lessThan(expected) && high.greaterThan(expected);
      if (holds && !round2(taxable.times(rate).dividedBy(100)).equals(tax)) {
        add(
          'BR-CO-17',
          'BT-117',
          field,
          `The tax is ${entry.taxAmount}, but ${entry.taxableAmount} × ${entry.vatRate} % is ${round2(taxable.times(rate).dividedBy(100)).toFixed(2)}; within the one-unit tolerance of the rule, but not exact.`,
          'warning',
        );
      }
    }
    if (!holds)
      add(
        'BR-CO-17',
        'BT-117',
        field,
        `The tax ${entry.taxAmount ?? '(absent)'} is not the taxable amount times the rate, rounded to two decimals (BT-117).`,
      );
  });
}

function decimals({ doc, syntax, add }: RuleContext): void {
  const over = (text: string | null | undefined) => present(text) && decimalsOf(text) > 2;
  const rule = (text: string | null | undefined, id: string, term: string, field: string) => {
    if (over(text)) add(id, term, field, `${term} has more than two decimals (${text}).`);
  };
  doc.allowances.forEach((a, i) => {
    rule(a.amount, 'BR-DEC-01', 'BT-92', `allowances[${i}].amount`);
    rule(a.baseAmount, 'BR-DEC-02', 'BT-93', `allowances[${i}].baseAmount`);
  });
  doc.charges.forEach((c, i) => {
    rule(c.amount, 'BR-DEC-05', 'BT-99', `charges[${i}].amount`);
    rule(c.baseAmount, 'BR-DEC-06', 'BT-100', `charges[${i}].baseAmount`);
  });
  const t = doc.totals;
  rule(t.lineNetTotal, 'BR-DEC-09', 'BT-106', 'totals.lineNetTotal');
  rule(t.allowanceTotal, 'BR-DEC-10', 'BT-107', 'totals.allowanceTotal');
  rule(t.chargeTotal, 'BR-DEC-11', 'BT-108', 'totals.chargeTotal');
  rule(t.taxExclusive, 'BR-DEC-12', 'BT-109', 'totals.taxExclusive');
  const numeric = (text: string | null | undefined) =>
    present(text) && dec(text) !== null && !dec(text)!.equals(round2(dec(text)!));
  // UBL's BR-DEC-13 and -15 select the amount by a currency path relative to itself, which never matches.
  // In CII these two look for a VAT total of the right currency with two decimals among all there are.
  const inCurrency = t.taxTotalCurrency === doc.currency.code;
  const thirteen =
    syntax === 'cii'
      ? inCurrency && numeric(t.taxTotal) && !present(t.taxTotalAccounting)
      : syntax === null && over(t.taxTotal);
  const fifteenOk =
    !present(doc.taxCurrencyCode) ||
    (!present(t.taxTotal) && !present(t.taxTotalAccounting)) ||
    (present(t.taxTotalAccounting) && !numeric(t.taxTotalAccounting)) ||
    (doc.taxCurrencyCode === doc.currency.code && inCurrency && !numeric(t.taxTotal));
  if (thirteen) add('BR-DEC-13', 'BT-110', 'totals.taxTotal', `BT-110 has more than two decimals (${t.taxTotal}).`);
  rule(t.taxInclusive, 'BR-DEC-14', 'BT-112', 'totals.taxInclusive');
  if (syntax === 'cii' ? !fifteenOk : syntax === null && over(t.taxTotalAccounting))
    add(
      'BR-DEC-15',
      'BT-111',
      'totals.taxTotalAccounting',
      `BT-111 has more than two decimals (${t.taxTotalAccounting}).`,
    );
  rule(t.prepaid, 'BR-DEC-16', 'BT-113', 'totals.prepaid');
  rule(t.roundingAmount, 'BR-DEC-17', 'BT-114', 'totals.roundingAmount');
  rule(t.payable, 'BR-DEC-18', 'BT-115', 'totals.payable');
  doc.vatBreakdown.forEach((b, i) => {
    if (syntax === 'cii' && shadowedInCii(b)) return;
    rule(b.taxableAmount, 'BR-DEC-19', 'BT-116', `vatBreakdown[${i}].taxableAmount`);
    rule(b.taxAmount, 'BR-DEC-20', 'BT-117', `vatBreakdown[${i}].taxAmount`);
  });
  doc.lines.forEach((l, i) => {
    rule(l.netAmount, 'BR-DEC-23', 'BT-131', `lines[${i}].netAmount`);
    l.allowances.forEach((a, j) => {
      rule(a.amount, 'BR-DEC-24', 'BT-136', `lines[${i}].allowances[${j}].amount`);
      rule(a.baseAmount, 'BR-DEC-25', 'BT-137', `lines[${i}].allowances[${j}].baseAmount`);
    });
    (l.charges ?? []).forEach((c, j) => {
      rule(c.amount, 'BR-DEC-27', 'BT-141', `lines[${i}].charges[${j}].amount`);
      rule(c.baseAmount, 'BR-DEC-28', 'BT-142', `lines[${i}].charges[${j}].baseAmount`);
    });
  });
}

export const EN16931_ARITHMETIC = [totals, breakdownTaxes, decimals];
