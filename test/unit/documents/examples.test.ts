import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderCii, renderUbl } from '../../../src/documents/index.js';
import { Decimal } from '../../../src/money/decimal.js';
import { documentInputArbitrary } from '../../helpers/document-arbitraries.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';
import { readCii } from '../../helpers/einvoice-reading.js';
import { germanInput, sampleInput, viewOf } from '../../helpers/sample-document.js';
import { leafValues, neutralPath } from '../../helpers/xml-paths.js';

// Our mapping next to the official examples: the hand-made copy of Peppol's base example must
// say, field for field, what the example says; and every element path we write, for random
// documents too, must be one the official examples use.

// EN 16931 bindings the official examples happen not to show, each with its business term.
const NOT_IN_EXAMPLES = new Set([
  '/Document/PaymentMeans/PaymentDueDate', // BT-9 of a UBL credit note
  '/Document/PaymentMeans/CardAccount/PrimaryAccountNumberID', // BT-87
  '/Document/PaymentMeans/CardAccount/NetworkID', // required by UBL with BT-87
  '/Document/PaymentMeans/CardAccount/HolderName', // BT-88
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/BuyerTradeParty/SpecifiedLegalOrganization/ID/@schemeID', // BT-47-1
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementPaymentMeans/PayeePartyCreditorFinancialAccount/ProprietaryID', // BT-84, not an IBAN
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementPaymentMeans/ApplicableTradeSettlementFinancialCard/ID', // BT-87
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementPaymentMeans/ApplicableTradeSettlementFinancialCard/CardholderName', // BT-88
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementPaymentMeans/PayerPartyDebtorFinancialAccount/IBANID', // BT-91
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementHeaderMonetarySummation/RoundingAmount', // BT-114
]);

const examples = (folder: string) =>
  readdirSync(join(EINVOICE_DIR, 'examples', folder)).map((f) =>
    readFileSync(join(EINVOICE_DIR, 'examples', folder, f), 'utf8'),
  );
const sameValue = (a: string, b: string) =>
  a === b || (/^-?\d+(\.\d+)?$/.test(a) && /^-?\d+(\.\d+)?$/.test(b) && new Decimal(a).equals(b));
const pathsOf = (docs: string[]) =>
  new Set([...NOT_IN_EXAMPLES, ...docs.flatMap((xml) => [...leafValues(xml).keys()].map(neutralPath))]);

describe('mapping compared with the official examples', () => {
  it('writes the hand-made copy of Peppol’s base example with the example’s values in every field we fill', () => {
    const ours = leafValues(renderUbl(viewOf(sampleInput()), { profile: 'peppol' }));
    const official = leafValues(readFileSync(join(EINVOICE_DIR, 'examples/peppol/base-example.xml'), 'utf8'));
    const differences: string[] = [];
    for (const [path, values] of ours) {
      const expected = official.get(path);
      if (!expected) differences.push(`${path}: not in the example`);
      else if (values.length !== expected.length || values.some((v, i) => !sameValue(v, expected[i]!)))
        differences.push(`${path}: ${JSON.stringify(values)} ≠ ${JSON.stringify(expected)}`);
    }
    expect(differences).toEqual([]);
    // And the example's amounts are all ours.
    for (const path of [
      '/Invoice/LegalMonetaryTotal/PayableAmount',
      '/Invoice/TaxTotal/TaxAmount',
      '/Invoice/InvoiceLine/LineExtensionAmount',
    ])
      expect(ours.has(path)).toBe(true);
  });

  it('writes only element paths that the official UBL examples use, or bindings they do not show', () => {
    const known = pathsOf([...examples('cen-ubl'), ...examples('peppol')]);
    const views = [sampleInput(), germanInput(), ...fc.sample(documentInputArbitrary(), { numRuns: 40, seed: 7 })].map(
      viewOf,
    );
    const unknown = new Set<string>();
    for (const view of views) {
      for (const profile of ['peppol', 'xrechnung'] as const) {
        for (const path of leafValues(renderUbl(view, { profile })).keys())
          if (!known.has(neutralPath(path))) unknown.add(neutralPath(path));
      }
    }
    expect([...unknown]).toEqual([]);
  });

  it('writes only element paths that the official CII examples use, or bindings they do not show', () => {
    const known = pathsOf(examples('cen-cii'));
    const views = [sampleInput(), germanInput(), ...fc.sample(documentInputArbitrary(), { numRuns: 40, seed: 7 })].map(
      viewOf,
    );
    const unknown = new Set<string>();
    for (const view of views) {
      for (const profile of ['en16931', 'xrechnung'] as const) {
        for (const path of leafValues(renderCii(view, { profile })).keys()) if (!known.has(path)) unknown.add(path);
      }
    }
    expect([...unknown]).toEqual([]);
  });

  it('writes a tax number for the seller (BT-32) but never for the buyer, who has no such term', () => {
    const input = germanInput({ buyer: { ...germanInput().buyer, taxRegistrationId: '98/765/43210' } });
    const view = viewOf(input);
    const ubl = leafValues(renderUbl(view, { profile: 'xrechnung' }));
    expect(ubl.get('/Invoice/AccountingSupplierParty/Party/PartyTaxScheme/CompanyID')).toEqual([
      'DE123456789',
      '12/345/67890',
    ]);
    expect(ubl.get('/Invoice/AccountingCustomerParty/Party/PartyTaxScheme/CompanyID')).toEqual(['DE811907980']);
    const cii = leafValues(renderCii(view, { profile: 'xrechnung' }));
    const registrations = (party: string) =>
      cii.get(
        `/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeAgreement/${party}/SpecifiedTaxRegistration/ID`,
      );
    expect(registrations('SellerTradeParty')).toEqual(['DE123456789', '12/345/67890']);
    expect(registrations('BuyerTradeParty')).toEqual(['DE811907980']);
  });

  it('carries the hand-made German invoice’s figures into CII unchanged', () => {
    const view = viewOf(germanInput());
    const cii = readCii(renderCii(view, { profile: 'xrechnung' }));
    expect(cii.totals).toEqual({
      lineNet: view.totals.lineNetTotal,
      allowances: view.totals.allowanceTotal,
      charges: view.totals.chargeTotal,
      taxExclusive: view.totals.taxExclusive,
      taxTotal: view.totals.taxTotal,
      taxInclusive: view.totals.taxInclusive,
      rounding: null,
      payable: view.totals.payable,
    });
    // 7.5 h × 95.00 = 712.50, less 10 % (71.25) = 641.25: the discount is a line allowance.
    expect(cii.lines[0]).toMatchObject({
      quantity: '7.5',
      price: '95',
      baseQuantity: null,
      allowances: ['71.25'],
      net: '641.25',
      category: 'S',
      rate: '19',
    });
    expect(cii.breakdown.map((g) => [g.category, g.rate, g.taxable, g.tax])).toEqual([
      ['S', '19', '636.15', '120.87'],
      ['S', '7', '37.35', '2.61'],
      ['E', '0', '480.00', '0.00'],
    ]);
  });
});
