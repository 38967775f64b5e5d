import { create } from 'xmlbuilder2';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PDF_LANGUAGES, problemsFor, renderCii, renderPdf } from '../../../src/documents/index.js';
import { epcPayload } from '../../../src/documents/pdf/girocode.js';
import { Decimal } from '../../../src/money/decimal.js';
import { canValidate, validateAgainstXsd, XSD } from '../../helpers/einvoice-files.js';
import {
  canInspectPdf,
  hasPoppler,
  pdfAttachments,
  pdfFonts,
  pdfPagePng,
  pdfText,
  xmpOf,
} from '../../helpers/pdf-tools.js';
import { documentInputArbitrary } from '../../helpers/document-arbitraries.js';
import { germanInput, viewOf } from '../../helpers/sample-document.js';

// The PDF as a reader and a validator see it: it opens, its fonts are embedded, it carries the
// Factur-X XML and metadata when issued, and its marks when a draft or a test document.

const NOW = new Date('2026-03-02T10:00:00Z');
const issued = viewOf(germanInput());

describe.skipIf(!canInspectPdf)('the PDF', () => {
  it('opens in a reader and renders its first page', async () => {
    expect(hasPoppler, 'poppler-utils (pdftoppm, pdftotext, pdfdetach, pdffonts) are required').toBe(true);
    const png = pdfPagePng(await renderPdf(issued, { lang: 'en', now: NOW }));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.length).toBeGreaterThan(10_000);
  });

  it('is a PDF/A-3b file with every font embedded, an sRGB output intent and a file id', async () => {
    const pdf = await renderPdf(issued, { lang: 'en', now: NOW });
    expect(pdf.subarray(0, 8).toString()).toBe('%PDF-1.7');
    const fonts = pdfFonts(pdf);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.filter((f) => !f.embedded)).toEqual([]);
    const raw = pdf.toString('latin1');
    expect(raw).toContain('/S /GTS_PDFA1');
    expect(raw).toMatch(/\/ID \[<[0-9a-f]+> <[0-9a-f]+>\]/);
    const xmp = xmpOf(pdf);
    expect(xmp).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(xmp).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
  });

  it('embeds the CII as factur-x.xml, related as Alternative, and valid against the Factur-X schema', async () => {
    const pdf = await renderPdf(issued, { lang: 'de', now: NOW });
    const { names, first } = pdfAttachments(pdf);
    expect(names).toEqual(['factur-x.xml']);
    expect(first).toBe(renderCii(issued, { profile: 'en16931' }));
    const raw = pdf.toString('latin1');
    expect(raw).toContain('/AFRelationship /Alternative');
    expect(raw).toContain('/Subtype /text#2Fxml');
    expect(raw).toMatch(/\/AF \[\d+ 0 R\]/);
    if (canValidate)
      expect(validateAgainstXsd([{ name: 'factur-x.xml', xml: first! }], XSD.cii)).toEqual([
        expect.objectContaining({ valid: true }),
      ]);
  });

  it('describes the document and its Factur-X XML in well-formed XMP', async () => {
    const xmp = xmpOf(
      await renderPdf(
        { ...issued, seller: { ...issued.seller, name: 'Müller & Söhne <GmbH>' } },
        { lang: 'de', now: NOW },
      ),
    );
    expect(() => create(xmp)).not.toThrow();
    expect(xmp).toContain('<fx:DocumentType>INVOICE</fx:DocumentType>');
    expect(xmp).toContain('<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>');
    expect(xmp).toContain('<fx:Version>1.0</fx:Version>');
    expect(xmp).toContain('<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>');
    expect(xmp).toContain(
      '<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>',
    );
    expect(xmp).toContain('Rechnung 2026-00042');
    expect(xmp).toContain('Müller &amp; Söhne &lt;GmbH&gt;');
  });

  it('marks a draft as DRAFT on the page and carries no XML', async () => {
    const pdf = await renderPdf({ ...issued, draft: true }, { lang: 'en', now: NOW });
    expect(pdfText(pdf)).toContain('DRAFT');
    expect(pdfAttachments(pdf).names).toEqual([]);
    expect(xmpOf(pdf)).not.toContain('fx:DocumentType');
  });

  it('marks a test document as TEST, in every language, and an issued one with neither', async () => {
    const test = { ...issued, number: 'TEST-2026-00001', test: true };
    expect(pdfText(await renderPdf(test, { lang: 'en', now: NOW }))).toMatch(/TEST — Test document/);
    expect(pdfText(await renderPdf(test, { lang: 'de', now: NOW }))).toMatch(/TEST — Testdokument/);
    const text = pdfText(await renderPdf(issued, { lang: 'en', now: NOW }));
    expect(text).not.toMatch(/DRAFT|TEST —/);
  });

  it('speaks German and French with their numbers and dates, and English with its own', async () => {
    const de = pdfText(await renderPdf(issued, { lang: 'de', now: NOW }));
    expect(de).toContain('Rechnung');
    expect(de).toContain('1.276,98 €');
    expect(de).toContain('02.03.2026');
    const fr = pdfText(await renderPdf(issued, { lang: 'fr', now: NOW }));
    expect(fr).toContain('Facture');
    expect(fr).toMatch(/1\s276,98\s€/);
    expect(fr).toContain('2 mars 2026');
    const en = pdfText(await renderPdf(issued, { lang: 'en', now: NOW }));
    expect(en).toContain('€1,276.98');
    expect(en).toContain('Mar 2, 2026');
  });

  it('shows a credit note as such and carries a credit note in its XML', async () => {
    const note = viewOf(
      germanInput({ typeCode: '381', precedingInvoice: { number: '2026-00041', issueDate: '2026-02-01' } }),
    );
    const pdf = await renderPdf(note, { lang: 'en', now: NOW });
    expect(pdfText(pdf)).toContain('Credit note');
    expect(pdfAttachments(pdf).first).toContain('<ram:TypeCode>381</ram:TypeCode>');
  });

  it('renders random documents of every kind, three-digit currencies and drafts included, and each opens', async () => {
    const inputs = fc.sample(
      fc.tuple(documentInputArbitrary({ digits: [0, 2, 3] }), fc.boolean(), fc.constantFrom(...PDF_LANGUAGES)),
      { numRuns: 24, seed: 3 },
    );
    for (const [input, draft, lang] of inputs) {
      const view = viewOf({ ...input, draft });
      const pdf = await renderPdf(view, { lang, now: NOW });
      const text = pdfText(pdf);
      expect(text).toContain(view.number);
      // Only an issued document that is a valid EN 16931 invoice carries factur-x.xml.
      const valid = problemsFor(view, ['en16931']).length === 0;
      expect(pdfAttachments(pdf).names).toEqual(!draft && valid ? ['factur-x.xml'] : []);
    }
  });

  it('breaks a long invoice over pages and numbers them', async () => {
    const many = germanInput({
      lines: Array.from({ length: 60 }, (_, i) => ({ ...germanInput().lines[1]!, name: `Item ${i + 1}` })),
    });
    const text = pdfText(await renderPdf(viewOf(many), { lang: 'en', now: NOW }));
    expect(text).toContain('Page 1 of 3');
    expect(text).toContain('Item 60');
  });
});

describe('the EPC GiroCode', () => {
  it('carries the EPC069-12 fields of a euro credit transfer', () => {
    expect(epcPayload(issued)?.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'BYLADEM1001',
      'Muster Software GmbH',
      'DE02120300000000202051',
      'EUR1276.98',
      '',
      '',
      '2026-00042',
    ]);
  });

  it('is left out for other currencies, other payment means and credit notes', () => {
    expect(epcPayload({ ...issued, currency: { code: 'USD', minorDigits: 2 } })).toBeNull();
    expect(
      epcPayload({ ...issued, paymentMeans: { ...issued.paymentMeans!, code: '59', creditTransfer: null } }),
    ).toBeNull();
    expect(epcPayload({ ...issued, typeCode: '381' })).toBeNull();
    expect(
      epcPayload(
        viewOf(
          germanInput({
            lines: [{ ...germanInput().lines[1]!, quantity: new Decimal('-3') }],
            allowances: [],
            charges: [],
          }),
        ),
      ),
    ).toBeNull();
  });
});
