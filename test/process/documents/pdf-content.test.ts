import { Decimal } from '../../../src/money/decimal.js';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import { cleanText, renderCii, renderPdf, renderUbl } from '../../../src/documents/index.js';
import { belgianStructuredCommunication, creditorReference } from '../../../src/documents/payment-reference.js';
import { epcPayload } from '../../../src/documents/pdf/girocode.js';
import {
  canInspectPdf,
  pdfAttachments,
  pdfNotdefGlyphs,
  pdfPageTexts,
  pdfPlainText,
  pdfQrPayloads,
  pdfWords,
  xmpOf,
} from '../../helpers/pdf-tools.js';
import { germanInput, viewOf } from '../../helpers/sample-document.js';
import { eventually } from '../../helpers/eventually.js';

// What the PDF says and how: the same bytes for the same document, credit notes that ask for
// nothing, status copies, every script, identifiable pages, and each language's conventions.

const base = germanInput();
const issued = viewOf(base);
const creditNote = viewOf(
  germanInput({ typeCode: '381', precedingInvoice: { number: '2026-00041', issueDate: '2026-02-01' }, dueDate: null }),
);
const credit = { reason: 'Zwei Stunden nicht geleistet', voids: false, offset: '1000.00', refund: '276.98' };

describe('one function cleans what XML 1.0 forbids', () => {
  const dirty = 'A\u0001B\u0008C\u000bD\ufffeE\uffffF\ud800G\udc00H\tI\nJ\rK 😀';

  it('drops C0 controls but tab, LF and CR, U+FFFE, U+FFFF and lone surrogates, and keeps the rest', () => {
    expect(cleanText(dirty)).toBe('ABCDEFGH\tI\nJ\rK 😀');
  });

  it.skipIf(!canInspectPdf)(
    'keeps the XMP, the UBL, the CII and the embedded XML well-formed whatever the names hold',
    async () => {
      const view = {
        ...issued,
        buyer: { ...issued.buyer, name: `Buyer ${dirty}` },
        seller: { ...issued.seller, name: `Seller ${dirty}` },
      };
      const pdf = await renderPdf(view, { lang: 'de' });
      for (const xml of [xmpOf(pdf), renderUbl(view), renderCii(view), pdfAttachments(pdf).first!])
        expect(() => create(xml)).not.toThrow();
      expect(pdfPlainText(pdf)).toContain('Seller ABCDEFGH');
    },
  );
});

describe.skipIf(!canInspectPdf)('the PDF of an issued document', () => {
  it('is the same bytes every time it is rendered: its dates are its issue date, its ids derive from it', async () => {
    const first = await renderPdf(issued, { lang: 'fr' });
    // Rendered again in a later second: nothing in the bytes may come from the clock.
    const renderedIn = Math.floor(Date.now() / 1000);
    await eventually(() => Math.floor(Date.now() / 1000) > renderedIn, { intervalMs: 20, what: 'the next second' });
    const second = await renderPdf(issued, { lang: 'fr' });
    expect(second.equals(first)).toBe(true);
    expect(first.toString('latin1')).toContain('/CreationDate (D:20260302000000Z)');
    expect(xmpOf(first)).toContain('<xmp:CreateDate>2026-03-02T00:00:00Z</xmp:CreateDate>');
  });

  it('embeds the CII the API serves, with its /CheckSum as a 16-byte string (the MD5 digest), not hex text', async () => {
    const pdf = await renderPdf(issued, { lang: 'en' });
    expect(pdfAttachments(pdf).first).toBe(renderCii(issued, { profile: 'en16931' }));
    expect(pdf.toString('latin1')).toMatch(/\/CheckSum <[0-9a-f]{32}>/);
    expect(pdf.toString('latin1')).not.toMatch(/\/CheckSum \(/);
  });
});

describe.skipIf(!canInspectPdf)('a credit note', () => {
  it('carries no payment instruction, terms or code, says how it settles and labels its reason, titled in each language', async () => {
    const titles = { en: 'Credit note', de: 'Rechnungskorrektur', fr: 'Avoir' } as const;
    for (const lang of ['en', 'de', 'fr'] as const) {
      const pdf = await renderPdf(creditNote, { lang, credit, note: null });
      const text = pdfPlainText(pdf);
      expect(text).toContain(titles[lang]);
      expect(text).not.toMatch(
        /DE02 1203|Zahlbar innerhalb|Payment terms|Zahlungsbedingungen|Conditions de paiement|Gutschrift\b/,
      );
      expect(pdfQrPayloads(pdf)).toEqual([]);
    }
    const de = pdfPlainText(await renderPdf(creditNote, { lang: 'de', credit }));
    expect(de).toContain('Korrektur der Rechnung');
    expect(de).not.toContain('Korrigiert Rechnung');
    expect(de).toContain('Grund der Korrektur: Zwei Stunden nicht geleistet');
    expect(de).toMatch(
      /1\.000,00 € werden mit dem offenen Betrag der Rechnung 2026-00041 verrechnet\.\s+276,98 € werden Ihnen erstattet\./,
    );
    const fr = pdfPlainText(
      await renderPdf(creditNote, {
        lang: 'fr',
        credit: { ...credit, voids: true, offset: '1276.98', refund: '0.00' },
      }),
    );
    expect(fr).toContain('La facture 2026-00041 est annulée en totalité.');
  });
});

describe.skipIf(!canInspectPdf)('a draft, a test document and a status copy', () => {
  it('a draft is marked DRAFT and asks for nothing', async () => {
    const pdf = await renderPdf({ ...issued, draft: true }, { lang: 'en' });
    expect(pdfPlainText(pdf)).toContain('DRAFT');
    expect(pdfPlainText(pdf)).not.toContain('DE02 1203');
    expect(pdfQrPayloads(pdf)).toEqual([]);
  });

  it('a test document has no code and says TEST where the IBAN would be', async () => {
    const text = pdfPlainText(await renderPdf({ ...issued, test: true }, { lang: 'en' }));
    expect(text).toMatch(/Please transfer €1,276\.98 to TEST, quoting 2026-00042/);
    expect(text).not.toContain('DE02');
    expect(pdfQrPayloads(await renderPdf({ ...issued, test: true }, { lang: 'en' }))).toEqual([]);
  });

  it('a status copy tells what was paid and credited, and asks for exactly the open balance', async () => {
    const status = {
      asOf: '2026-03-20',
      status: 'issued' as const,
      paidOn: null,
      payments: [{ date: '2026-03-10', amount: '500.00' }],
      refunds: [],
      credits: [{ number: 'CN-2026-00001', date: '2026-03-12', amount: '190.40' }],
      balance: '586.58',
      invoiceNumber: null,
    };
    const pdf = await renderPdf(issued, { lang: 'en', status, now: new Date('2026-03-20T10:00:00Z') });
    const text = pdfPlainText(pdf);
    expect(text).toContain('€500.00 paid on Mar 10, 2026');
    expect(text).toContain('€190.40 credited by credit note CN-2026-00001 of Mar 12, 2026');
    expect(text).toMatch(/Balance due\s+€586\.58/);
    expect(text).toContain('Please transfer €586.58 to DE02 1203 0000 0000 2020 51');
    expect(pdfQrPayloads(pdf)).toEqual([epcPayload(issued, '586.58')]);
    expect(epcPayload(issued, '586.58')).toContain('\nEUR586.58\n');
    expect(pdfAttachments(pdf).names).toEqual([]);
    const paid = await renderPdf(issued, {
      lang: 'de',
      status: { ...status, status: 'paid', paidOn: '2026-03-15', balance: '0.00' },
    });
    expect(pdfPlainText(paid)).toContain('Vollständig bezahlt am 15.03.2026.');
    expect(pdfPlainText(paid)).not.toContain('DE02 1203');
    expect(pdfQrPayloads(paid)).toEqual([]);
    // Overpaid, then refunded: the refund is told, and nothing is asked or owed any more.
    const refunded = await renderPdf(issued, {
      lang: 'fr',
      status: {
        ...status,
        status: 'paid',
        paidOn: '2026-03-15',
        payments: [{ date: '2026-03-10', amount: '1276.98' }],
        refunds: [{ date: '2026-03-18', amount: '190.40' }],
        balance: '0.00',
      },
    });
    expect(pdfPlainText(refunded)).toMatch(/190,40\s€ vous ont été remboursés le 18 mars 2026/);
    expect(pdfQrPayloads(refunded)).toEqual([]);
  });
});

const SCRIPTS = [
  'Müller Straße €',
  'Ελληνικά',
  'Кириллица',
  'شركة الأمل للتجارة',
  'חברת השלום בע״מ',
  '漢字株式会社',
  'さくら',
  '한국무역',
  '😀🎉',
];

describe.skipIf(!canInspectPdf)('every script', () => {
  it('draws names, addresses, lines and notes in every script with real glyphs that pdftotext gives back', async () => {
    const view = viewOf(
      germanInput({
        buyer: {
          ...base.buyer,
          name: SCRIPTS.slice(0, 5).join(' '),
          address: { ...base.buyer.address, line1: SCRIPTS.slice(5).join(' ') },
        },
        lines: SCRIPTS.map((name) => ({ ...base.lines[1]!, name, description: name })),
        note: SCRIPTS.join(' / '),
      }),
    );
    for (const lang of ['en', 'de', 'fr'] as const) {
      const pdf = await renderPdf(view, { lang });
      const text = pdfPlainText(pdf);
      for (const word of SCRIPTS.flatMap((s) => s.split(' '))) expect(text, word).toContain(word);
      expect(pdfNotdefGlyphs(pdf)).toBe(0);
    }
  });

  it('writes a character no font has as its code point, never as .notdef (and the .notdef count sees one)', async () => {
    const pdf = await renderPdf({ ...issued, note: 'Thai สวัสดี' }, { lang: 'en' });
    expect(pdfPlainText(pdf)).toContain('[U+0E2A]');
    expect(pdfNotdefGlyphs(pdf)).toBe(0);
    const raw = new PDFDocument({ font: null as unknown as string });
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.registerFont(
      'plex',
      (await import('../../../src/documents/pdf/fonts.js')).mainFont('regular').font as unknown as string,
    );
    raw.font('plex').text('สวัสดี', 50, 50);
    raw.end();
    await new Promise((r) => raw.on('end', r));
    expect(pdfNotdefGlyphs(Buffer.concat(chunks))).toBeGreaterThan(0);
  });
});

describe.skipIf(!canInspectPdf)('every page', () => {
  const long = viewOf(
    germanInput({ lines: Array.from({ length: 45 }, (_, i) => ({ ...base.lines[1]!, name: `Item ${i + 1}` })) }),
  );

  it('names seller, document type and number, buyer and page x of y from page 2 on, and never leaves the totals alone', async () => {
    const pages = pdfPageTexts(await renderPdf(long, { lang: 'en' }));
    expect(pages.length).toBeGreaterThan(1);
    pages.slice(1).forEach((page, i) => {
      expect(page).toMatch(/Muster Software GmbH · Invoice 2026-00042 · Acme Trading GmbH/);
      expect(page).toContain(`Page ${i + 2} of ${pages.length}`);
    });
    const last = pages.at(-1)!;
    expect(last).toContain('Total including VAT');
    expect(last).toContain('Item 45');
  });

  it('ends line amounts and totals at the same x', async () => {
    const words = pdfWords(await renderPdf(issued, { lang: 'en' }));
    const amounts = words.filter((w) => /^€[\d,]+\.\d\d$/.test(w.text) && w.xMax > 450);
    const lineAmount = amounts.find((w) => w.text === '€641.25')!;
    const total = amounts.find((w) => w.text === '€1,276.98')!;
    expect(Math.abs(lineAmount.xMax - total.xMax)).toBeLessThan(0.5);
  });
});

describe.skipIf(!canInspectPdf)('each language', () => {
  it("writes the service's default VAT exemption texts in the document's language, and keeps the invoice's own text and the XML's", async () => {
    const zero = (vatCategory: 'AE' | 'K' | 'G', name: string) => ({
      ...base.lines[1]!,
      name,
      vatCategory,
      vatRate: new Decimal('0'),
      exemptionReason: null,
    });
    const exempt = viewOf(
      germanInput({
        allowances: [],
        charges: [],
        lines: [zero('AE', 'Wartung'), zero('K', 'Ersatzteile'), zero('G', 'Export'), base.lines[2]!],
      }),
    );
    const outside = viewOf(
      germanInput({
        allowances: [],
        charges: [],
        lines: [{ ...base.lines[1]!, vatCategory: 'O', vatRate: new Decimal('0'), exemptionReason: null }],
      }),
    );
    const text = async (view: typeof exempt, lang: 'en' | 'de' | 'fr') =>
      pdfPlainText(await renderPdf(view, { lang })).replace(/\s+/g, ' ');
    const ENGLISH = ['Reverse charge', 'Intra-Community supply', 'Export outside the EU', 'Not subject to VAT'];
    const expected = {
      en: ENGLISH,
      de: [
        'Steuerschuldnerschaft des Leistungsempfängers',
        'Steuerfreie innergemeinschaftliche Lieferung',
        'Steuerfreie Ausfuhrlieferung in ein Land außerhalb der EU',
        'Nicht steuerbar',
      ],
      fr: [
        'Autoliquidation',
        'Livraison intracommunautaire exonérée de TVA',
        'Exportation hors de l’Union européenne exonérée de TVA',
        'Hors du champ d’application de la TVA',
      ],
    } as const;
    for (const lang of ['en', 'de', 'fr'] as const) {
      const page = `${await text(exempt, lang)} ${await text(outside, lang)}`;
      for (const words of expected[lang]) expect(page, `${lang}: ${words}`).toContain(words);
      if (lang !== 'en') for (const words of ENGLISH) expect(page, `${lang}: ${words}`).not.toContain(words);
      // A text the invoice gave is the invoice's: printed as given, in every language.
      expect(page, lang).toContain('Steuerfrei nach § 4 Nr. 21 UStG');
    }
    // The e-invoice carries the text the document carries.
    expect(renderCii(exempt)).toContain('<ram:ExemptionReason>Reverse charge</ram:ExemptionReason>');
    expect(renderUbl(exempt)).toContain('<cbc:TaxExemptionReason>Intra-Community supply</cbc:TaxExemptionReason>');
  });

  it('names countries in its words and leaves out the country of a domestic document', async () => {
    const abroad = viewOf(
      germanInput({ buyer: { ...base.buyer, address: { ...base.buyer.address, countryCode: 'FR' } } }),
    );
    expect(pdfPlainText(await renderPdf(abroad, { lang: 'de' }))).toContain('Frankreich');
    expect(pdfPlainText(await renderPdf(abroad, { lang: 'fr' }))).toMatch(/France[^]*Allemagne|Allemagne[^]*France/);
    const domestic = pdfPlainText(await renderPdf(issued, { lang: 'de' }));
    expect(domestic).not.toMatch(/Deutschland|\bDE\b(?!\d)/);
  });

  it('writes French with a space before colons, and translates code names (an allowance given by code only)', async () => {
    const coded = viewOf(germanInput({ allowances: [{ ...base.charges[0]!, reason: null, reasonCode: '95' }] }));
    const fr = pdfPlainText(await renderPdf(coded, { lang: 'fr' }));
    // pdftotext gives the no-break space back as a space; without one, the colon would follow the word.
    expect(fr).toMatch(/Conditions de paiement\s: Zahlbar/);
    expect(fr).toMatch(/Remise\s: Remise/);
    expect(pdfPlainText(await renderPdf(coded, { lang: 'de' }))).toContain('Nachlass: Rabatt');
  });

  it('gives a Belgian seller a structured communication (modulo 97) and checks creditor references (ISO 11649)', () => {
    expect(belgianStructuredCommunication('2026-00042')).toBe('+++020/2600/04222+++');
    expect(belgianStructuredCommunication('TEST-2026-00097')).toMatch(/^\+\+\+\d{3}\/\d{4}\/\d{5}\+\+\+$/);
    const digits = belgianStructuredCommunication('2026-00042').replace(/\D/g, '');
    expect(Number(BigInt(digits.slice(0, 10)) % 97n) || 97).toBe(Number(digits.slice(10)));
    expect(creditorReference('RF18 5390 0754 7034')).toBe('RF18539007547034');
    expect(creditorReference('RF19539007547034')).toBeNull();
  });
});
