// Mutated e-invoices, made deterministically from the official examples by a seeded generator:
// an element removed, a total or amount changed, a code swapped, a date moved. Each mutation is
// applied to the XML text, so nothing of our reader decides what the mutated document says. The
// mutations keep every number a decimal and every date a date (the official XSLTs stop on a
// value they cannot cast), so each document gets a verdict from them.

export interface Mutation {
  name: string;
  base: string;
  description: string;
  xml: string;
}

/** mulberry32: a small, seeded, deterministic generator. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Change =
  | { kind: 'remove' }
  | { kind: 'text'; to: (old: string, random: () => number) => string | null }
  | { kind: 'attribute'; attribute: string; to: string | null };
interface Operator {
  /** Namespace key (cbc, cac, ram, udt) and local name. */
  ns: string;
  local: string;
  change: Change;
  what: string;
}

const NS: Record<string, string> = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

const remove = (ns: string, local: string): Operator => ({
  ns,
  local,
  change: { kind: 'remove' },
  what: `remove ${ns}:${local}`,
});
const text = (
  ns: string,
  local: string,
  what: string,
  to: (old: string, random: () => number) => string | null,
): Operator => ({ ns, local, change: { kind: 'text', to }, what: `${what} ${ns}:${local}` });
const attribute = (ns: string, local: string, name: string, to: string | null): Operator => ({
  ns,
  local,
  change: { kind: 'attribute', attribute: name, to },
  what: `${to === null ? 'remove' : `set ${to} as`} @${name} of ${ns}:${local}`,
});

const DECIMAL = /^-?\d+(\.\d+)?$/;
/** A decimal moved by a cent, a unit, a factor of ten, its sign flipped, or given a third decimal. */
const amountChange = (old: string, random: () => number): string | null => {
  if (!DECIMAL.test(old.trim())) return null;
  const value = old.trim();
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const cents = BigInt(whole! + fraction.padEnd(2, '0').slice(0, 2)) * (value.startsWith('-') ? -1n : 1n);
  const format = (c: bigint) =>
    `${c < 0n ? '-' : ''}${(c < 0n ? -c : c) / 100n}.${String((c < 0n ? -c : c) % 100n).padStart(2, '0')}`;
  switch (Math.floor(random() * 5)) {
    case 0:
      return format(cents + 1n);
    case 1:
      return format(cents - 100n);
    case 2:
      return format(cents * 10n);
    case 3:
      return format(-cents);
    default:
      return `${format(cents)}5`;
  }
};
const pick = (values: string[]) => (old: string, random: () => number) => {
  const choices = values.filter((v) => v !== old.trim());
  return choices[Math.floor(random() * choices.length)] ?? null;
};
const VAT_CODES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'Q'];
const laterDate = (old: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(old.trim()) ? '2099-12-31' : /^\d{8}$/.test(old.trim()) ? '20991231' : null;
const earlierDate = (old: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(old.trim()) ? '1999-01-01' : /^\d{8}$/.test(old.trim()) ? '19990101' : null;

export const UBL_OPERATORS: Operator[] = [
  ...[
    'CustomizationID',
    'ID',
    'IssueDate',
    'InvoiceTypeCode',
    'DocumentCurrencyCode',
    'RegistrationName',
    'IdentificationCode',
    'LineExtensionAmount',
    'TaxExclusiveAmount',
    'TaxInclusiveAmount',
    'PayableAmount',
    'AllowanceTotalAmount',
    'ChargeTotalAmount',
    'TaxAmount',
    'TaxableAmount',
    'Percent',
    'PriceAmount',
    'Name',
    'InvoicedQuantity',
    'CreditedQuantity',
    'CompanyID',
    'TaxExemptionReason',
    'TaxExemptionReasonCode',
    'AllowanceChargeReason',
    'AllowanceChargeReasonCode',
    'PaymentMeansCode',
    'Amount',
    'EndDate',
    'StartDate',
    'ActualDeliveryDate',
    'PrepaidAmount',
    'PayableRoundingAmount',
    'BuyerReference',
    'EndpointID',
  ].map((l) => remove('cbc', l)),
  ...[
    'PostalAddress',
    'PartyLegalEntity',
    'PartyTaxScheme',
    'TaxSubtotal',
    'TaxTotal',
    'ClassifiedTaxCategory',
    'TaxCategory',
    'InvoiceLine',
    'CreditNoteLine',
    'AllowanceCharge',
    'PayeeFinancialAccount',
    'Country',
    'Price',
    'LegalMonetaryTotal',
    'PaymentMeans',
    'InvoicePeriod',
    'Delivery',
    'PartyIdentification',
    'BillingReference',
    'AdditionalDocumentReference',
  ].map((l) => remove('cac', l)),
  ...[
    'LineExtensionAmount',
    'TaxExclusiveAmount',
    'TaxInclusiveAmount',
    'PayableAmount',
    'AllowanceTotalAmount',
    'ChargeTotalAmount',
    'TaxAmount',
    'TaxableAmount',
    'Amount',
    'PriceAmount',
    'PrepaidAmount',
    'BaseAmount',
  ].map((l) => text('cbc', l, 'change', amountChange)),
  text('cbc', 'Percent', 'change', pick(['0', '7', '19', '20', '25', '-5'])),
  text('cbc', 'InvoiceTypeCode', 'swap', pick(['380', '381', '384', '389', '326', '751', '999', '220'])),
  text('cbc', 'CreditNoteTypeCode', 'swap', pick(['381', '380', '396', '999'])),
  text('cbc', 'DocumentCurrencyCode', 'swap', pick(['EUR', 'USD', 'XXY', 'SEK'])),
  text('cbc', 'IdentificationCode', 'swap', pick(['DE', 'FR', 'IT', 'ZZ', 'XI'])),
  text('cbc', 'ID', 'swap VAT category', pick(VAT_CODES)),
  text('cbc', 'PaymentMeansCode', 'swap', pick(['30', '58', '10', '49', '999', 'ZZZ'])),
  text('cbc', 'AllowanceChargeReasonCode', 'swap', pick(['95', '999', 'FC', 'ABL'])),
  text('cbc', 'TaxExemptionReasonCode', 'swap', pick(['VATEX-EU-AE', 'VATEX-EU-IC', 'VATEX-XX'])),
  text('cbc', 'CompanyID', 'swap prefix of', (old) => `QQ${old.trim().slice(2)}`),
  text('cbc', 'EndDate', 'move', earlierDate),
  text('cbc', 'StartDate', 'move', laterDate),
  attribute('cbc', 'EndpointID', 'schemeID', null),
  attribute('cbc', 'EndpointID', 'schemeID', '9999'),
  attribute('cbc', 'InvoicedQuantity', 'unitCode', 'XYZ'),
  attribute('cbc', 'InvoicedQuantity', 'unitCode', null),
  attribute('cbc', 'ID', 'schemeID', '9876'),
  attribute('cbc', 'TaxAmount', 'currencyID', 'USD'),
];

export const CII_OPERATORS: Operator[] = [
  ...[
    'ID',
    'TypeCode',
    'InvoiceCurrencyCode',
    'Name',
    'CountryID',
    'LineTotalAmount',
    'TaxBasisTotalAmount',
    'GrandTotalAmount',
    'DuePayableAmount',
    'AllowanceTotalAmount',
    'ChargeTotalAmount',
    'TaxTotalAmount',
    'CalculatedAmount',
    'BasisAmount',
    'RateApplicablePercent',
    'ChargeAmount',
    'BilledQuantity',
    'CategoryCode',
    'ExemptionReason',
    'ExemptionReasonCode',
    'Reason',
    'ReasonCode',
    'ActualAmount',
    'IBANID',
    'LineID',
    'BuyerReference',
    'TotalPrepaidAmount',
    'RoundingAmount',
    'URIID',
    'IssuerAssignedID',
  ].map((l) => remove('ram', l)),
  ...[
    'PostalTradeAddress',
    'SpecifiedTaxRegistration',
    'ApplicableTradeTax',
    'IncludedSupplyChainTradeLineItem',
    'SpecifiedTradeAllowanceCharge',
    'SpecifiedLegalOrganization',
    'NetPriceProductTradePrice',
    'SpecifiedTradeSettlementPaymentMeans',
    'PayeePartyCreditorFinancialAccount',
    'BillingSpecifiedPeriod',
    'GuidelineSpecifiedDocumentContextParameter',
    'SpecifiedTradePaymentTerms',
    'ShipToTradeParty',
    'InvoiceReferencedDocument',
    'CategoryTradeTax',
  ].map((l) => remove('ram', l)),
  ...[
    'LineTotalAmount',
    'TaxBasisTotalAmount',
    'GrandTotalAmount',
    'DuePayableAmount',
    'AllowanceTotalAmount',
    'ChargeTotalAmount',
    'TaxTotalAmount',
    'CalculatedAmount',
    'BasisAmount',
    'ActualAmount',
    'ChargeAmount',
    'TotalPrepaidAmount',
  ].map((l) => text('ram', l, 'change', amountChange)),
  text('ram', 'RateApplicablePercent', 'change', pick(['0', '7', '19', '20', '25', '-5'])),
  text('ram', 'TypeCode', 'swap', pick(['380', '381', '384', '389', '326', '751', '999', 'VAT', '58'])),
  text('ram', 'InvoiceCurrencyCode', 'swap', pick(['EUR', 'USD', 'XXY'])),
  text('ram', 'CountryID', 'swap', pick(['DE', 'FR', 'IT', 'ZZ'])),
  text('ram', 'CategoryCode', 'swap', pick(VAT_CODES)),
  text('ram', 'ReasonCode', 'swap', pick(['95', '999', 'FC'])),
  text('ram', 'ExemptionReasonCode', 'swap', pick(['VATEX-EU-AE', 'VATEX-EU-IC', 'VATEX-XX'])),
  text('ram', 'ID', 'swap prefix of', (old) => (/^[A-Z]{2}\d/.test(old.trim()) ? `QQ${old.trim().slice(2)}` : null)),
  text('udt', 'DateTimeString', 'move', laterDate),
  attribute('ram', 'URIID', 'schemeID', null),
  attribute('ram', 'URIID', 'schemeID', '9999'),
  attribute('ram', 'BilledQuantity', 'unitCode', 'XYZ'),
  attribute('ram', 'GlobalID', 'schemeID', '9876'),
  attribute('ram', 'TaxTotalAmount', 'currencyID', 'USD'),
];

function prefixOf(xml: string, ns: string): string | null {
  const declared = new RegExp(`xmlns:([\\w.-]+)\\s*=\\s*["']${NS[ns]!.replace(/[.]/g, '\\.')}["']`).exec(xml);
  return declared ? declared[1]! : null;
}

/** The spans of every <p:local …>…</p:local> (or self-closed) element in the text. */
function elements(xml: string, qname: string): { start: number; end: number; openEnd: number; selfClosing: boolean }[] {
  const spans: { start: number; end: number; openEnd: number; selfClosing: boolean }[] = [];
  const open = new RegExp(`<${qname}(?=[\\s/>])[^>]*?(/?)>`, 'g');
  for (let m = open.exec(xml); m; m = open.exec(xml)) {
    const openEnd = m.index + m[0].length;
    if (m[1] === '/') spans.push({ start: m.index, end: openEnd, openEnd, selfClosing: true });
    else {
      const close = xml.indexOf(`</${qname}>`, openEnd);
      if (close < 0) continue;
      spans.push({ start: m.index, end: close + qname.length + 3, openEnd, selfClosing: false });
    }
  }
  return spans;
}

function apply(xml: string, op: Operator, random: () => number): string | null {
  const prefix = prefixOf(xml, op.ns);
  if (!prefix) return null;
  const qname = `${prefix}:${op.local}`;
  const found = elements(xml, qname);
  if (found.length === 0) return null;
  const target = found[Math.floor(random() * found.length)]!;
  const change = op.change;
  if (change.kind === 'remove') return xml.slice(0, target.start) + xml.slice(target.end);
  if (change.kind === 'text') {
    if (target.selfClosing) return null;
    const inner = xml.slice(target.openEnd, target.end - qname.length - 3);
    if (inner.includes('<')) return null;
    const next = change.to(inner, random);
    if (next === null || next === inner.trim()) return null;
    return xml.slice(0, target.openEnd) + next + xml.slice(target.end - qname.length - 3);
  }
  const openTag = xml.slice(target.start, target.openEnd);
  const attr = new RegExp(`\\s${change.attribute}\\s*=\\s*("[^"]*"|'[^']*')`);
  let tag: string;
  if (change.to === null) {
    if (!attr.test(openTag)) return null;
    tag = openTag.replace(attr, '');
  } else {
    tag = attr.test(openTag)
      ? openTag.replace(attr, ` ${change.attribute}="${change.to}"`)
      : openTag.replace(new RegExp(`^<${qname}`), `<${qname} ${change.attribute}="${change.to}"`);
  }
  return tag === openTag ? null : xml.slice(0, target.start) + tag + xml.slice(target.openEnd);
}

/** `count` mutations of the bases, chosen by the seed: the same seed gives the same documents. */
export function mutate(bases: { name: string; xml: string }[], count: number, seed: number): Mutation[] {
  const random = seeded(seed);
  const out: Mutation[] = [];
  const seen = new Set<string>();
  for (let attempts = 0; out.length < count && attempts < count * 20; attempts++) {
    const base = bases[Math.floor(random() * bases.length)]!;
    const operators = /CrossIndustryInvoice/.test(base.xml.slice(0, 2000)) ? CII_OPERATORS : UBL_OPERATORS;
    const op = operators[Math.floor(random() * operators.length)]!;
    const xml = apply(base.xml, op, random);
    if (xml === null || seen.has(xml)) continue;
    seen.add(xml);
    out.push({ name: `m${String(out.length).padStart(4, '0')}.xml`, base: base.name, description: op.what, xml });
  }
  return out;
}
