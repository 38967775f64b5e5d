import { Decimal } from '../../money/decimal.js';
import type { Einvoice } from '../einvoice-model.js';
import type { RuleContext } from './en16931-core.js';
import { code, dec, isVatScheme, present, round2, sum } from './finding.js';

// The EN 16931 VAT category rules, one family per UNTDID 5305 code: S (BR-S), Z (BR-Z), E (BR-E),
// AE (BR-AE), K (BR-IC), G (BR-G), O (BR-O), L (BR-AF, IGIC), M (BR-AG, IPSI), and B (BR-B, split
// payment). Each family states, as data, what its rules ask; the checks below are shared. Where
// the official UBL and CII artefacts differ (a tolerance of one unit, or none), `syntax` decides.

interface Family {
  category: string;
  prefix: string;
  /** -05 … -07: the rate of lines, allowances and charges. */
  rate: 'positive' | 'zero' | 'none' | 'nonNegative';
  /** -10: an exemption reason is required or forbidden. */
  exemption: 'required' | 'forbidden';
  /** -02 … -04: the seller's identifiers (any tax registration, a VAT id, or none). */
  seller: 'any' | 'vat' | 'none';
  /** -02 … -04: the buyer's. */
  buyer: 'vat' | 'vatOrLegal' | 'none' | null;
  /** -08 per rate (S, L, M) or per category; -09: tax at the rate, or zero. */
  byRate: boolean;
}

const FAMILIES: Family[] = [
  { category: 'S', prefix: 'BR-S', rate: 'positive', exemption: 'forbidden', seller: 'any', buyer: null, byRate: true },
  { category: 'Z', prefix: 'BR-Z', rate: 'zero', exemption: 'forbidden', seller: 'any', buyer: null, byRate: false },
  { category: 'E', prefix: 'BR-E', rate: 'zero', exemption: 'required', seller: 'any', buyer: null, byRate: false },
  {
    category: 'AE',
    prefix: 'BR-AE',
    rate: 'zero',
    exemption: 'required',
    seller: 'any',
    buyer: 'vatOrLegal',
    byRate: false,
  },
  { category: 'K', prefix: 'BR-IC', rate: 'zero', exemption: 'required', seller: 'vat', buyer: 'vat', byRate: false },
  { category: 'G', prefix: 'BR-G', rate: 'zero', exemption: 'required', seller: 'vat', buyer: null, byRate: false },
  { category: 'O', prefix: 'BR-O', rate: 'none', exemption: 'required', seller: 'none', buyer: 'none', byRate: false },
  {
    category: 'L',
    prefix: 'BR-AF',
    rate: 'nonNegative',
    exemption: 'forbidden',
    seller: 'any',
    buyer: null,
    byRate: true,
  },
  {
    category: 'M',
    prefix: 'BR-AG',
    rate: 'nonNegative',
    exemption: 'forbidden',
    seller: 'any',
    buyer: null,
    byRate: true,
  },
];

const is = (category: string) => (item: { vatCategory: string | null }) => code(item.vatCategory) === category;
/** The category, and given as a VAT category (most rule contexts ask for both). */
const isVat = (category: string) => (item: { vatCategory: string | null; taxScheme?: string | null }) =>
  is(category)(item) && isVatScheme(item);

function sellerMeets(doc: Einvoice, needs: Family['seller']): boolean {
  const representativeVat = present(doc.taxRepresentative?.vatId);
  if (needs === 'any') return present(doc.seller.vatId) || present(doc.seller.taxRegistrationId) || representativeVat;
  if (needs === 'vat') return present(doc.seller.vatId) || representativeVat;
  return !present(doc.seller.vatId) && !representativeVat;
}

function buyerMeets(doc: Einvoice, needs: Family['buyer']): boolean {
  if (needs === 'vat') return present(doc.buyer.vatId);
  if (needs === 'vatOrLegal') return present(doc.buyer.vatId) || doc.buyer.legalRegistrationId !== null;
  if (needs === 'none') return !present(doc.buyer.vatId);
  return true;
}

function rateOk(rate: string | null, family: Family, cii: boolean): boolean {
  const value = dec(rate);
  switch (family.rate) {
    case 'positive':
      return value !== null && value.greaterThan(0);
    case 'zero':
      return value !== null && value.isZero();
    case 'none':
      return !present(rate);
    case 'nonNegative':
      return value !== null && (cii && family.category === 'L' ? value.greaterThan(0) : !value.isNegative());
  }
}

/** Σ line nets + Σ charges − Σ allowances of a category (and rate), each sum rounded as the CII rules do. */
function basisOf(doc: Einvoice, family: Family, rate: Decimal | null, roundEach: boolean): Decimal {
  const match = (item: { vatCategory: string | null; vatRate: string | null }) =>
    is(family.category)(item) && (rate === null || (dec(item.vatRate)?.equals(rate) ?? false));
  const r = (d: Decimal) => (roundEach ? round2(d) : d);
  return r(sum(doc.lines.filter(match).map((l) => dec(l.netAmount))))
    .plus(r(sum(doc.charges.filter(match).map((c) => dec(c.amount)))))
    .minus(r(sum(doc.allowances.filter(match).map((a) => dec(a.amount)))));
}

function family({ doc, syntax, add }: RuleContext, f: Family): void {
  const cii = syntax === 'cii';
  const lines = doc.lines.filter(is(f.category));
  const allowances = doc.allowances.filter(is(f.category));
  const charges = doc.charges.filter(is(f.category));
  const breakdown = doc.vatBreakdown.filter(is(f.category));
  const vatLines = lines.filter(isVatScheme);
  const vatAllowances = allowances.filter(isVatScheme);
  const vatCharges = charges.filter(isVatScheme);
  const name = `VAT category ${f.category}`;
  // -01: the breakdown has this category exactly when the document uses it.
  const items = lines.length + allowances.length + charges.length;
  let first: boolean;
  if (f.byRate) {
    first = cii
      ? (lines.length + breakdown.length >= 2 || lines.length === 0) &&
        (allowances.length + charges.length + breakdown.length >= 2 || allowances.length + charges.length === 0)
      : (items > 0 && breakdown.length > 0) || (items === 0 && breakdown.length === 0);
  } else if (cii && f.category !== 'O') {
    first = (breakdown.length === 0 && items === 0) || (breakdown.length === 1 && items > 0);
  } else if (cii) {
    first = breakdown.length === 0 || (breakdown.length === 1 && items > 0);
  } else {
    // UBL counts only categories given in the VAT scheme, the breakdown's own among them.
    const vatBreakdown = breakdown.filter(isVatScheme).length;
    first = vatLines.length + vatAllowances.length + vatCharges.length + vatBreakdown === 0 || vatBreakdown === 1;
  }
  if (!first)
    add(
      `${f.prefix}-01`,
      'BT-118',
      'vatBreakdown',
      `The VAT breakdown must hold ${name} exactly when a line, allowance or charge uses it.`,
    );
  // -02 … -04: the parties' identifiers.
  const parties = sellerMeets(doc, f.seller) && buyerMeets(doc, f.buyer);
  if (!parties) {
    const who =
      f.seller === 'none'
        ? 'must not state the seller or buyer VAT identifiers'
        : "needs the seller's VAT identifier or tax registration" + (f.buyer ? " and the buyer's VAT identifier" : '');
    if (vatLines.length > 0) add(`${f.prefix}-02`, 'BT-31', 'seller.vatId', `A line of ${name} ${who}.`);
    if (vatAllowances.length > 0) add(`${f.prefix}-03`, 'BT-31', 'seller.vatId', `An allowance of ${name} ${who}.`);
    if (vatCharges.length > 0) add(`${f.prefix}-04`, 'BT-31', 'seller.vatId', `A charge of ${name} ${who}.`);
  }
  // UBL's BR-S-02 asks for a VAT-scheme S line whenever a line has S at all.
  if (f.category === 'S' && syntax !== 'cii' && lines.length > 0 && vatLines.length === 0)
    add('BR-S-02', 'BT-151', 'lines', 'A line of VAT category S is not given in the VAT scheme.');
  // -05 … -07: rates.
  const rateText =
    f.rate === 'positive' ? 'above 0' : f.rate === 'zero' ? '0' : f.rate === 'none' ? 'absent' : 'not negative';
  doc.lines.forEach((l, i) => {
    if (isVat(f.category)(l) && !rateOk(l.vatRate, f, cii))
      add(
        `${f.prefix}-05`,
        'BT-152',
        `lines[${i}].vatRate`,
        `A line of ${name} has a VAT rate that must be ${rateText}.`,
      );
  });
  doc.allowances.forEach((a, i) => {
    if (isVat(f.category)(a) && !rateOk(a.vatRate, f, cii))
      add(
        `${f.prefix}-06`,
        'BT-96',
        `allowances[${i}].vatRate`,
        `An allowance of ${name} has a VAT rate that must be ${rateText}.`,
      );
  });
  doc.charges.forEach((c, i) => {
    if (isVat(f.category)(c) && !rateOk(c.vatRate, f, cii))
      add(
        `${f.prefix}-07`,
        'BT-103',
        `charges[${i}].vatRate`,
        `A charge of ${name} has a VAT rate that must be ${rateText}.`,
      );
  });
  // -08 … -10: each breakdown entry of the category.
  doc.vatBreakdown.forEach((entry, i) => {
    if (!isVat(f.category)(entry)) return;
    const field = `vatBreakdown[${i}]`;
    const taxable = dec(entry.taxableAmount);
    const tax = dec(entry.taxAmount);
    const rate = dec(entry.vatRate);
    if (!basisHolds(doc, f, taxable, rate, cii))
      add(
        `${f.prefix}-08`,
        'BT-116',
        `${field}.taxableAmount`,
        `The taxable amount of ${name} is not the sum of its line nets and charges less its allowances.`,
      );
    if (!taxHolds(f, taxable, tax, rate, cii))
      add(
        `${f.prefix}-09`,
        'BT-117',
        `${field}.taxAmount`,
        f.byRate ? `The tax of ${name} is not its taxable amount times its rate.` : `The tax of ${name} must be 0.`,
      );
    const reason = present(entry.exemptionReason) || present(entry.exemptionReasonCode);
    if (f.exemption === 'required' && !reason)
      add(
        `${f.prefix}-10`,
        'BT-120',
        `${field}.exemptionReason`,
        `${name} needs an exemption reason (BT-120) or code (BT-121).`,
      );
    if (f.exemption === 'forbidden' && reason)
      add(`${f.prefix}-10`, 'BT-120', `${field}.exemptionReason`, `${name} has no exemption reason (BT-120, BT-121).`);
  });
}

function basisHolds(doc: Einvoice, f: Family, taxable: Decimal | null, rate: Decimal | null, cii: boolean): boolean {
  if (f.byRate) {
    if (rate === null) return true; // "every $rate in ()" holds
    // CII's BR-AF-08 and BR-AG-08 take the rate from the settlement, which has none: they always hold.
    if (cii && f.category !== 'S') return true;
    if (cii) return taxable !== null && taxable.equals(basisOf(doc, f, rate, true));
    const used = [...doc.lines, ...doc.allowances, ...doc.charges].some(
      (i) => is(f.category)(i) && (dec(i.vatRate)?.equals(rate) ?? false),
    );
    const basis = basisOf(doc, f, rate, false);
    return used && taxable !== null && withinOneAsDouble(taxable, basis);
  }
  if (taxable === null) return false;
  if (!cii) return taxable.equals(basisOf(doc, f, null, false));
  const basis = basisOf(doc, f, null, true);
  return f.category === 'O' ? taxable.equals(basis) : withinOneAsDouble(taxable, basis, true);
}

/**
 * taxable − 1 < basis < taxable + 1, as the official XPath computes it: taxable ± 1 on the untyped
 * text, so in binary floating point (183.23 − 1 is 182.229999999999989768…). UBL casts that back to
 * a decimal, exactly, and compares decimals; CII compares it as a double with the basis as a double.
 * At the edge of the tolerance only this reading agrees with the official rules.
 */
function withinOneAsDouble(taxable: Decimal, basis: Decimal, cii = false): boolean {
  const low = taxable.toNumber() - 1;
  const high = taxable.toNumber() + 1;
  if (cii) return low < basis.toNumber() && high > basis.toNumber();
  return new Decimal(low.toFixed(60)).lessThan(basis) && new Decimal(high.toFixed(60)).greaterThan(basis);
}

function taxHolds(
  f: Family,
  taxable: Decimal | null,
  tax: Decimal | null,
  rate: Decimal | null,
  cii: boolean,
): boolean {
  if (!f.byRate) return tax !== null && tax.isZero();
  if (cii && f.category !== 'S') return true;
  if (tax === null || taxable === null || rate === null) return false;
  if (cii) {
    // CII multiplies by the untyped rate, so in binary floating point, and compares as such.
    const expected = Math.floor(taxable.abs().toNumber() * rate.toNumber() + 0.5) / 100;
    return tax.abs().minus(1).toNumber() < expected && tax.abs().plus(1).toNumber() > expected;
  }
  const expected = round2(taxable.abs().times(rate.dividedBy(100)));
  return tax.abs().minus(1).lessThan(expected) && tax.abs().plus(1).greaterThan(expected);
}

function intraCommunity({ doc, syntax, add }: RuleContext): void {
  if (!doc.vatBreakdown.some(is('K'))) return;
  const period = doc.invoicePeriod;
  const dated =
    syntax === 'cii'
      ? present(doc.deliveryDate) || present(period?.startDate) || present(period?.endDate)
      : (doc.deliveryDate?.length ?? 0) > 1 || period !== null;
  if (!dated)
    add(
      'BR-IC-11',
      'BT-72',
      'deliveryDate',
      'An intra-community supply states the delivery date (BT-72) or the invoicing period (BG-14).',
    );
  const country = doc.deliverTo?.address?.countryCode;
  if (syntax === 'cii' ? !present(country) : (country?.length ?? 0) <= 1)
    add(
      'BR-IC-12',
      'BT-80',
      'deliverTo.address.countryCode',
      'An intra-community supply states the country delivered to (BT-80).',
    );
}

function outsideScope({ doc, syntax, add }: RuleContext): void {
  if (!doc.vatBreakdown.some(is('O'))) return;
  const other = (item: { vatCategory: string | null }) => present(item.vatCategory) && code(item.vatCategory) !== 'O';
  const anyOther = doc.vatBreakdown.some(other) || doc.lines.some(other);
  if (syntax === 'cii' ? anyOther : doc.vatBreakdown.some(other))
    add('BR-O-11', 'BT-118', 'vatBreakdown', 'A document not subject to VAT (O) has no other VAT breakdown.');
  if (syntax === 'cii' ? anyOther : doc.lines.some(other))
    add('BR-O-12', 'BT-151', 'lines', 'A document not subject to VAT (O) has no line of another VAT category.');
  if (doc.allowances.some(other) || (syntax === 'cii' && doc.charges.some(other)))
    add(
      'BR-O-13',
      'BT-95',
      'allowances',
      'A document not subject to VAT (O) has no allowance of another VAT category.',
    );
  if (doc.charges.some(other) || (syntax === 'cii' && doc.allowances.some(other)))
    add('BR-O-14', 'BT-102', 'charges', 'A document not subject to VAT (O) has no charge of another VAT category.');
}

function splitPayment({ doc, add }: RuleContext): void {
  const all = [...doc.lines, ...doc.allowances, ...doc.charges, ...doc.vatBreakdown];
  if (!all.some(is('B'))) return;
  const countries = [
    doc.seller.address?.countryCode,
    doc.buyer.address?.countryCode,
    doc.deliverTo?.address?.countryCode,
    doc.taxRepresentative?.address?.countryCode,
  ];
  if (countries.some((c) => present(c) && c !== 'IT'))
    add('BR-B-01', 'BT-151', 'lines', 'Split payment (B) is for domestic Italian invoices only.');
  if (all.some(is('S')))
    add('BR-B-02', 'BT-151', 'lines', 'Split payment (B) and standard rate (S) do not mix in one document.');
}

export const EN16931_VAT = [
  (ctx: RuleContext) => FAMILIES.forEach((f) => family(ctx, f)),
  intraCommunity,
  outsideScope,
  splitPayment,
];
