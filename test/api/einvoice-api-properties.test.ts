import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/money/decimal.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import {
  apiScenarioArbitrary,
  DOCUMENT_FORMATS,
  getDocument,
  issueScenario,
  type ApiScenario,
  type DocumentFormat,
} from '../helpers/einvoice-api-scenarios.js';
import { canValidate, validateAgainstXsd, XSD } from '../helpers/einvoice-files.js';
import { expectXmlIdentities } from '../helpers/einvoice-identities.js';
import { readCii, readUbl, type ReadDocument } from '../helpers/einvoice-reading.js';

// The API's e-invoices, not only the engine's: random companies (seller profiles in DE, AT, FR,
// NL and BE), buyers and invoices made through the API, some credited (with and without lines)
// or voided, and every document fetched from the endpoints. Each answered document is valid
// against its XSD, keeps the EN 16931 calculation identities, and states exactly the totals and
// VAT breakdown the API's JSON shows; each refusal is 422 EINVOICE_INCOMPLETE naming the rules
// of the gaps the scenario was made with, and nothing else is refused.

type Json = Record<string, unknown>;
type Totals = Record<
  | 'lineNetTotal'
  | 'allowanceTotal'
  | 'chargeTotal'
  | 'taxExclusive'
  | 'taxTotal'
  | 'taxInclusive'
  | 'roundingAmount'
  | 'payable',
  string
>;
type Breakdown = { vatCategory: string; vatRate: string; taxableAmount: string; taxAmount: string }[];

/**
 * NL-R-007 asks a Dutch seller for payment means only when money is to be paid: a document whose
 * allowances take its payable amount below zero needs none.
 */
function unlessBelowZero(document: { totals?: unknown }, gaps: string[]): string[] {
  const payable = String((document.totals as { payable?: string } | undefined)?.payable ?? '');
  return payable.startsWith('-') ? gaps.filter((code) => code !== 'NL-R-007') : gaps;
}

const RUNS = Number(process.env.EINVOICE_API_RUNS ?? 30);

/** The XML states the JSON's totals and breakdown, to the digit; an optional total left out is zero. */
function expectSameAmounts(doc: ReadDocument, json: Json, what: string): void {
  const totals = json.totals as Totals;
  const optional = (xml: string | null, api: string, name: string) => {
    if (xml === null) expect(new Decimal(api).isZero(), `${what}: ${name} ${api} is not in the XML`).toBe(true);
    else expect(xml, `${what}: ${name}`).toBe(api);
  };
  expect(doc.totals.lineNet, `${what}: BT-106`).toBe(totals.lineNetTotal);
  optional(doc.totals.allowances, totals.allowanceTotal, 'BT-107');
  optional(doc.totals.charges, totals.chargeTotal, 'BT-108');
  expect(doc.totals.taxExclusive, `${what}: BT-109`).toBe(totals.taxExclusive);
  expect(doc.totals.taxTotal, `${what}: BT-110`).toBe(totals.taxTotal);
  expect(doc.totals.taxInclusive, `${what}: BT-112`).toBe(totals.taxInclusive);
  optional(doc.totals.rounding, totals.roundingAmount, 'BT-114');
  expect(doc.totals.payable, `${what}: BT-115`).toBe(totals.payable);
  const breakdown = json.vatBreakdown as Breakdown;
  expect(
    doc.breakdown.map((g) => `${g.category} ${g.taxable} ${g.tax}`),
    `${what}: BG-23`,
  ).toEqual(breakdown.map((g) => `${g.vatCategory} ${g.taxableAmount} ${g.taxAmount}`));
  const nets = (json.lines as { netAmount: string }[]).map((l) => l.netAmount);
  expect(
    doc.lines.map((l) => l.net),
    `${what}: BT-131`,
  ).toEqual(nets);
}

const creditNoteGaps = (s: ApiScenario, note: Json, target: DocumentFormat['profile']): string[] => {
  // A credit note has no due date: with an amount due it states payment terms (BR-CO-25).
  const noTerms = note.paymentTerms === null && !(Number((note.totals as Totals).payable) <= 0);
  return [...s.expectedGaps[target], ...(noTerms ? ['BR-CO-25'] : [])];
};

for (const dialect of DIALECTS) {
  describe.runIf(canValidate)(
    `e-invoices of random companies, invoices and credit notes made through the API on ${dialect}`,
    () => {
      let t: TestApp;
      let n = 0;

      beforeAll(async () => {
        t = await buildTestApp(dialect);
      });
      afterAll(async () => t.close());

      it('answers every document the data allows, valid against the XSD, with the calculation identities and exactly the JSON totals, and refuses only the gaps made on purpose', async () => {
        await fc.assert(
          fc.asyncProperty(apiScenarioArbitrary({ digits: [0, 2] }), async (scenario) => {
            const issued = await issueScenario(t, scenario, ++n);
            const sources = [
              {
                kind: 'invoice' as const,
                json: issued.invoice,
                gaps: (target: DocumentFormat['profile']) =>
                  unlessBelowZero(issued.invoice, scenario.expectedGaps[target]),
              },
              ...issued.creditNotes.map((note) => ({
                kind: 'credit-note' as const,
                json: note,
                gaps: (target: DocumentFormat['profile']) =>
                  unlessBelowZero(note, creditNoteGaps(scenario, note, target)),
              })),
            ];
            const xsdBatches: Record<'ublInvoice' | 'ublCreditNote' | 'cii', { name: string; xml: string }[]> = {
              ublInvoice: [],
              ublCreditNote: [],
              cii: [],
            };
            for (const source of sources) {
              for (const f of DOCUMENT_FORMATS) {
                const what = `${source.kind} ${f.name}`;
                const res = await getDocument(t, issued.key, source.kind, source.json.id as string, f);
                const expected = source.gaps(f.profile);
                if (expected.length > 0) {
                  expect(res.status, `${what} has gaps ${expected.join(', ')}: ${res.body.slice(0, 300)}`).toBe(422);
                  const error = JSON.parse(res.body).error as { code: string; details: { code: string }[] };
                  expect(error.code).toBe('EINVOICE_INCOMPLETE');
                  expect([...new Set(error.details.map((d) => d.code))].sort(), what).toEqual(
                    [...new Set(expected)].sort(),
                  );
                  continue;
                }
                expect(res.status, `${what}: ${res.body.slice(0, 600)}`).toBe(200);
                const doc = f.format === 'ubl' ? readUbl(res.body) : readCii(res.body);
                expect(doc.typeCode).toBe(source.kind === 'invoice' ? '380' : '381');
                expectXmlIdentities(doc, scenario.digits);
                expectSameAmounts(doc, source.json, what);
                const batch = f.format === 'cii' ? 'cii' : source.kind === 'invoice' ? 'ublInvoice' : 'ublCreditNote';
                xsdBatches[batch].push({ name: what, xml: res.body });
              }
            }
            for (const [schema, documents] of Object.entries(xsdBatches)) {
              for (const result of validateAgainstXsd(documents, XSD[schema as keyof typeof XSD]))
                expect(result.valid, `${result.name}: ${result.errors}`).toBe(true);
            }
          }),
          { numRuns: RUNS, ...(process.env.EINVOICE_API_SEED ? { seed: Number(process.env.EINVOICE_API_SEED) } : {}) },
        );
      }, 120_000);

      it('refuses every document of an invoice in a currency with three minor digits (KWD, BHD) with 422 EINVOICE_INCOMPLETE and rule BR-DEC-09', async () => {
        await fc.assert(
          fc.asyncProperty(apiScenarioArbitrary({ digits: [3] }), async (scenario) => {
            const issued = await issueScenario(t, { ...scenario, credit: { kind: 'full' } }, ++n);
            for (const [kind, json] of [
              ['invoice', issued.invoice],
              ...issued.creditNotes.map((note) => ['credit-note', note] as const),
            ] as const) {
              for (const f of DOCUMENT_FORMATS) {
                const res = await getDocument(t, issued.key, kind, json.id as string, f);
                expect(res.status, `${kind} ${f.name}`).toBe(422);
                const error = JSON.parse(res.body).error as {
                  code: string;
                  details: { field: string; code: string }[];
                };
                expect(error.code).toBe('EINVOICE_INCOMPLETE');
                expect(error.details).toContainEqual(expect.objectContaining({ field: 'currency', code: 'BR-DEC-09' }));
              }
            }
          }),
          { numRuns: 5 },
        );
      }, 60_000);
    },
  );
}
