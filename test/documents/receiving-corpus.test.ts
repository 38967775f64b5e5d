import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { judgeDocument, readDocument } from '../../src/documents/read/index.js';
import { EINVOICE_DIR } from '../helpers/einvoice-files.js';
import { leafValues, neutralPath } from '../helpers/xml-paths.js';

// Every document of ../shared/einvoice/examples is either read with exactly the totals its XML
// states (BT-106 to BT-115, as written) and its lines, or refused with a clear reason. The XML's
// own figures come from the tests' own leaf extraction (xmlbuilder2), not from our reader.

const FOLDERS = ['cen-ubl', 'cen-cii', 'peppol', 'xrechnung', 'facturx', 'broken'];
const corpus = FOLDERS.flatMap((folder) => readdirSync(join(EINVOICE_DIR, 'examples', folder)).map((file) => `${folder}/${file}`));

/** The refusals the broken files must get: what is wrong with each, in its own words. */
const REFUSED: Record<string, { code: string; message: RegExp }> = {
  'broken/EmptyPDFA1.pdf': { code: 'PDF_NO_INVOICE', message: /no embedded files: it is a plain PDF/ },
  'broken/corrupt-factur-x-waytoosmall.pdf': { code: 'PDF_UNREADABLE', message: /no document catalog|cannot be/ },
};

/** Read, but judged invalid: the embedded XML breaks a rule. */
const INVALID: Record<string, string[]> = {
  'broken/XMLinvalidV2PDF.pdf': ['CII-DT-031'],
  'facturx/zugferd_2p1_EXTENDED_PDFA-3A.pdf': ['BR-CO-12', 'BR-S-08'],
  // Claims Peppol, whose official rules reject its Swedish organisation numbers too.
  'cen-ubl/issue116.xml': ['PEPPOL-COMMON-R049'],
};

const UBL_TOTAL = '/Document/LegalMonetaryTotal/';
const CII_TOTAL = '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementHeaderMonetarySummation/';
const CII_LINE = '/CrossIndustryInvoice/SupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem/';

/** What the XML states, by element path: totals (BT-106 … BT-115), each line's quantity and net amount. */
function stated(xml: string, syntax: 'ubl' | 'cii') {
  const leaves = new Map<string, string[]>();
  for (const [path, values] of leafValues(xml)) leaves.set(neutralPath(path), [...(leaves.get(neutralPath(path)) ?? []), ...values]);
  const one = (path: string) => leaves.get(path)?.[0] ?? null;
  const ubl = syntax === 'ubl';
  const total = (ublName: string, ciiName: string) => one(ubl ? UBL_TOTAL + ublName : CII_TOTAL + ciiName);
  return {
    totals: {
      lineNet: total('LineExtensionAmount', 'LineTotalAmount'),
      allowances: total('AllowanceTotalAmount', 'AllowanceTotalAmount'),
      charges: total('ChargeTotalAmount', 'ChargeTotalAmount'),
      taxExclusive: total('TaxExclusiveAmount', 'TaxBasisTotalAmount'),
      taxInclusive: total('TaxInclusiveAmount', 'GrandTotalAmount'),
      prepaid: total('PrepaidAmount', 'TotalPrepaidAmount'),
      rounding: total('PayableRoundingAmount', 'RoundingAmount'),
      payable: total('PayableAmount', 'DuePayableAmount'),
    },
    /** Every VAT total amount stated (one per currency). */
    taxTotals: leaves.get(ubl ? '/Document/TaxTotal/TaxAmount' : `${CII_TOTAL}TaxTotalAmount`) ?? [],
    quantities: leaves.get(ubl ? '/Document/Line/Quantity' : `${CII_LINE}SpecifiedLineTradeDelivery/BilledQuantity`) ?? [],
    lineNets: leaves.get(ubl ? '/Document/Line/LineExtensionAmount' : `${CII_LINE}SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount`) ?? [],
  };
}

describe('the shared e-invoice corpus', () => {
  it('has the documents this test expects', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(110);
    for (const name of [...Object.keys(REFUSED), ...Object.keys(INVALID)]) expect(corpus).toContain(name);
  });

  it.each(corpus)('%s is read with the totals and lines its XML states, or refused with a reason', async (name) => {
    const read = await readDocument(readFileSync(join(EINVOICE_DIR, 'examples', name)));
    const refusal = REFUSED[name];
    if (refusal) {
      expect(read).toMatchObject({ ok: false, code: refusal.code, message: expect.stringMatching(refusal.message) });
      return;
    }
    if (!read.ok) throw new Error(`${name} refused: ${read.code} ${read.message}`);
    const xml = Buffer.from(read.xml).toString('utf8');
    const expected = stated(xml, read.syntax);
    const t = read.model.totals;
    expect({ lineNet: t.lineNetTotal, allowances: t.allowanceTotal, charges: t.chargeTotal, taxExclusive: t.taxExclusive, taxInclusive: t.taxInclusive, prepaid: t.prepaid ?? null, rounding: t.roundingAmount, payable: t.payable }).toEqual(expected.totals);
    if (t.taxTotal === null) expect(expected.taxTotals).toEqual([]);
    else expect(expected.taxTotals).toContain(t.taxTotal);
    expect(read.model.lines.map((l) => l.quantity)).toEqual(expected.quantities);
    expect(read.model.lines.map((l) => l.netAmount)).toEqual(expected.lineNets);
    const judged = judgeDocument(read);
    const fatal = [...new Set([...judged.structure.findings, ...judged.findings].filter((f) => f.severity === 'fatal').map((f) => f.rule))].sort();
    if (INVALID[name]) {
      expect(judged.verdict).toBe('invalid');
      expect(fatal).toEqual(expect.arrayContaining(INVALID[name]));
    } else {
      expect(fatal).toEqual([]);
    }
  });
});
