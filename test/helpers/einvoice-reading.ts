import { create } from 'xmlbuilder2';

// Reads a UBL or CII document back into the few figures the EN 16931 calculation rules relate,
// so the tests can check those rules on the XML itself, not on the view that produced it.

export interface ReadLine {
  quantity: string;
  price: string;
  baseQuantity: string | null;
  allowances: string[];
  net: string;
  category: string;
  rate: string | null;
}
export interface ReadAdjustment {
  amount: string;
  category: string;
  rate: string | null;
}
export interface ReadDocument {
  typeCode: string;
  currency: string;
  lines: ReadLine[];
  allowances: ReadAdjustment[];
  charges: ReadAdjustment[];
  breakdown: {
    taxable: string;
    tax: string;
    category: string;
    rate: string | null;
    reason: string | null;
    reasonCode: string | null;
  }[];
  totals: {
    lineNet: string;
    allowances: string | null;
    charges: string | null;
    taxExclusive: string;
    taxTotal: string;
    taxInclusive: string;
    rounding: string | null;
    payable: string;
  };
  /** Every amount element's text. */
  amounts: string[];
}

/** The DOM of xmlbuilder2's parser, as far as this reader uses it. */
interface Element {
  nodeType: number;
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<Element>;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(namespace: string, localName: string): ArrayLike<Element>;
}

const UBL = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const CII = {
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

const children = (el: Element, ns: string, name: string) =>
  Array.from(el.childNodes).filter((n) => n.nodeType === 1 && n.localName === name && n.namespaceURI === ns);
const child = (el: Element, ns: string, name: string) => children(el, ns, name)[0];
/** The text at a path of direct children, or null. */
function at(el: Element | undefined, path: [string, string][]): string | null {
  let node: Element | undefined = el;
  for (const [ns, name] of path) node = node ? child(node, ns, name) : undefined;
  return node?.textContent ?? null;
}
const must = (value: string | null, what: string) => {
  if (value === null) throw new Error(`missing ${what}`);
  return value;
};

function rootOf(xml: string): Element {
  return create(xml).root().node as unknown as Element;
}

export function readUbl(xml: string): ReadDocument {
  const root = rootOf(xml);
  const { cac, cbc } = UBL;
  const creditNote = root.localName === 'CreditNote';
  const b = (name: string): [string, string] => [cbc, name];
  const a = (name: string): [string, string] => [cac, name];
  const taxCat = (el: Element, name: string) => ({
    category: must(at(el, [a(name), b('ID')]), 'category'),
    rate: at(el, [a(name), b('Percent')]),
  });
  const adjustments = (charge: boolean) =>
    children(root, cac, 'AllowanceCharge')
      .filter((ac) => at(ac, [b('ChargeIndicator')]) === String(charge))
      .map((ac) => ({ amount: must(at(ac, [b('Amount')]), 'amount'), ...taxCat(ac, 'TaxCategory') }));
  const lines = children(root, cac, creditNote ? 'CreditNoteLine' : 'InvoiceLine').map((l) => ({
    quantity: must(at(l, [b(creditNote ? 'CreditedQuantity' : 'InvoicedQuantity')]), 'quantity'),
    price: must(at(l, [a('Price'), b('PriceAmount')]), 'price'),
    baseQuantity: at(l, [a('Price'), b('BaseQuantity')]),
    allowances: children(l, cac, 'AllowanceCharge').map((ac) => must(at(ac, [b('Amount')]), 'line allowance')),
    net: must(at(l, [b('LineExtensionAmount')]), 'line net'),
    ...taxCat(child(l, cac, 'Item')!, 'ClassifiedTaxCategory'),
  }));
  const taxTotal = child(root, cac, 'TaxTotal')!;
  const m = child(root, cac, 'LegalMonetaryTotal')!;
  const all = Array.from(root.getElementsByTagNameNS(cbc, '*')).filter(
    (e) => e.getAttribute('currencyID') !== null && e.localName !== 'PriceAmount',
  ); // prices are unit prices, not amounts (no BR-DEC rule)
  return {
    typeCode: must(at(root, [b(creditNote ? 'CreditNoteTypeCode' : 'InvoiceTypeCode')]), 'type code'),
    currency: must(at(root, [b('DocumentCurrencyCode')]), 'currency'),
    lines,
    allowances: adjustments(false),
    charges: adjustments(true),
    breakdown: children(taxTotal, cac, 'TaxSubtotal').map((s) => ({
      taxable: must(at(s, [b('TaxableAmount')]), 'taxable'),
      tax: must(at(s, [b('TaxAmount')]), 'tax'),
      ...taxCat(s, 'TaxCategory'),
      reason: at(s, [a('TaxCategory'), b('TaxExemptionReason')]),
      reasonCode: at(s, [a('TaxCategory'), b('TaxExemptionReasonCode')]),
    })),
    totals: {
      lineNet: must(at(m, [b('LineExtensionAmount')]), 'BT-106'),
      allowances: at(m, [b('AllowanceTotalAmount')]),
      charges: at(m, [b('ChargeTotalAmount')]),
      taxExclusive: must(at(m, [b('TaxExclusiveAmount')]), 'BT-109'),
      taxTotal: must(at(taxTotal, [b('TaxAmount')]), 'BT-110'),
      taxInclusive: must(at(m, [b('TaxInclusiveAmount')]), 'BT-112'),
      rounding: at(m, [b('PayableRoundingAmount')]),
      payable: must(at(m, [b('PayableAmount')]), 'BT-115'),
    },
    amounts: all.map((e) => e.textContent ?? ''),
  };
}

export function readCii(xml: string): ReadDocument {
  const root = rootOf(xml);
  const { ram, udt } = CII;
  const r = (name: string): [string, string] => [ram, name];
  const transaction = child(
    root,
    'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
    'SupplyChainTradeTransaction',
  )!;
  const settlement = child(transaction, ram, 'ApplicableHeaderTradeSettlement')!;
  const isCharge = (el: Element) => at(el, [r('ChargeIndicator'), [udt, 'Indicator']]) === 'true';
  const tax = (el: Element | undefined) => ({
    category: must(at(el, [r('CategoryCode')]), 'category'),
    rate: at(el, [r('RateApplicablePercent')]),
  });
  const adjustments = (charge: boolean) =>
    children(settlement, ram, 'SpecifiedTradeAllowanceCharge')
      .filter((ac) => isCharge(ac) === charge)
      .map((ac) => ({
        amount: must(at(ac, [r('ActualAmount')]), 'amount'),
        ...tax(child(ac, ram, 'CategoryTradeTax')),
      }));
  const lines = children(transaction, ram, 'IncludedSupplyChainTradeLineItem').map((l) => {
    const lineSettlement = child(l, ram, 'SpecifiedLineTradeSettlement')!;
    return {
      quantity: must(at(l, [r('SpecifiedLineTradeDelivery'), r('BilledQuantity')]), 'quantity'),
      price: must(
        at(l, [r('SpecifiedLineTradeAgreement'), r('NetPriceProductTradePrice'), r('ChargeAmount')]),
        'price',
      ),
      baseQuantity: at(l, [r('SpecifiedLineTradeAgreement'), r('NetPriceProductTradePrice'), r('BasisQuantity')]),
      allowances: children(lineSettlement, ram, 'SpecifiedTradeAllowanceCharge').map((ac) =>
        must(at(ac, [r('ActualAmount')]), 'line allowance'),
      ),
      net: must(
        at(lineSettlement, [r('SpecifiedTradeSettlementLineMonetarySummation'), r('LineTotalAmount')]),
        'line net',
      ),
      ...tax(child(lineSettlement, ram, 'ApplicableTradeTax')),
    };
  });
  const m = child(settlement, ram, 'SpecifiedTradeSettlementHeaderMonetarySummation')!;
  const amountNames = new Set([
    'ActualAmount',
    'BasisAmount',
    'LineTotalAmount',
    'CalculatedAmount',
    'ChargeTotalAmount',
    'AllowanceTotalAmount',
    'TaxBasisTotalAmount',
    'TaxTotalAmount',
    'RoundingAmount',
    'GrandTotalAmount',
    'DuePayableAmount',
  ]);
  return {
    typeCode: must(
      at(child(root, 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100', 'ExchangedDocument'), [
        r('TypeCode'),
      ]),
      'type code',
    ),
    currency: must(at(settlement, [r('InvoiceCurrencyCode')]), 'currency'),
    lines,
    allowances: adjustments(false),
    charges: adjustments(true),
    breakdown: children(settlement, ram, 'ApplicableTradeTax').map((t) => ({
      taxable: must(at(t, [r('BasisAmount')]), 'taxable'),
      tax: must(at(t, [r('CalculatedAmount')]), 'tax'),
      ...tax(t),
      reason: at(t, [r('ExemptionReason')]),
      reasonCode: at(t, [r('ExemptionReasonCode')]),
    })),
    totals: {
      lineNet: must(at(m, [r('LineTotalAmount')]), 'BT-106'),
      allowances: at(m, [r('AllowanceTotalAmount')]),
      charges: at(m, [r('ChargeTotalAmount')]),
      taxExclusive: must(at(m, [r('TaxBasisTotalAmount')]), 'BT-109'),
      taxTotal: must(at(m, [r('TaxTotalAmount')]), 'BT-110'),
      taxInclusive: must(at(m, [r('GrandTotalAmount')]), 'BT-112'),
      rounding: at(m, [r('RoundingAmount')]),
      payable: must(at(m, [r('DuePayableAmount')]), 'BT-115'),
    },
    amounts: Array.from(root.getElementsByTagNameNS(ram, '*'))
      .filter((e) => amountNames.has(e.localName))
      .map((e) => e.textContent ?? ''),
  };
}
