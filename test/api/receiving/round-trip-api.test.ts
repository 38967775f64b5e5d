import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/money/decimal.js';
import { buildTestApp, BASE_PATH, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import {
  apiScenarioArbitrary,
  DOCUMENT_FORMATS,
  getDocument,
  issueScenario,
  type ApiScenario,
  type Target,
} from '../../helpers/einvoice-api-scenarios.js';
import { receive } from '../../helpers/purchase-documents.js';

// The round trip through the API: random invoices (and their credit notes) issued by one company
// with POST /invoice, exported in every profile we export (UBL Peppol, UBL XRechnung, CII EN 16931,
// CII XRechnung, the Factur-X PDF) and POSTed to /purchase-invoice of another company, read back
// into the same totals, lines and parties, by a supplier matched to the issuing company, and
// judged valid by the rules the profile claims; each credit note is linked to its invoice. That
// proves the writers and the intake against each other. A profile the document lacks data for is
// not exported (422 there), and a PDF without its XML is refused here as the plain PDF it is.

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

const RUNS = Number(process.env.RECEIVING_ROUND_TRIP_RUNS ?? 4);
const FORMATS = [
  ...DOCUMENT_FORMATS.map((f) => ({ name: f.name, format: f, target: f.profile as Target })),
  { name: 'factur-x-pdf', format: null, target: 'en16931' as Target },
];

/** The text the writers put in XML: characters XML cannot hold dropped (as xml.ts does). */
// eslint-disable-next-line no-control-regex
const asXmlText = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').trim();
const zero = (text: string | null) => text === null || new Decimal(text).isZero();

function expectSameDocument(received: Json & { totals: Totals; document: Json }, issued: Json, what: string): void {
  const totals = issued.totals as Totals;
  const t = received.totals;
  for (const name of ['lineNetTotal', 'taxExclusive', 'taxTotal', 'taxInclusive', 'payable'] as const)
    expect(t[name], `${what}: ${name}`).toBe(totals[name]);
  for (const name of ['allowanceTotal', 'chargeTotal', 'roundingAmount'] as const) {
    if (zero(totals[name])) expect(zero(t[name]), `${what}: ${name}`).toBe(true);
    else expect(t[name], `${what}: ${name}`).toBe(totals[name]);
  }
  const lines = received.document.lines as { name: string; quantity: string; netAmount: string }[];
  const issuedLines = issued.lines as { name: string; quantity: string; netAmount: string }[];
  expect(
    lines.map((l) => [l.name, new Decimal(l.quantity).toFixed(), l.netAmount]),
    `${what}: lines`,
  ).toEqual(issuedLines.map((l) => [asXmlText(l.name), new Decimal(l.quantity).toFixed(), l.netAmount]));
  const seller = received.document.seller as Json & { electronicAddress: { id: string; schemeId: string } | null };
  const issuedSeller = issued.seller as Json & {
    legalName: string | null;
    name: string;
    electronicAddress: { scheme: string; identifier: string } | null;
  };
  expect(seller.name, `${what}: seller`).toBe(asXmlText(issuedSeller.legalName ?? issuedSeller.name));
  expect(seller.vatId, `${what}: seller VAT id`).toBe(issuedSeller.vatId);
  expect(seller.electronicAddress, `${what}: seller address`).toEqual(
    issuedSeller.electronicAddress && {
      id: issuedSeller.electronicAddress.identifier,
      schemeId: issuedSeller.electronicAddress.scheme,
    },
  );
  const buyer = received.document.buyer as Json;
  const issuedBuyer = issued.buyer as Json & { name: string };
  expect(buyer.name, `${what}: buyer`).toBe(asXmlText(issuedBuyer.name));
  expect(buyer.vatId, `${what}: buyer VAT id`).toBe(issuedBuyer.vatId);
}

for (const dialect of DIALECTS) {
  describe(`issued documents received by another company, through the API, on ${dialect}`, () => {
    let t: TestApp;
    let n = 0;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    it('reads every invoice and credit note in every exported profile back into the same totals, lines and parties', async () => {
      await fc.assert(
        fc.asyncProperty(apiScenarioArbitrary({ digits: [0, 2] }), async (scenario: ApiScenario) => {
          const issued = await issueScenario(t, scenario, ++n);
          // One receiving company per format and run: each format's documents are the same invoices (a
          // company would take them as duplicates), and runs may repeat identities (shrinking does).
          const receivers = new Map<string, string>();
          for (const f of FORMATS)
            receivers.set(f.name, (await t.tenant(['purchase-invoice.create', 'purchase-invoice.read'])).key);
          const sources = [
            { kind: 'invoice' as const, json: issued.invoice, gaps: (target: Target) => scenario.expectedGaps[target] },
            ...issued.creditNotes.map((note) => ({
              kind: 'credit-note' as const,
              json: note,
              gaps: (target: Target) => creditNoteGaps(scenario, note, target),
            })),
          ];
          for (const f of FORMATS) {
            const key = receivers.get(f.name)!;
            let invoiceId: string | null = null;
            for (const source of sources) {
              const what = `${source.kind} ${source.json.number as string} as ${f.name}`;
              const gaps = source.gaps(f.target);
              let body: string | Buffer;
              if (f.format) {
                const exported = await getDocument(t, issued.key, source.kind, source.json.id as string, f.format);
                if (gaps.length > 0) {
                  expect(exported.status, what).toBe(422);
                  continue;
                }
                expect(exported.status, `${what}: ${exported.body.slice(0, 300)}`).toBe(200);
                body = exported.body;
              } else {
                const pdf = await t.request({
                  method: 'GET',
                  url: `${BASE_PATH}/${source.kind}/${source.json.id as string}/pdf`,
                  headers: { 'x-api-key': issued.key },
                });
                expect(pdf.statusCode, what).toBe(200);
                body = pdf.rawPayload;
              }
              const res = await receive(t, key, body, {
                contentType: f.format ? 'application/xml' : 'application/pdf',
              });
              if (!f.format && gaps.length > 0) {
                // Not a valid EN 16931 document, so its PDF carries no XML: a plain PDF.
                expect(res.statusCode, what).toBe(422);
                expect(res.json().error.details[0].code, what).toBe('pdf_no_invoice');
                continue;
              }
              expect(res.statusCode, `${what}: ${res.body.slice(0, 600)}`).toBe(201);
              const data = res.json().data;
              expect(data.kind, what).toBe(source.kind);
              expect(data.number, what).toBe(source.json.number);
              expect(data.verdict, `${what}: ${JSON.stringify(data.judgement.findings)}`).not.toBe('invalid');
              expectSameDocument(data, source.json, what);
              if (source.kind === 'invoice') invoiceId = data.id;
              else if (invoiceId) expect(data.correctsId, `${what}: corrects`).toBe(invoiceId);
            }
          }
        }),
        {
          numRuns: RUNS,
          ...(process.env.RECEIVING_ROUND_TRIP_SEED ? { seed: Number(process.env.RECEIVING_ROUND_TRIP_SEED) } : {}),
        },
      );
    }, 300_000);
  });
}

/** A credit note has no due date: with an amount due it states payment terms (BR-CO-25), or it lacks them. */
function creditNoteGaps(s: ApiScenario, note: Json, target: Target): string[] {
  const noTerms = note.paymentTerms === null && !(Number((note.totals as Totals).payable) <= 0);
  return [...s.expectedGaps[target], ...(noTerms ? ['BR-CO-25'] : [])];
}
