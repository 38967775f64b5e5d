import PDFDocument from 'pdfkit';
import { problemsFor } from '../completeness.js';
import { renderCiiDocument } from '../cii.js';
import type { DocumentView } from '../model.js';
import { font } from './fonts.js';
import { formattersFor } from './format.js';
import { LABELS, type PdfLanguage } from './labels.js';
import { COLORS, LEFT, PAGE, WIDTH, write, type Pdf } from './page.js';
import { header, lines, notes, parties, payment, totals, type Context } from './sections.js';
import { documentXmp, FACTUR_X_FILE_NAME, facturXXmp } from './xmp.js';

// The PDF/A-3b a person reads. An issued document that is a valid EN 16931 invoice also carries
// its CII as factur-x.xml (AFRelationship Alternative) with the Factur-X XMP, which makes the PDF
// a Factur-X 1.07 / ZUGFeRD 2.3 invoice of profile EN 16931. Drafts and test documents carry a
// mark on every page; a draft never carries the XML.

export interface PdfOptions {
  lang: PdfLanguage;
  /** The creation time written into the PDF; now by default. */
  now?: Date;
}

const PRODUCER = 'Invoicing API (pdfkit)';
/**
 * No default font: pdfkit would otherwise load Helvetica, which PDF/A cannot use, into every
 * document; and opening our font as the default as well as under its name makes pdfkit compare
 * the two (with JSON.stringify of the name table) on every font switch.
 */
const NO_DEFAULT_FONT = null as unknown as string;

function collect(doc: Pdf): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** A large, light word across the page and a banner at its top. */
function mark(doc: Pdf, word: string, notice: string, index: number): void {
  doc.save();
  doc.rotate(-35, { origin: [PAGE.width / 2, PAGE.height / 2] });
  doc.font('bold').fontSize(110).fillColor(COLORS.mark).fillOpacity(0.13);
  doc.text(word, 0, PAGE.height / 2 - 60 + index * 130, { width: PAGE.width, align: 'center', lineBreak: false });
  doc.restore();
  doc.save();
  doc.rect(0, index * 16, PAGE.width, 16).fillOpacity(1).fill(COLORS.mark);
  doc.font('bold').fontSize(8).fillColor('#ffffff').text(`${word} — ${notice}`, LEFT, index * 16 + 4, { width: WIDTH, align: 'center', lineBreak: false });
  doc.restore();
}

function footer(doc: Pdf, view: DocumentView, pageText: string): void {
  const s = view.seller;
  const line = [s.name, [s.address.line1, [s.address.postalCode, s.address.city].filter(Boolean).join(' '), s.address.countryCode].filter(Boolean).join(', '), s.vatId].filter(Boolean).join(' · ');
  const y = PAGE.height - PAGE.margin - 14;
  // Text placed below the bottom margin must not make pdfkit open another page.
  const bottomMargin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  write(doc, line, LEFT, y, { size: 7, color: COLORS.muted, width: WIDTH - 80 });
  write(doc, pageText, LEFT + WIDTH - 80, y, { size: 7, color: COLORS.muted, width: 80, align: 'right' });
  doc.page.margins.bottom = bottomMargin;
}

export async function renderPdfDocument(view: DocumentView, options: PdfOptions): Promise<Buffer> {
  const t = LABELS[options.lang];
  const f = formattersFor(options.lang, view.currency);
  const created = options.now ?? new Date();
  const title = `${view.typeCode === '381' ? t.creditNote : t.invoice} ${view.number}`;
  // Only an issued document whose CII is a valid EN 16931 invoice becomes Factur-X.
  const facturX = !view.draft && problemsFor(view, ['en16931']).length === 0;
  const info = {
    Title: title,
    Author: view.seller.name,
    Subject: `${title} — ${view.seller.name} → ${view.buyer.name}`,
    Keywords: facturX ? 'Invoice, Factur-X, ZUGFeRD, EN 16931' : 'Invoice',
    Creator: PRODUCER,
    Producer: PRODUCER,
    CreationDate: created,
    ModDate: created,
  };
  const doc = new PDFDocument({ size: 'A4', margin: PAGE.margin, subset: 'PDF/A-3b', pdfVersion: '1.7', bufferPages: true, autoFirstPage: true, info, lang: options.lang, displayTitle: true, font: NO_DEFAULT_FONT });
  const output = collect(doc);
  doc.registerFont('regular', font('regular') as unknown as string);
  doc.registerFont('bold', font('bold') as unknown as string);

  // pdfkit writes its own XMP from the info dictionary without escaping; ours escapes, agrees
  // with the dictionary (PDF/A), and adds the Factur-X extension schema.
  const xmp = documentXmp({ title, author: info.Author, subject: info.Subject, keywords: info.Keywords, creator: PRODUCER, producer: PRODUCER, created, language: options.lang });
  (doc as unknown as { _addInfo: () => void })._addInfo = () => doc.appendXML(facturX ? xmp + facturXXmp() : xmp);

  const context: Context = { doc, view, t, f };
  let y = header(context);
  y = parties(context, y);
  y = lines(context, y);
  y = totals(context, y);
  y = notes(context, y + 6);
  payment(context, y);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    footer(doc, view, t.page(i + 1, range.count));
    let marks = 0;
    if (view.draft) mark(doc, t.draft, t.draftNotice, marks++);
    if (view.test) mark(doc, t.test, t.testNotice, marks++);
  }

  if (facturX) {
    const attachment = {
      name: FACTUR_X_FILE_NAME,
      type: 'text/xml',
      description: 'Factur-X/ZUGFeRD invoice, profile EN 16931',
      relationship: 'Alternative',
      creationDate: created,
      modifiedDate: created,
    };
    doc.file(Buffer.from(renderCiiDocument(view, 'en16931'), 'utf8'), attachment);
  }
  doc.end();
  return output;
}
