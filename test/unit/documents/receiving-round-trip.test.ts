import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemsFor, renderCii, renderPdf, renderUbl, type DocumentView } from '../../../src/documents/index.js';
import type { Einvoice, EinvoiceParty } from '../../../src/documents/einvoice-model.js';
import type { Party } from '../../../src/documents/model.js';
import { judgeDocument, readDocument, type DocumentRead } from '../../../src/documents/read/index.js';
import { documentInputArbitrary } from '../../helpers/document-arbitraries.js';
import { viewOf } from '../../helpers/sample-document.js';

// Every invoice and credit note we issue, in every profile we export, reads back through the
// reader into the same totals, lines and parties, and the engine judges it valid by the rules
// it claims: the writers and the reader proved against each other, on random documents.

const NOW = new Date('2026-03-02T10:00:00Z');
const zero = (text: string | null) => text === null || /^-?0*(\.0*)?$/.test(text);

function expectParty(read: EinvoiceParty, issued: Party): void {
  expect(read.name).toBe(issued.name);
  expect(read.vatId).toBe(issued.vatId);
  expect(read.legalRegistrationId).toEqual(issued.legalRegistrationId);
  expect(read.electronicAddress).toEqual(issued.electronicAddress);
  expect(read.identifier).toEqual(issued.identifier);
  const address = issued.address;
  const empty = ![address.line1, address.line2, address.city, address.postalCode, address.countryCode].some(
    (v) => v && v.trim() !== '',
  );
  if (!empty) {
    expect({
      line1: read.address?.line1 ?? null,
      line2: read.address?.line2 ?? null,
      city: read.address?.city ?? null,
      postalCode: read.address?.postalCode ?? null,
      countryCode: read.address?.countryCode ?? null,
    }).toEqual({
      line1: address.line1,
      line2: address.line2,
      city: address.city,
      postalCode: address.postalCode,
      countryCode: address.countryCode,
    });
  }
}

/** The text the writers put in XML: characters XML cannot hold dropped, as xml.ts does. */
// eslint-disable-next-line no-control-regex
const asXmlText = (text: string) => text.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '').trim();

function expectSame(model: Einvoice, view: DocumentView): void {
  expect(model.typeCode).toBe(view.typeCode);
  expect(model.number).toBe(view.number);
  expect(model.issueDate).toBe(view.issueDate);
  expect(model.currency.code).toBe(view.currency.code);
  const t = model.totals;
  expect({
    lineNet: t.lineNetTotal,
    taxExclusive: t.taxExclusive,
    taxTotal: t.taxTotal,
    taxInclusive: t.taxInclusive,
    payable: t.payable,
  }).toEqual({
    lineNet: view.totals.lineNetTotal,
    taxExclusive: view.totals.taxExclusive,
    taxTotal: view.totals.taxTotal,
    taxInclusive: view.totals.taxInclusive,
    payable: view.totals.payable,
  });
  expect(t.allowanceTotal ?? '0').toBe(view.allowances.length > 0 ? view.totals.allowanceTotal : '0');
  expect(t.chargeTotal ?? '0').toBe(view.charges.length > 0 ? view.totals.chargeTotal : '0');
  if (zero(view.totals.roundingAmount)) expect(zero(t.roundingAmount)).toBe(true);
  else expect(t.roundingAmount).toBe(view.totals.roundingAmount);
  expect(
    model.lines.map((l) => ({
      id: l.id,
      name: l.name,
      quantity: l.quantity,
      unitCode: l.unitCode,
      net: l.netAmount,
      category: l.vatCategory,
      rate: l.vatRate,
      price: l.price?.amount,
      base: l.price?.baseQuantity ?? null,
      allowances: l.allowances.map((a) => a.amount),
    })),
  ).toEqual(
    view.lines.map((l) => ({
      id: l.id,
      name: asXmlText(l.name),
      quantity: l.quantity,
      unitCode: l.unitCode,
      net: l.netAmount,
      category: l.vatCategory,
      rate: l.vatCategory === 'O' ? null : l.vatRate,
      price: l.price.amount,
      base: l.price.baseQuantity,
      allowances: l.allowances.map((a) => a.amount),
    })),
  );
  expect(model.vatBreakdown.map((b) => [b.vatCategory, b.taxableAmount, b.taxAmount])).toEqual(
    view.vatBreakdown.map((b) => [b.vatCategory, b.taxableAmount, b.taxAmount]),
  );
  expect(model.allowances.map((a) => [a.amount, a.vatCategory])).toEqual(
    view.allowances.map((a) => [a.amount, a.vatCategory]),
  );
  expect(model.charges.map((c) => [c.amount, c.vatCategory])).toEqual(
    view.charges.map((c) => [c.amount, c.vatCategory]),
  );
  expectParty(model.seller, view.seller);
  expectParty(model.buyer, view.buyer);
}

async function readBack(bytes: string | Buffer): Promise<DocumentRead> {
  const read = await readDocument(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
  if (!read.ok) throw new Error(`${read.code}: ${read.message}`);
  return read;
}

function expectValid(read: DocumentRead): void {
  const judged = judgeDocument(read);
  const fatal = [...judged.structure.findings, ...judged.findings].filter((f) => f.severity === 'fatal');
  expect(fatal.map((f) => `${f.rule} ${f.field}: ${f.message}`)).toEqual([]);
}

describe('issued documents read back', () => {
  it('in UBL (Peppol, XRechnung) and CII (EN 16931, XRechnung) with the same totals, lines and parties, and valid by the rules they claim', async () => {
    await fc.assert(
      fc.asyncProperty(documentInputArbitrary({ digits: [0, 2] }), async (input) => {
        const view = viewOf(input);
        expect(problemsFor(view, ['en16931', 'peppol', 'xrechnung'])).toEqual([]);
        const documents: [string, string][] = [
          ['ubl', renderUbl(view, { profile: 'peppol' })],
          ['ubl', renderUbl(view, { profile: 'xrechnung' })],
          ['cii', renderCii(view, { profile: 'en16931' })],
          ['cii', renderCii(view, { profile: 'xrechnung' })],
        ];
        for (const [syntax, xml] of documents) {
          const read = await readBack(xml);
          expect(read.syntax).toBe(syntax);
          expect(read.kind).toBe(view.typeCode === '381' && syntax === 'ubl' ? 'credit-note' : 'invoice');
          expectSame(read.model, view);
          expect(read.unmapped).toEqual([]);
          expectValid(read);
        }
      }),
      { numRuns: 60, seed: 2701 },
    );
  });

  it('from the PDF/A-3 with its factur-x.xml, the same as from the CII', async () => {
    for (const input of fc.sample(documentInputArbitrary({ digits: [0, 2] }), { numRuns: 8, seed: 2702 })) {
      const view = viewOf(input);
      if (problemsFor(view, ['en16931']).length > 0) continue;
      const read = await readBack(await renderPdf(view, { lang: 'en', now: NOW }));
      expect(read.container).toEqual({ type: 'pdf', attachment: 'factur-x.xml', relationship: 'Alternative' });
      expect(read.profile).toBe('en16931');
      expectSame(read.model, view);
      expectValid(read);
    }
  });
});
