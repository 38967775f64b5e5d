import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EINVOICE_DIR } from './einvoice-files.js';
import { leafValues, neutralPath } from './xml-paths.js';

// The shared e-invoice corpus (../shared/einvoice/examples), what each document's XML states
// (read by the tests' own leaf extraction, xmlbuilder2, not by our reader), and the refusals and
// verdicts the broken ones must get: for the reader's corpus test and the API's.

export const FOLDERS = ['cen-ubl', 'cen-cii', 'peppol', 'xrechnung', 'facturx', 'broken'];
export const corpus = FOLDERS.flatMap((folder) =>
  readdirSync(join(EINVOICE_DIR, 'examples', folder)).map((file) => `${folder}/${file}`),
);

/** The refusals the broken files must get: what is wrong with each, in its own words. */
export const REFUSED: Record<string, { code: string; message: RegExp }> = {
  'broken/EmptyPDFA1.pdf': { code: 'PDF_NO_INVOICE', message: /no embedded files: it is a plain PDF/ },
  'broken/corrupt-factur-x-waytoosmall.pdf': { code: 'PDF_UNREADABLE', message: /no document catalog|cannot be/ },
};

/** Read, but judged invalid: the embedded XML breaks a rule. */
export const INVALID: Record<string, string[]> = {
  'broken/XMLinvalidV2PDF.pdf': ['CII-DT-031'],
  'facturx/zugferd_2p1_EXTENDED_PDFA-3A.pdf': ['BR-CO-12', 'BR-S-08'],
  // Claims Peppol, whose official rules reject its Swedish organisation numbers too.
  'cen-ubl/issue116.xml': ['PEPPOL-COMMON-R049'],
};

const UBL_TOTAL = '/Document/LegalMonetaryTotal/';
const CII_TOTAL =
  '/CrossIndustryInvoice/SupplyChainTradeTransaction/ApplicableHeaderTradeSettlement/SpecifiedTradeSettlementHeaderMonetarySummation/';
const CII_LINE = '/CrossIndustryInvoice/SupplyChainTradeTransaction/IncludedSupplyChainTradeLineItem/';

/** What the XML states, by element path: totals (BT-106 … BT-115), each line's quantity and net amount. */
export function stated(xml: string, syntax: 'ubl' | 'cii') {
  const leaves = new Map<string, string[]>();
  for (const [path, values] of leafValues(xml))
    leaves.set(neutralPath(path), [...(leaves.get(neutralPath(path)) ?? []), ...values]);
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
    quantities:
      leaves.get(ubl ? '/Document/Line/Quantity' : `${CII_LINE}SpecifiedLineTradeDelivery/BilledQuantity`) ?? [],
    lineNets:
      leaves.get(
        ubl
          ? '/Document/Line/LineExtensionAmount'
          : `${CII_LINE}SpecifiedLineTradeSettlement/SpecifiedTradeSettlementLineMonetarySummation/LineTotalAmount`,
      ) ?? [],
  };
}
