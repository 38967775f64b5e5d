import { Decimal } from './decimal.js';
import { minorUnit, roundMoney, sum } from './money.js';

// Gross prices (pricesIncludeTax): the customer saw line totals that include VAT. The net of
// each (category, rate) group is derived from the group's gross sum, then apportioned to the
// group's lines, so that the EN 16931 identities hold exactly and the rounding difference is
// as small as it can be (at most one minor unit per group).

/** The tax of a net amount at a percent rate, the way the VAT breakdown computes it. */
export function taxOf(net: Decimal, ratePercent: Decimal, digits: number): Decimal {
  return roundMoney(net.times(ratePercent).dividedBy(100), digits);
}

/**
 * The group net N whose net + tax comes closest to the gross sum G: N + round(N × rate) = G when
 * such an N exists, otherwise the nearer of the two neighbours (the difference, one minor unit,
 * becomes the invoice's rounding amount). N + round(N × rate) grows by one or two minor units per
 * minor unit of N for rates up to 100 %, so the answer lies within one unit of round(G / (1 + rate)).
 */
export function netOfGross(gross: Decimal, ratePercent: Decimal, digits: number): Decimal {
  const unit = minorUnit(digits);
  const first = roundMoney(gross.times(100).dividedBy(ratePercent.plus(100)), digits);
  const candidates = [first, first.minus(unit), first.plus(unit)];
  let best = first;
  let bestGap: Decimal | undefined;
  for (const candidate of candidates) {
    const gap = gross
      .minus(candidate)
      .minus(taxOf(candidate, ratePercent, digits))
      .abs();
    if (bestGap === undefined || gap.lessThan(bestGap)) {
      best = candidate;
      bestGap = gap;
    }
  }
  return best;
}

/**
 * Splits `total` over lines in proportion to their exact shares (largest remainder): each line
 * first gets its share rounded half away from zero; the few minor units by which those roundings
 * miss the total go, one each, to the lines whose rounding moved furthest the other way (lower
 * line number first on ties). Lines with a zero share keep zero.
 */
export function apportion(total: Decimal, exactShares: Decimal[], digits: number): Decimal[] {
  const unit = minorUnit(digits);
  const amounts = exactShares.map((share) => roundMoney(share, digits));
  let missingUnits = total.minus(sum(amounts)).dividedBy(unit).toNumber();
  if (missingUnits === 0) return amounts;
  const step = missingUnits > 0 ? unit : unit.negated();
  // Adding to a line is fairest where rounding took the most away (largest exact - rounded).
  const order = exactShares
    .map((share, index) => ({ index, leftOver: share.minus(amounts[index]!) }))
    .filter(({ index }) => !exactShares[index]!.isZero())
    .sort((a, b) => {
      const byLeftOver = missingUnits > 0 ? b.leftOver.comparedTo(a.leftOver) : a.leftOver.comparedTo(b.leftOver);
      return byLeftOver !== 0 ? byLeftOver : a.index - b.index;
    });
  if (order.length === 0) throw new Error('apportion: a nonzero total cannot be split over zero shares');
  for (let i = 0; missingUnits !== 0; i = (i + 1) % order.length) {
    const index = order[i]!.index;
    amounts[index] = amounts[index]!.plus(step);
    missingUnits -= Math.sign(missingUnits);
  }
  return amounts;
}
