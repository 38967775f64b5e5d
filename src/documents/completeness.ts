import type { VatCategory } from '../money/invoice-calculation.js';
import { UNCL4461, UNCL5189, UNCL5305, UNCL7161, VAT_RULE_PREFIX } from './code-lists.js';
import { EAS, EAS_NOT_IN_PEPPOL, isIcdScheme } from './schemes.js';
import { UNIT_CODES } from './unit-codes.js';
import { isCountryCode, PEPPOL_SCHEME_CHECKS } from './identifiers.js';
import type { DocumentView, Party, Profile, SchemedId } from './model.js';
import { peppolCountry, peppolNationalRules } from './peppol-national.js';
import { isZeroAmount } from './xml.js';

// What a view lacks before it can be a valid e-invoice, each gap named by the official rule it
// would break (EN 16931 BR-…, Peppol PEPPOL-…, XRechnung BR-DE-…) and the field the API user sets.
// The endpoints answer 422 with these instead of a document that fails validation.

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
    ...view.allowances.map((a, i) => ({ category: a.vatCategory, rate: a.vatRate, field: `allowances[${i}]`, suffix: '03' })),
    ...view.charges.map((c, i) => ({ category: c.vatCategory, rate: c.vatRate, field: `charges[${i}]`, suffix: '04' })),
  ];
}

function checkSchemedId(add: Parameters<Check>[1], field: string, value: SchemedId | null, scheme: 'icd' | 'eas'): void {
  if (!value) return;
  if (scheme === 'eas') {
    if (value.schemeId === null) add(`${field}.schemeId`, field.startsWith('seller') ? 'BR-62' : 'BR-63', 'An electronic address needs its scheme (EAS code), e.g. 0088 for a GLN or 9930 for a German VAT id.');
    else if (!(value.schemeId in EAS)) add(`${field}.schemeId`, 'BR-CL-25', `${value.schemeId} is not a code of the CEF EAS list.`);
  } else if (value.schemeId !== null && !isIcdScheme(value.schemeId)) {
    add(`${field}.schemeId`, 'BR-CL-21', `${value.schemeId} is not an ISO 6523 ICD scheme code.`);
  }
}

function checkParty(add: Parameters<Check>[1], role: 'seller' | 'buyer', p: Party): void {
  if (blank(p.name)) add(`${role}.name`, role === 'seller' ? 'BR-6' : 'BR-7', `Set the ${role}'s name.`);
  const country = p.address.countryCode;
  if (blank(country)) add(`${role}.address.countryCode`, role === 'seller' ? 'BR-9' : 'BR-11', `Set the ${role}'s country (ISO 3166-1 alpha-2, e.g. DE).`);
  else if (!isCountryCode(country!)) add(`${role}.address.countryCode`, 'BR-CL-14', `${country} is not an ISO 3166-1 alpha-2 country code.`);
  if (p.vatId && !isCountryCode(p.vatId.slice(0, 2)) && !p.vatId.startsWith('EL')) add(`${role}.vatId`, 'BR-CO-9', 'A VAT identifier starts with its country prefix (ISO 3166-1 alpha-2, EL for Greece), e.g. DE123456789.');
  checkSchemedId(add, `${role}.electronicAddress`, p.electronicAddress, 'eas');
  checkSchemedId(add, `${role}.identifier`, p.identifier, 'icd');
  checkSchemedId(add, `${role}.legalRegistrationId`, p.legalRegistrationId, 'icd');
}

const en16931: Check = (view, add) => {
  if (view.currency.minorDigits > 2) {
    add('currency', 'BR-DEC-09', `EN 16931 allows at most 2 decimals in amounts (BR-DEC-09, BR-DEC-12, BR-DEC-14, BR-DEC-18, BR-DEC-23 …); ${view.currency.code} amounts have ${view.currency.minorDigits}. Issue the document in a currency with at most 2 minor-unit digits.`);
  }
  if (blank(view.number)) add('number', 'BR-2', 'Set the document number.');
  checkParty(add, 'seller', view.seller);
  checkParty(add, 'buyer', view.buyer);
  const seller = view.seller;
  if (!seller.identifier && !seller.legalRegistrationId && !seller.vatId) {
    add('seller.legalRegistrationId', 'BR-CO-26', "Set the seller's VAT identifier, legal registration identifier or seller identifier, so the buyer can identify the seller.");
  }
  if (view.lines.length === 0) add('lines', 'BR-16', 'A document has at least one line.');
  view.lines.forEach((line, i) => {
    if (blank(line.name)) add(`lines[${i}].name`, 'BR-25', 'Set the item name.');
    if (!(line.unitCode in UNIT_CODES)) add(`lines[${i}].unitCode`, 'BR-CL-23', `${line.unitCode} is not a UN/ECE Recommendation 20/21 unit code this service knows; use e.g. C62 (one), H87 (piece), HUR (hour), DAY (day), KGM (kilogram).`);
  });
  const payablePositive = !view.totals.payable.startsWith('-') && !isZeroAmount(view.totals.payable);
  if (payablePositive && !view.dueDate && blank(view.paymentTerms)) add('dueDate', 'BR-CO-25', 'A document with an amount due states its due date or payment terms.');
  if (view.deliverTo && blank(view.deliverTo.address.countryCode)) add('deliverTo.address.countryCode', 'BR-57', 'A deliver-to address states its country.');
  if (view.invoicePeriod && view.invoicePeriod.endDate < view.invoicePeriod.startDate) add('invoicePeriod.endDate', 'BR-29', 'The invoice period ends on or after its start.');
  view.allowances.forEach((a, i) => {
    if (blank(a.reason) && blank(a.reasonCode)) add(`allowances[${i}].reason`, 'BR-33', 'A document allowance states its reason or reason code.');
    if (a.reasonCode && !(a.reasonCode in UNCL5189)) add(`allowances[${i}].reasonCode`, 'BR-CL-19', `${a.reasonCode} is not an allowance reason code (UNCL5189), e.g. 95 discount.`);
  });
  view.charges.forEach((c, i) => {
    if (blank(c.reason) && blank(c.reasonCode)) add(`charges[${i}].reason`, 'BR-38', 'A document charge states its reason or reason code.');
    if (c.reasonCode && !(c.reasonCode in UNCL7161)) add(`charges[${i}].reasonCode`, 'BR-CL-20', `${c.reasonCode} is not a charge reason code (UNCL7161), e.g. FC freight service.`);
  });
  const means = view.paymentMeans;
  if (means) {
    const needs = UNCL4461[means.code]?.needs;
    if (needs === 'creditTransfer' && blank(means.creditTransfer?.accountId)) add('paymentMeans.creditTransfer.accountId', 'BR-61', 'A credit transfer states the account to pay to (IBAN).');
    if (means.card && !/^\d{4,10}$/.test(means.card.accountNumber)) add('paymentMeans.card.accountNumber', 'BR-51', 'State at most the first six and last four digits of the card number, never all of it.');
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
      add('seller.vatId', rule, `${name} on ${what} needs the seller's VAT identifier or tax registration (tax number).`);
    } else if (rules.seller.needs === 'vatId' && !seller.vatId) {
      add('seller.vatId', rule, `${name} on ${what} needs the seller's VAT identifier.`);
    } else if (rules.seller.needs === 'noVatId' && (seller.vatId || buyer.vatId)) {
      add(seller.vatId ? 'seller.vatId' : 'buyer.vatId', rule, `${name} on ${what} must not state VAT identifiers; a document outside the scope of VAT holds no other category.`);
    }
    if (rules.buyer.needs === 'vatId' && !buyer.vatId) add('buyer.vatId', rule, `${name} on ${what} needs the buyer's VAT identifier.`);
    if (rules.buyer.needs === 'vatIdOrLegalRegistration' && !buyer.vatId && !buyer.legalRegistrationId) {
      add('buyer.vatId', rule, `${name} on ${what} needs the buyer's VAT identifier or legal registration identifier.`);
    }
    const zeroRate = /^0*(\.0*)?$/.test(item.rate);
    if (rules.rate === 'positive' && zeroRate) add(`${item.field}.vatRate`, `${VAT_RULE_PREFIX[item.category]}-05`, `${name} needs a rate above 0.`);
    if (rules.rate === 'zero' && !zeroRate) add(`${item.field}.vatRate`, `${VAT_RULE_PREFIX[item.category]}-05`, `${name} has a rate of 0.`);
  }
  if (categories.has('O') && categories.size > 1) {
    add('lines', 'BR-O-11', 'A document with VAT category O (outside the scope of VAT) holds no other VAT category; issue those items on a separate document.');
  }
  view.vatBreakdown.forEach((entry) => {
    const rules = UNCL5305[entry.vatCategory];
    if (rules.exemption === 'required' && blank(entry.exemptionReason) && blank(entry.exemptionReasonCode)) {
      const first = view.lines.findIndex((l) => l.vatCategory === entry.vatCategory);
      add(first >= 0 ? `lines[${first}].exemptionReason` : 'lines', `${VAT_RULE_PREFIX[entry.vatCategory]}-10`, `VAT category ${entry.vatCategory} needs an exemption reason, e.g. the article of law that exempts it.`);
    }
  });
  if (categories.has('K')) {
    if (!view.deliveryDate && !view.invoicePeriod) add('deliveryDate', 'BR-IC-11', 'An intra-community supply (K) states the delivery date or the invoice period.');
    if (blank(view.deliverTo?.address.countryCode)) add(view.deliverTo ? 'deliverTo.address.countryCode' : 'buyer.address.countryCode', 'BR-IC-12', 'An intra-community supply (K) states the country delivered to.');
  }
}

/** The German rules: BR-DE-… in XRechnung, the same as DE-R-… in Peppol between two German parties. */
const german =
  (id: (n: number) => string): Check =>
  (view, add) => {
    const { seller, buyer, paymentMeans } = view;
    if (!paymentMeans) add('paymentMeans', id(1), 'Set the payment instructions (payment means, e.g. 58 SEPA credit transfer with the IBAN).');
    if (!seller.contact) add('seller.contact', id(2), "Set the seller's contact (name, phone and email).");
    if (blank(seller.address.city)) add('seller.address.city', id(3), "Set the seller's city.");
    if (blank(seller.address.postalCode)) add('seller.address.postalCode', id(4), "Set the seller's postal code.");
    if (seller.contact) {
      if (blank(seller.contact.name)) add('seller.contact.name', id(5), "Set the seller's contact name.");
      if (blank(seller.contact.phone)) add('seller.contact.phone', id(6), "Set the seller's contact phone number.");
      if (blank(seller.contact.email)) add('seller.contact.email', id(7), "Set the seller's contact email address.");
    }
    if (blank(buyer.address.city)) add('buyer.address.city', id(8), "Set the buyer's city.");
    if (blank(buyer.address.postalCode)) add('buyer.address.postalCode', id(9), "Set the buyer's postal code.");
    if (view.deliverTo) {
      // Without a deliver-to address of its own, an intra-community supply uses the buyer's.
      const field = view.deliverTo.address === buyer.address ? 'buyer.address' : 'deliverTo.address';
      if (blank(view.deliverTo.address.city)) add(`${field}.city`, id(10), 'Set the city delivered to.');
      if (blank(view.deliverTo.address.postalCode)) add(`${field}.postalCode`, id(11), 'Set the postal code delivered to.');
    }
    if (blank(view.buyerReference)) add('buyerReference', id(15), 'Set the buyer reference (BT-10; for German public buyers their Leitweg-ID).');
    const needsSellerTaxId = taxedItems(view).some((i) => i.category !== 'O');
    if (needsSellerTaxId && !seller.vatId && !seller.taxRegistrationId) add('seller.vatId', id(16), "Set the seller's VAT identifier or tax number.");
    if (view.paymentTerms && view.paymentTerms.split(/\r?\n/).some((l) => l.startsWith('#') && !/^#SKONTO#TAGE=\d+#PROZENT=\d+\.\d{2}(#BASISBETRAG=-?\d+\.\d{2})?#$/.test(l))) {
      add('paymentTerms', id(18), 'A payment terms line starting with # must be a cash discount in the form #SKONTO#TAGE=14#PROZENT=2.00#.');
    }
    if (paymentMeans) {
      const needs = UNCL4461[paymentMeans.code]?.needs;
      if (needs === 'creditTransfer' && !paymentMeans.creditTransfer) add('paymentMeans.creditTransfer', id(23), 'A credit transfer states the account to pay to (IBAN).');
      if (needs === 'card' && !paymentMeans.card) add('paymentMeans.card', id(24), 'A card payment states the card (its last digits).');
      if (paymentMeans.code === '59' && !paymentMeans.directDebit) add('paymentMeans.directDebit', id(25), 'A SEPA direct debit states the mandate, creditor id and debited account.');
      if (paymentMeans.directDebit) {
        if (blank(paymentMeans.directDebit.creditorId)) add('paymentMeans.directDebit.creditorId', id(30), "Set the seller's SEPA creditor identifier.");
        if (blank(paymentMeans.directDebit.debitedAccountId)) add('paymentMeans.directDebit.debitedAccountId', id(31), "Set the payer's IBAN (the debited account).");
      }
    }
  };

/** BR-DE-23 to -25 carry a suffix in XRechnung (-a) and Peppol (-1); 1 to 9 are padded in Peppol. */
const xrechnungGerman = german((n) => (n >= 23 && n <= 25 ? `BR-DE-${n}-a` : `BR-DE-${n}`));
const peppolGerman = german((n) => (n >= 23 && n <= 25 ? `DE-R-0${n}-1` : `DE-R-${String(n).padStart(3, '0')}`));

function electronicAddresses(view: DocumentView, add: Parameters<Check>[1], rules: { seller: string; buyer: string }): void {
  if (!view.seller.electronicAddress) add('seller.electronicAddress', rules.seller, "Set the seller's electronic address (e.g. scheme 0088 GLN, 9930 German VAT id, 0204 Leitweg-ID).");
  if (!view.buyer.electronicAddress) add('buyer.electronicAddress', rules.buyer, "Set the buyer's electronic address (e.g. scheme 0088 GLN, 9930 German VAT id, 0204 Leitweg-ID).");
}

const peppol: Check = (view, add) => {
  // A UBL 2.1 credit note carries its due date only inside the payment means (BR-CO-25).
  const payablePositive = !view.totals.payable.startsWith('-') && !isZeroAmount(view.totals.payable);
  if (view.typeCode === '381' && payablePositive && !view.paymentMeans && blank(view.paymentTerms)) {
    add('paymentTerms', 'BR-CO-25', 'A credit note with an amount due states its payment terms or payment means (a UBL credit note writes its due date into the payment means).');
  }
  if (blank(view.buyerReference) && blank(view.purchaseOrderReference)) add('buyerReference', 'PEPPOL-EN16931-R003', 'Set the buyer reference or the purchase order reference.');
  electronicAddresses(view, add, { seller: 'PEPPOL-EN16931-R020', buyer: 'PEPPOL-EN16931-R010' });
  for (const role of ['seller', 'buyer'] as const) {
    const p = view[role];
    if (p.electronicAddress?.schemeId && EAS_NOT_IN_PEPPOL.has(p.electronicAddress.schemeId)) {
      add(`${role}.electronicAddress.schemeId`, 'PEPPOL-EN16931-CL008', `Peppol does not accept electronic address scheme ${p.electronicAddress.schemeId}; use the party's Peppol participant id (e.g. 0088 GLN or 9930 VAT id).`);
    }
    for (const [field, id] of [['electronicAddress', p.electronicAddress], ['identifier', p.identifier], ['legalRegistrationId', p.legalRegistrationId]] as const) {
      const check = id?.schemeId ? PEPPOL_SCHEME_CHECKS[id.schemeId] : undefined;
      if (id && check && !check.test(id.id)) add(`${role}.${field}.id`, check.rule, `${id.id} is not ${check.what}.`);
    }
  }
  const debit = view.paymentMeans?.directDebit;
  if (debit && blank(debit.mandateReference)) add('paymentMeans.directDebit.mandateReference', 'PEPPOL-EN16931-R061', 'A direct debit states its mandate reference.');
  if (peppolCountry(view.seller) === 'DE' && peppolCountry(view.buyer) === 'DE') peppolGerman(view, add);
  peppolNationalRules(view, add);
};

const xrechnung: Check = (view, add) => {
  xrechnungGerman(view, add);
  // XRechnung 3.0 takes over Peppol's rules on these (rule list of the KoSIT artefacts).
  if (blank(view.buyerReference) && blank(view.purchaseOrderReference)) add('buyerReference', 'PEPPOL-EN16931-R003', 'Set the buyer reference or the purchase order reference.');
  electronicAddresses(view, add, { seller: 'PEPPOL-EN16931-R020', buyer: 'PEPPOL-EN16931-R010' });
  const debit = view.paymentMeans?.directDebit;
  if (debit && blank(debit.mandateReference)) add('paymentMeans.directDebit.mandateReference', 'PEPPOL-EN16931-R061', 'A direct debit states its mandate reference.');
};

const CHECKS: Record<Profile, Check[]> = { en16931: [en16931], peppol: [en16931, peppol], xrechnung: [en16931, xrechnung] };

/** Every gap between the view and a valid document of each profile, once per field and rule. */
export function problemsFor(view: DocumentView, profiles: Profile[]): Problem[] {
  const seen = new Set<string>();
  const problems: Problem[] = [];
  const add = (field: string, code: string, message: string) => {
    const key = `${field}|${code}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push({ field, code, message });
  };
  for (const profile of profiles) for (const check of CHECKS[profile]) check(view, add);
  return problems;
}
