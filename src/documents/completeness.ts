import type { VatCategory } from '../money/invoice-calculation.js';
import { UNCL4461, UNCL5189, UNCL5305, UNCL7161, VAT_RULE_PREFIX } from './code-lists.js';
import { EAS, isIcdScheme } from './schemes.js';
import { UNIT_CODES } from './unit-codes.js';
import { isCountryCode } from './identifiers.js';
import type { DocumentView, Party, Profile, SchemedId } from './model.js';
import type { Einvoice } from './einvoice-model.js';
import { runRules } from './rules/engine.js';
import { isZeroAmount } from './xml.js';

// What a view lacks before it can be a valid e-invoice, each gap named by the official rule it
// would break (EN 16931 BR-…, Peppol PEPPOL-…, XRechnung BR-DE-…) and the field the API user sets.
// The endpoints answer 422 with these instead of a document that fails validation. Two layers:
// the checks below name what to set in the API's own terms (before the document is computed to
// the end, the usual gaps); then the rule engine (rules/), the same code that judges received
// documents, runs every EN 16931 business rule on the view, so nothing it would reject is issued.

export interface Problem {
  /** The field to set, as the API names it: `seller.address.countryCode`, `lines[2].unitCode`. */
  field: string;
  /** The official rule id. */
  code: string;
  message: string;
}

type Check = (view: DocumentView, add: (field: string, code: string, message: string) => void) => void;

const blank = (value: string | null | undefined) => value === null || value === undefined || value.trim() === '';

/** Every (category, where, index) the document uses: lines, then allowances, then charges. */
function taxedItems(view: DocumentView) {
  return [
    ...view.lines.map((l, i) => ({ category: l.vatCategory, rate: l.vatRate, field: `lines[${i}]`, suffix: '02' })),
    ...view.allowances.map((a, i) => ({
      category: a.vatCategory,
      rate: a.vatRate,
      field: `allowances[${i}]`,
      suffix: '03',
    })),
    ...view.charges.map((c, i) => ({ category: c.vatCategory, rate: c.vatRate, field: `charges[${i}]`, suffix: '04' })),
  ];
}

function checkSchemedId(
  add: Parameters<Check>[1],
  field: string,
  value: SchemedId | null,
  scheme: 'icd' | 'eas',
): void {
  if (!value) return;
  if (scheme === 'eas') {
    if (value.schemeId === null)
      add(
        `${field}.schemeId`,
        field.startsWith('seller') ? 'BR-62' : 'BR-63',
        'An electronic address needs its scheme (EAS code), e.g. 0088 for a GLN or 9930 for a German VAT id.',
      );
    else if (!(value.schemeId in EAS))
      add(`${field}.schemeId`, 'BR-CL-25', `${value.schemeId} is not a code of the CEF EAS list.`);
  } else if (value.schemeId !== null && !isIcdScheme(value.schemeId)) {
    add(`${field}.schemeId`, 'BR-CL-21', `${value.schemeId} is not an ISO 6523 ICD scheme code.`);
  }
}

function checkParty(add: Parameters<Check>[1], role: 'seller' | 'buyer', p: Party): void {
  if (blank(p.name)) add(`${role}.name`, role === 'seller' ? 'BR-6' : 'BR-7', `Set the ${role}'s name.`);
  const country = p.address.countryCode;
  if (blank(country))
    add(
      `${role}.address.countryCode`,
      role === 'seller' ? 'BR-9' : 'BR-11',
      `Set the ${role}'s country (ISO 3166-1 alpha-2, e.g. DE).`,
    );
  else if (!isCountryCode(country!))
    add(`${role}.address.countryCode`, 'BR-CL-14', `${country} is not an ISO 3166-1 alpha-2 country code.`);
  if (p.vatId && !isCountryCode(p.vatId.slice(0, 2)) && !p.vatId.startsWith('EL'))
    add(
      `${role}.vatId`,
      'BR-CO-9',
      'A VAT identifier starts with its country prefix (ISO 3166-1 alpha-2, EL for Greece), e.g. DE123456789.',
    );
  checkSchemedId(add, `${role}.electronicAddress`, p.electronicAddress, 'eas');
  checkSchemedId(add, `${role}.identifier`, p.identifier, 'icd');
  checkSchemedId(add, `${role}.legalRegistrationId`, p.legalRegistrationId, 'icd');
}

const en16931: Check = (view, add) => {
  if (view.currency.minorDigits > 2) {
    add(
      'currency',
      'BR-DEC-09',
      `EN 16931 allows at most 2 decimals in amounts (BR-DEC-09, BR-DEC-12, BR-DEC-14, BR-DEC-18, BR-DEC-23 …); ${view.currency.code} amounts have ${view.currency.minorDigits}. Issue the document in a currency with at most 2 minor-unit digits.`,
    );
  }
  if (blank(view.number)) add('number', 'BR-2', 'Set the document number.');
  checkParty(add, 'seller', view.seller);
  checkParty(add, 'buyer', view.buyer);
  const seller = view.seller;
  if (!seller.identifier && !seller.legalRegistrationId && !seller.vatId) {
    add(
      'seller.legalRegistrationId',
      'BR-CO-26',
      "Set the seller's VAT identifier, legal registration identifier or seller identifier, so the buyer can identify the seller.",
    );
  }
  if (view.lines.length === 0) add('lines', 'BR-16', 'A document has at least one line.');
  view.lines.forEach((line, i) => {
    if (blank(line.name)) add(`lines[${i}].name`, 'BR-25', 'Set the item name.');
    if (!(line.unitCode in UNIT_CODES))
      add(
        `lines[${i}].unitCode`,
        'BR-CL-23',
        `${line.unitCode} is not a UN/ECE Recommendation 20/21 unit code this service knows; use e.g. C62 (one), H87 (piece), HUR (hour), DAY (day), KGM (kilogram).`,
      );
  });
  const payablePositive = !view.totals.payable.startsWith('-') && !isZeroAmount(view.totals.payable);
  if (payablePositive && !view.dueDate && blank(view.paymentTerms))
    add('dueDate', 'BR-CO-25', 'A document with an amount due states its due date or payment terms.');
  if (view.deliverTo && blank(view.deliverTo.address.countryCode))
    add('deliverTo.address.countryCode', 'BR-57', 'A deliver-to address states its country.');
  if (view.invoicePeriod && view.invoicePeriod.endDate < view.invoicePeriod.startDate)
    add('invoicePeriod.endDate', 'BR-29', 'The invoice period ends on or after its start.');
  view.allowances.forEach((a, i) => {
    if (blank(a.reason) && blank(a.reasonCode))
      add(`allowances[${i}].reason`, 'BR-33', 'A document allowance states its reason or reason code.');
    if (a.reasonCode && !(a.reasonCode in UNCL5189))
      add(
        `allowances[${i}].reasonCode`,
        'BR-CL-19',
        `${a.reasonCode} is not an allowance reason code (UNCL5189), e.g. 95 discount.`,
      );
  });
  view.charges.forEach((c, i) => {
    if (blank(c.reason) && blank(c.reasonCode))
      add(`charges[${i}].reason`, 'BR-38', 'A document charge states its reason or reason code.');
    if (c.reasonCode && !(c.reasonCode in UNCL7161))
      add(
        `charges[${i}].reasonCode`,
        'BR-CL-20',
        `${c.reasonCode} is not a charge reason code (UNCL7161), e.g. FC freight service.`,
      );
  });
  const means = view.paymentMeans;
  if (means) {
    const needs = UNCL4461[means.code]?.needs;
    if (needs === 'creditTransfer' && blank(means.creditTransfer?.accountId))
      add('paymentMeans.creditTransfer.accountId', 'BR-61', 'A credit transfer states the account to pay to (IBAN).');
    if (means.card && !/^\d{4,10}$/.test(means.card.accountNumber))
      add(
        'paymentMeans.card.accountNumber',
        'BR-51',
        'State at most the first six and last four digits of the card number, never all of it.',
      );
  }
  vatCategoryRules(view, add);
};

function vatCategoryRules(view: DocumentView, add: Parameters<Check>[1]): void {
  const items = taxedItems(view);
  const categories = new Set<VatCategory>(items.map((i) => i.category));
  const { seller, buyer } = view;
  for (const item of items) {
    const rules = UNCL5305[item.category];
    const rule = `${VAT_RULE_PREFIX[item.category]}-${item.suffix}`;
    const what = item.suffix === '02' ? 'a line' : item.suffix === '03' ? 'an allowance' : 'a charge';
    const name = `VAT category ${item.category} (${rules.name})`;
    if (rules.seller.needs === 'vatIdOrTaxRegistration' && !seller.vatId && !seller.taxRegistrationId) {
      add(
        'seller.vatId',
        rule,
        `${name} on ${what} needs the seller's VAT identifier or tax registration (tax number).`,
      );
    } else if (rules.seller.needs === 'vatId' && !seller.vatId) {
      add('seller.vatId', rule, `${name} on ${what} needs the seller's VAT identifier.`);
    } else if (rules.seller.needs === 'noVatId' && (seller.vatId || buyer.vatId)) {
      add(
        seller.vatId ? 'seller.vatId' : 'buyer.vatId',
        rule,
        `${name} on ${what} must not state VAT identifiers; a document outside the scope of VAT holds no other category.`,
      );
    }
    if (rules.buyer.needs === 'vatId' && !buyer.vatId)
      add('buyer.vatId', rule, `${name} on ${what} needs the buyer's VAT identifier.`);
    if (rules.buyer.needs === 'vatIdOrLegalRegistration' && !buyer.vatId && !buyer.legalRegistrationId) {
      add('buyer.vatId', rule, `${name} on ${what} needs the buyer's VAT identifier or legal registration identifier.`);
    }
    const zeroRate = /^0*(\.0*)?$/.test(item.rate);
    if (rules.rate === 'positive' && zeroRate)
      add(`${item.field}.vatRate`, `${VAT_RULE_PREFIX[item.category]}-05`, `${name} needs a rate above 0.`);
    if (rules.rate === 'zero' && !zeroRate)
      add(`${item.field}.vatRate`, `${VAT_RULE_PREFIX[item.category]}-05`, `${name} has a rate of 0.`);
  }
  if (categories.has('O') && categories.size > 1) {
    add(
      'lines',
      'BR-O-11',
      'A document with VAT category O (outside the scope of VAT) holds no other VAT category; issue those items on a separate document.',
    );
  }
  view.vatBreakdown.forEach((entry) => {
    const rules = UNCL5305[entry.vatCategory];
    if (rules.exemption === 'required' && blank(entry.exemptionReason) && blank(entry.exemptionReasonCode)) {
      const first = view.lines.findIndex((l) => l.vatCategory === entry.vatCategory);
      add(
        first >= 0 ? `lines[${first}].exemptionReason` : 'lines',
        `${VAT_RULE_PREFIX[entry.vatCategory]}-10`,
        `VAT category ${entry.vatCategory} needs an exemption reason, e.g. the article of law that exempts it.`,
      );
    }
  });
  if (categories.has('K')) {
    if (!view.deliveryDate && !view.invoicePeriod)
      add('deliveryDate', 'BR-IC-11', 'An intra-community supply (K) states the delivery date or the invoice period.');
    if (blank(view.deliverTo?.address.countryCode))
      add(
        view.deliverTo ? 'deliverTo.address.countryCode' : 'buyer.address.countryCode',
        'BR-IC-12',
        'An intra-community supply (K) states the country delivered to.',
      );
  }
}

import { peppol, xrechnung } from './rules/profile-checks.js';

const CHECKS: Record<Profile, Check[]> = {
  en16931: [en16931],
  peppol: [en16931, peppol],
  xrechnung: [en16931, xrechnung],
};

/** BR-9 as these checks name it is BR-09 in the official artefacts (and in the engine). */
const officialId = (code: string) => code.replace(/^(BR-(?:CO-)?)(\d)$/, '$10$2');

/** The view as the writers write it: a line, allowance or charge outside the scope of VAT (O) states no rate. */
function asWritten(view: DocumentView): Einvoice {
  const noRate = <T extends { vatCategory: string; vatRate: string }>(item: T) =>
    item.vatCategory === 'O' ? { ...item, vatRate: null } : item;
  return {
    ...view,
    lines: view.lines.map(noRate),
    allowances: view.allowances.map(noRate),
    charges: view.charges.map(noRate),
  };
}

/** Every gap between the view and a valid document of each profile, once per field and rule. */
export function problemsFor(view: DocumentView, profiles: Profile[]): Problem[] {
  return problemsForEach(view, [profiles])[0]!;
}

/**
 * problemsFor for several sets of profiles at once (an answer's readiness for EN 16931, Peppol and
 * XRechnung): the checks of a profile that several sets share, and the rule engine, run once on
 * the view, and each set gets what problemsFor would answer for it alone.
 */
export function problemsForEach(view: DocumentView, sets: Profile[][]): Problem[][] {
  const found = new Map<Profile, Problem[]>();
  const foundBy = (profile: Profile): Problem[] => {
    let list = found.get(profile);
    if (list === undefined) {
      const own: Problem[] = [];
      for (const check of CHECKS[profile]) check(view, (field, code, message) => own.push({ field, code, message }));
      found.set(profile, (list = own));
    }
    return list;
  };
  let engine: ReturnType<typeof runRules> | undefined;
  return sets.map((profiles) => {
    const seen = new Set<string>();
    const problems: Problem[] = [];
    const add = (problem: Problem) => {
      const key = `${problem.field}|${problem.code}`;
      if (seen.has(key)) return;
      seen.add(key);
      problems.push(problem);
    };
    for (const profile of profiles) for (const problem of foundBy(profile)) add(problem);
    // The engine's fatal EN 16931 findings that no check above named already. A currency with three
    // minor digits is refused above (BR-DEC-09) for good; its amounts cannot meet the two-decimal rules.
    if (profiles.length > 0 && view.currency.minorDigits <= 2) {
      const named = new Set(problems.map((p) => officialId(p.code)));
      // The currency's BR-DEC-09 above stands for every amount's decimals.
      const covered = (rule: string) => named.has(rule) || (named.has('BR-DEC-09') && rule.startsWith('BR-DEC-'));
      engine ??= runRules(asWritten(view), ['en16931']);
      for (const finding of engine) {
        if (finding.severity === 'fatal' && !covered(finding.rule))
          add({ field: finding.field, code: finding.rule, message: finding.message });
      }
    }
    return problems;
  });
}
