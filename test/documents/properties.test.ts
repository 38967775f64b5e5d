import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildDocumentView, problemsFor, renderCii, renderUbl } from '../../src/documents/index.js';
import { documentInputArbitrary } from '../helpers/document-arbitraries.js';
import { canValidate, hasXmllint, validateAgainstXsd, XSD } from '../helpers/einvoice-files.js';
import { readCii, readUbl } from '../helpers/einvoice-reading.js';
import { expectXmlIdentities } from '../helpers/einvoice-identities.js';

// Random invoices and credit notes over every VAT category, allowances and charges, both price
// modes and currencies with 0, 2 and 3 minor digits: computed by our arithmetic, rendered, read
// back, and held to the EN 16931 calculation rules and the XSDs.

describe('random e-invoices', () => {
  const rendered: { ublInvoice: { name: string; xml: string }[]; ublCreditNote: { name: string; xml: string }[]; cii: { name: string; xml: string }[] } = {
    ublInvoice: [],
    ublCreditNote: [],
    cii: [],
  };

  it('are complete for every profile, and keep every EN 16931 calculation rule exact in UBL and CII', () => {
    fc.assert(
      fc.property(documentInputArbitrary({ digits: [0, 2] }), (input) => {
        const view = buildDocumentView(input);
        expect(problemsFor(view, ['en16931', 'peppol', 'xrechnung'])).toEqual([]);
        const digits = view.currency.minorDigits;
        const ubl = { peppol: renderUbl(view, { profile: 'peppol' }), xrechnung: renderUbl(view, { profile: 'xrechnung' }) };
        const cii = { en16931: renderCii(view, { profile: 'en16931' }), xrechnung: renderCii(view, { profile: 'xrechnung' }) };
        for (const xml of Object.values(ubl)) {
          const doc = readUbl(xml);
          expect(doc.typeCode).toBe(view.typeCode);
          expectXmlIdentities(doc, digits);
        }
        for (const xml of Object.values(cii)) {
          const doc = readCii(xml);
          expect(doc.typeCode).toBe(view.typeCode);
          expectXmlIdentities(doc, digits);
        }
        const name = `${view.number} ${view.typeCode}`;
        const ublList = view.typeCode === '381' ? rendered.ublCreditNote : rendered.ublInvoice;
        ublList.push({ name: `${name} peppol`, xml: ubl.peppol }, { name: `${name} xrechnung`, xml: ubl.xrechnung });
        rendered.cii.push({ name: `${name} en16931`, xml: cii.en16931 }, { name: `${name} xrechnung`, xml: cii.xrechnung });
      }),
      { numRuns: 150 },
    );
  });

  it.skipIf(!canValidate)('are valid against the UBL 2.1 and CII D16B schemas', () => {
    expect(hasXmllint, 'xmllint (Debian libxml2-utils) is required').toBe(true);
    expect(rendered.ublInvoice.length + rendered.ublCreditNote.length + rendered.cii.length).toBeGreaterThan(100);
    const invalid = [
      ...validateAgainstXsd(rendered.ublInvoice, XSD.ublInvoice),
      ...validateAgainstXsd(rendered.ublCreditNote, XSD.ublCreditNote),
      ...validateAgainstXsd(rendered.cii, XSD.cii),
    ].filter((r) => !r.valid);
    expect(invalid).toEqual([]);
  });

  it('are refused with BR-DEC-09 when the currency has three minor digits', () => {
    fc.assert(
      fc.property(documentInputArbitrary({ digits: [3] }), (input) => {
        const problems = problemsFor(buildDocumentView(input), ['en16931']);
        expect(problems).toContainEqual(expect.objectContaining({ field: 'currency', code: 'BR-DEC-09' }));
      }),
      { numRuns: 50 },
    );
  });
});
