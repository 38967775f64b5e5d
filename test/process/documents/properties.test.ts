import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { problemsFor, renderCii, renderUbl } from '../../../src/documents/index.js';
import { documentInputArbitrary } from '../../helpers/document-arbitraries.js';
import { canValidate, hasXmllint, validateAgainstXsd, XSD } from '../../helpers/einvoice-files.js';
import { readCii, readUbl } from '../../helpers/einvoice-reading.js';
import { expectXmlIdentities } from '../../helpers/einvoice-identities.js';
import { viewOf } from '../../helpers/sample-document.js';

// Random invoices and credit notes over every VAT category, allowances and charges, both price
// modes and currencies with 0, 2 and 3 minor digits: computed by our arithmetic, rendered, read
// back, and held to the EN 16931 calculation rules and the XSDs.

describe('random e-invoices', () => {
  it('are complete for every profile, and keep every EN 16931 calculation rule exact in UBL and CII', () => {
    fc.assert(
      fc.property(documentInputArbitrary({ digits: [0, 2] }), (input) => {
        const view = viewOf(input);
        expect(problemsFor(view, ['en16931', 'peppol', 'xrechnung'])).toEqual([]);
        const digits = view.currency.minorDigits;
        for (const profile of ['peppol', 'xrechnung'] as const) {
          const doc = readUbl(renderUbl(view, { profile }));
          expect(doc.typeCode).toBe(view.typeCode);
          expectXmlIdentities(doc, digits);
        }
        for (const profile of ['en16931', 'xrechnung'] as const) {
          const doc = readCii(renderCii(view, { profile }));
          expect(doc.typeCode).toBe(view.typeCode);
          expectXmlIdentities(doc, digits);
        }
      }),
      { numRuns: 150 },
    );
  });

  it.skipIf(!canValidate)('are valid against the UBL 2.1 and CII D16B schemas', () => {
    expect(hasXmllint, 'xmllint (Debian libxml2-utils) is required').toBe(true);
    const ublInvoices: { name: string; xml: string }[] = [];
    const ublCreditNotes: { name: string; xml: string }[] = [];
    const cii: { name: string; xml: string }[] = [];
    for (const input of fc.sample(documentInputArbitrary({ digits: [0, 2] }), { numRuns: 100, seed: 42 })) {
      const view = viewOf(input);
      const name = `${view.number} ${view.typeCode}`;
      const ubl = view.typeCode === '381' ? ublCreditNotes : ublInvoices;
      for (const profile of ['peppol', 'xrechnung'] as const)
        ubl.push({ name: `${name} ${profile}`, xml: renderUbl(view, { profile }) });
      for (const profile of ['en16931', 'xrechnung'] as const)
        cii.push({ name: `${name} ${profile}`, xml: renderCii(view, { profile }) });
    }
    const invalid = [
      ...validateAgainstXsd(ublInvoices, XSD.ublInvoice),
      ...validateAgainstXsd(ublCreditNotes, XSD.ublCreditNote),
      ...validateAgainstXsd(cii, XSD.cii),
    ].filter((r) => !r.valid);
    expect(invalid).toEqual([]);
  });

  it('are refused with BR-DEC-09 when the currency has three minor digits', () => {
    fc.assert(
      fc.property(documentInputArbitrary({ digits: [3] }), (input) => {
        const problems = problemsFor(viewOf(input), ['en16931']);
        expect(problems).toContainEqual(expect.objectContaining({ field: 'currency', code: 'BR-DEC-09' }));
      }),
      { numRuns: 50 },
    );
  });
});
