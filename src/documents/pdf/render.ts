import { createHash } from 'node:crypto';
import PDFDocument from 'pdfkit';
import { cleanText } from '../clean-text.js';
import { problemsFor } from '../completeness.js';
import { renderCiiDocument } from '../cii.js';
import type { DocumentView } from '../model.js';
import type { CreditFacts, QuoteFacts, ReceivedFacts, StatusFacts } from './facts.js';
import { formattersFor } from './format.js';
import { LABELS, QUOTE_LABELS, type PdfLanguage } from './labels.js';
import { COLORS, LEFT, PAGE, RIGHT, WIDTH, rule, write, type Pdf } from './page.js';
import { addressLines, header, lines, parties, titleOf, totals, totalsHeight, type Context } from './sections.js';
import { creditSettlement, notes, payment, statusSection } from './settlement.js';
import { layoutText } from './text-layout.js';
import { documentXmp, FACTUR_X_FILE_NAME, facturXXmp } from './xmp.js';

// The PDF/A-3b a person reads. An issued document that is a valid EN 16931 invoice also carries
// its CII as factur-x.xml (AFRelationship Alternative) with the Factur-X XMP, which makes the PDF
// a Factur-X 1.07 / ZUGFeRD 2.3 invoice of profile EN 16931. Drafts, test documents and status
// copies carry a mark on every page; neither a draft nor a status copy carries the XML.
//
// The same document renders the same bytes every time: nothing in the file depends on when or
// where it was made. Its dates (information dictionary, XMP, the embedded file) are its issue
// date, its file identifier is derived from its contents, and font subsets are named by their
// order in the document. A status copy is dated when it is made (`now`).

export interface PdfOptions {
  lang: PdfLanguage;
  /** The date the file carries; the document's issue date when absent. */
  now?: Date;
  /** The note the page shows, when it differs from the XML's (BT-22): without the credit note's reason or the test-mode notice. */
  note?: string | null;
  /** A credit note: its reason and how it settles. */
  credit?: CreditFacts;
  /** A status copy: what happened since the document was issued. */
  status?: StatusFacts;
  /** A rendering of a document we received: marked RECEIVED on every page, without XML, asking for nothing. */
  received?: ReceivedFacts;
  /** A quote: titled as one, with its validity, asking for no payment, without XML. */
  quote?: QuoteFacts;
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
  // As large as fits across the page: 110 pt, smaller for a long word (BROUILLON).
  const size = Math.min(
    110,
    (110 * PAGE.width * 0.95) / (layoutText(word, { size: 110, bold: true }, Infinity)[0]?.width ?? 1),
  );
  doc.save();
  doc.rotate(-35, { origin: [PAGE.width / 2, PAGE.height / 2] });
  doc.fillOpacity(0.13);
  write(doc, word, 0, PAGE.height / 2 - size / 2 + index * 130, {
    size,
    bold: true,
    color: COLORS.mark,
    width: PAGE.width,
    align: 'center',
  });
  doc.restore();
  doc.save();
  doc
    .rect(0, index * 16, PAGE.width, 16)
    .fillOpacity(1)
    .fill(COLORS.mark);
  write(doc, `${word} — ${notice}`, LEFT, index * 16 + 4, {
    size: 8,
    bold: true,
    color: '#ffffff',
    width: WIDTH,
    align: 'center',
  });
  doc.restore();
}

/** Every page names its seller, page number and count at the bottom. */
function footer(context: Context, pageText: string): void {
  const { doc, view } = context;
  const s = view.seller;
  const line = [
    s.name,
    addressLines(context, s)
      .filter((l) => l !== s.address.line2)
      .join(', '),
    s.vatId,
  ]
    .filter(Boolean)
    .join(' · ');
  const y = PAGE.height - PAGE.margin - 14;
  write(doc, line, LEFT, y, { size: 7, color: COLORS.muted, width: WIDTH - 90 });
  write(doc, pageText, RIGHT - 90, y, { size: 7, color: COLORS.muted, width: 90, align: 'right' });
}

/** From page 2 on, a line at the top says whose document this is: seller, type and number, buyer, page. */
function continuation(context: Context, pageText: string): void {
  const { doc, view, t } = context;
  const line = [
    view.seller.tradingName ?? view.seller.name,
    `${titleOf(view, t, context.quote)} ${view.number}`,
    view.buyer.name,
  ].join(' · ');
  write(doc, line, LEFT, PAGE.margin, { size: 8, bold: true, color: COLORS.muted, width: WIDTH - 100 });
  write(doc, pageText, RIGHT - 90, PAGE.margin, { size: 8, color: COLORS.muted, width: 90, align: 'right' });
  rule(doc, PAGE.margin + 24);
}

/** The embedded XML, with its /CheckSum as the PDF specification wants it: the 16-byte MD5 digest, a binary string. */
function embed(doc: Pdf, xml: Buffer, created: Date): void {
  const file = doc.ref({
    Type: 'EmbeddedFile',
    Subtype: 'text#2Fxml',
    Params: {
      CreationDate: created,
      ModDate: created,
      CheckSum: new Uint8Array(createHash('md5').update(xml).digest()),
      Size: xml.length,
    },
  });
  file.end(xml);
  const spec = doc.ref({
    Type: 'Filespec',
    AFRelationship: 'Alternative',
    F: new String(FACTUR_X_FILE_NAME),
    UF: new String(FACTUR_X_FILE_NAME),
    Desc: new String('Factur-X/ZUGFeRD invoice, profile EN 16931'),
    EF: { F: file },
  });
  spec.end(undefined);
  const internal = doc as unknown as {
    addNamedEmbeddedFile: (name: string, ref: unknown) => void;
    _root: { data: { AF?: unknown[] } };
  };
  internal.addNamedEmbeddedFile(FACTUR_X_FILE_NAME, spec);
  internal._root.data.AF = [spec];
}

export async function renderPdfDocument(view: DocumentView, options: PdfOptions): Promise<Buffer> {
  const quote = options.quote ?? null;
  // A quote's page speaks of an offer wherever an invoice's speaks of a bill.
  const t = quote ? { ...LABELS[options.lang], ...QUOTE_LABELS[options.lang] } : LABELS[options.lang];
  const f = formattersFor(options.lang, view.currency);
  const created = options.now ?? new Date(`${view.issueDate}T00:00:00Z`);
  const status = options.status ?? null;
  const received = options.received ?? null;
  const title = cleanText(`${titleOf(view, t, quote)} ${view.number}`);
  // Only an issued document whose CII is a valid EN 16931 invoice becomes Factur-X; a status copy is a copy, not the invoice,
  // and a received document's rendering is not the supplier's e-invoice (its original is).
  // A quote is an offer, not an invoice: never Factur-X.
  const facturX = !view.draft && !status && !received && !quote && problemsFor(view, ['en16931']).length === 0;
  const info = {
    Title: title,
    Author: cleanText(view.seller.name),
    Subject: cleanText(`${title} — ${view.seller.name} → ${view.buyer.name}`),
    Keywords: facturX ? 'Invoice, Factur-X, ZUGFeRD, EN 16931' : quote ? 'Quote' : 'Invoice',
    Creator: PRODUCER,
    Producer: PRODUCER,
    CreationDate: created,
    ModDate: created,
  };
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    subset: 'PDF/A-3b',
    pdfVersion: '1.7',
    bufferPages: true,
    autoFirstPage: true,
    info,
    lang: options.lang,
    displayTitle: true,
    font: NO_DEFAULT_FONT,
  });
  const output = collect(doc);

  // pdfkit writes its own XMP from the info dictionary without escaping; ours escapes, agrees
  // with the dictionary (PDF/A), and adds the Factur-X extension schema.
  const xmp = documentXmp({
    title,
    author: info.Author,
    subject: info.Subject,
    keywords: info.Keywords,
    creator: PRODUCER,
    producer: PRODUCER,
    created,
    language: options.lang,
  });
  (doc as unknown as { _addInfo: () => void })._addInfo = () => doc.appendXML(facturX ? xmp + facturXXmp() : xmp);

  const context: Context = {
    doc,
    view,
    t,
    f,
    note: options.note === undefined ? view.note : options.note,
    credit: options.credit ?? null,
    status,
    received,
    quote,
  };
  let y = header(context);
  y = parties(context, y);
  y = lines(context, y, totalsHeight(context));
  y = totals(context, y);
  y = statusSection(context, y);
  y = creditSettlement(context, y);
  y = notes(context, y + 6);
  payment(context, y);

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const pageText = t.page(i + 1, range.count);
    footer(context, pageText);
    if (i > range.start) continuation(context, pageText);
    let marks = 0;
    if (view.draft) mark(doc, t.draft, t.draftNotice, marks++);
    if (view.test) mark(doc, t.test, t.testNotice, marks++);
    if (status) mark(doc, t.copy, t.copyNotice(f.date(status.asOf)), marks++);
    if (received) mark(doc, t.received, t.receivedNotice(f.date(received.receivedOn)), marks++);
  }

  if (facturX) embed(doc, Buffer.from(renderCiiDocument(view, 'en16931'), 'utf8'), created);
  doc.end();
  return output;
}
