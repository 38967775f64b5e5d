import { CURRENCIES } from '../rules/code-list-data.js';
import type { StructureResult } from '../rules/engine.js';
import type { Finding } from '../rules/finding.js';
import type { Syntax } from './detect.js';
import type { SyntaxReading } from './reading.js';
import { pathOf, type XmlElement } from './xml-tree.js';

// The structural (XSD-level) result of a read document, checked by the reader without the
// schemas: every amount, quantity and percentage a decimal, every date a date (CII: format 102),
// every indicator true or false, every UBL amount with a currency, and that currency an ISO 4217
// code (BR-CL-03, which only the reader can see). Elements the model has no field for are listed
// as unmapped, not refused: the official schemas would refuse unknown ones, we keep them.

export type { StructureResult };

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const DATE = /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/;
const UBL_DATES = new Set([
  'IssueDate',
  'DueDate',
  'TaxPointDate',
  'StartDate',
  'EndDate',
  'ActualDeliveryDate',
  'PaymentDueDate',
]);
const UBL_NUMBERS = /(Amount|Quantity)$|^(Percent|MultiplierFactorNumeric)$/;
const CII_NUMBERS = /Amount$|^(BilledQuantity|BasisQuantity|RateApplicablePercent|CalculationPercent)$/;

function finding(rule: string, element: XmlElement, message: string, term = ''): Finding {
  const location = pathOf(element);
  return { rule, severity: 'fatal', term, field: location, location, message };
}

function walk(element: XmlElement, visit: (e: XmlElement) => void): void {
  visit(element);
  for (const child of element.children) walk(child, visit);
}

/** Elements the schemas require, as paths of local names from the root. */
const REQUIRED: Record<Syntax, string[]> = {
  ubl: [
    'ID',
    'IssueDate',
    'AccountingSupplierParty',
    'AccountingCustomerParty',
    'LegalMonetaryTotal',
    'LegalMonetaryTotal/PayableAmount',
  ],
  cii: [
    'ExchangedDocumentContext',
    'ExchangedDocumentContext/GuidelineSpecifiedDocumentContextParameter',
    'ExchangedDocument',
    'SupplyChainTradeTransaction',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/SellerTradeParty',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/BuyerTradeParty',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeDelivery',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/InvoiceCurrencyCode',
    'SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementHeaderMonetarySummation',
  ],
};

function missing(root: XmlElement, syntax: Syntax): Finding[] {
  const lines = syntax === 'cii' ? [] : [root.local === 'CreditNote' ? 'CreditNoteLine' : 'InvoiceLine'];
  return [...REQUIRED[syntax], ...lines]
    .filter((path) => {
      let node: XmlElement | undefined = root;
      for (const step of path.split('/')) node = node?.children.find((c) => c.local === step);
      return node === undefined;
    })
    .map((path) =>
      finding(
        'XSD-REQUIRED',
        root,
        `The document lacks ${path}, which the ${syntax === 'ubl' ? 'UBL 2.1' : 'CII D16B'} schema requires.`,
      ),
    );
}

export function checkStructure(root: XmlElement, syntax: Syntax, _reading: SyntaxReading): StructureResult {
  const findings: Finding[] = missing(root, syntax);
  walk(root, (e) => {
    if (e.children.length > 0) return;
    const text = e.text.trim();
    if (syntax === 'ubl') {
      if (UBL_NUMBERS.test(e.local) && !DECIMAL.test(text))
        findings.push(finding('XSD-DECIMAL', e, `${e.name} holds "${text}", which is not a decimal number.`));
      if (/Amount$/.test(e.local)) {
        const currency = e.attributes.currencyID;
        if (currency === undefined) findings.push(finding('XSD-CURRENCY', e, `${e.name} has no currencyID.`));
        else if (!CURRENCIES.has(currency.trim()))
          findings.push(finding('BR-CL-03', e, `${currency} is not an ISO 4217 currency code.`, 'BT-5'));
      }
      if (UBL_DATES.has(e.local) && !DATE.test(text))
        findings.push(finding('XSD-DATE', e, `${e.name} holds "${text}", which is not a date (YYYY-MM-DD).`));
      if (e.local === 'ChargeIndicator' && !/^(true|false|1|0)$/.test(text))
        findings.push(finding('XSD-INDICATOR', e, `${e.name} holds "${text}", not true or false.`));
    } else {
      if (CII_NUMBERS.test(e.local) && !DECIMAL.test(text))
        findings.push(finding('XSD-DECIMAL', e, `${e.name} holds "${text}", which is not a decimal number.`));
      if (/Amount$/.test(e.local) && e.local !== 'TaxTotalAmount') {
        if (e.attributes.currencyID !== undefined)
          findings.push(
            finding('CII-DT-031', e, `${e.name} carries a currencyID, which only the VAT total may have in CII.`),
          );
        if (e.attributes.currencyCodeListVersionID !== undefined)
          findings.push(
            finding('CII-DT-032', e, `${e.name} carries a currencyCodeListVersionID, which CII does not allow.`),
          );
      }
      if (
        e.local === 'TaxTotalAmount' &&
        e.attributes.currencyID !== undefined &&
        !CURRENCIES.has(e.attributes.currencyID.trim())
      ) {
        findings.push(finding('BR-CL-03', e, `${e.attributes.currencyID} is not an ISO 4217 currency code.`, 'BT-5'));
      }
      if (e.local === 'DateTimeString') {
        const format = e.attributes.format;
        if (format === '102' ? !/^\d{8}$/.test(text) : format === undefined)
          findings.push(
            finding('XSD-DATE', e, `${e.name} holds "${text}", which is not a date of format 102 (YYYYMMDD).`),
          );
      }
      if (e.local === 'Indicator' && !/^(true|false)$/.test(text))
        findings.push(finding('XSD-INDICATOR', e, `${e.name} holds "${text}", not true or false.`));
    }
  });
  // BR-CL-03 is a business rule, not a schema error: it judges the document, not its structure.
  const structural = findings.filter((f) => f.rule.startsWith('XSD-'));
  return { valid: structural.length === 0, findings };
}
