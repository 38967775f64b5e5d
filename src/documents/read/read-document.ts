import type { Einvoice } from '../einvoice-model.js';
import type { Profile } from '../model.js';
import { readCii } from './cii-reader.js';
import {
  claimedSpecs,
  detectSyntax,
  profileOf,
  type DocumentKind,
  type ReceivedProfile,
  type Syntax,
} from './detect.js';
import { readPdfAttachments, type PdfAttachment } from './pdf-attachments.js';
import { DEFAULT_READ_LIMITS, type ReadLimits } from './read-limits.js';
import type { Locations, SyntaxReading } from './reading.js';
import { checkStructure, type StructureResult } from './structure.js';
import { readUbl } from './ubl-reader.js';
import type { Unmapped } from './xml-source.js';
import { parseXml } from './xml-tree.js';

// One received document, bytes in, EN 16931 model (or a typed refusal) out: UBL or CII XML, or a
// PDF with the XML embedded. A pure function of its input (no I/O, no clock, no network), so it
// can run in a worker; its cost is bounded by the limits, whatever the bytes are.

export type RefusalCode =
  | 'TOO_LARGE'
  | 'NOT_AN_EINVOICE'
  | 'NOT_AN_INVOICE'
  | 'UNSUPPORTED_SYNTAX'
  | 'XML_MALFORMED'
  | 'XML_DOCTYPE'
  | 'XML_TOO_LARGE'
  | 'XML_TOO_DEEP'
  | 'XML_ENCODING'
  | 'PDF_UNREADABLE'
  | 'PDF_ENCRYPTED'
  | 'PDF_BOMB'
  | 'PDF_NO_INVOICE';

/** A file kept with the document: a BG-24 attachment of the XML, or another file of the PDF. */
export interface KeptFile {
  source: 'xml' | 'pdf';
  name: string | null;
  mimeType: string | null;
  description: string | null;
  content: Uint8Array;
}

export interface DocumentRead {
  ok: true;
  syntax: Syntax;
  kind: DocumentKind;
  /** 'pdf' when the XML came out of a PDF, with the name of the file it came from. */
  container: { type: 'xml' } | { type: 'pdf'; attachment: string; relationship: string | null };
  profile: ReceivedProfile;
  /** The rule sets the document claims in BT-24 (judge by these). */
  claims: Profile[];
  model: Einvoice;
  /** The XML that was read, byte for byte (the PDF's embedded file, or the document itself). */
  xml: Uint8Array;
  /** Every element and attribute the model has no field for, with its path and value. */
  unmapped: Unmapped[];
  attachments: KeptFile[];
  /** The XSD-level result: datatypes and syntax-binding checks of the reader. */
  structure: StructureResult;
  /** Source locations of model fields, for the findings. */
  locations: Locations;
}

export type DocumentRefusal = { ok: false; code: RefusalCode; message: string };
export type ReadResult = DocumentRead | DocumentRefusal;

const XML_NAMES = ['factur-x.xml', 'xrechnung.xml', 'zugferd-invoice.xml'];
const FIRM_RELATIONSHIPS = new Set(['Alternative', 'Data', 'Source']);

/** Factur-X / ZUGFeRD names first (associated with a firm relationship before loose ones), then any other XML file. */
function rankAttachment(file: PdfAttachment): number {
  const named = XML_NAMES.indexOf(file.name.toLowerCase());
  const firm = file.associated && file.relationship !== null && FIRM_RELATIONSHIPS.has(file.relationship) ? 0 : 1;
  if (named >= 0) return named * 2 + firm;
  return /\.xml$/i.test(file.name) || file.mimeType === 'text/xml' || file.mimeType === 'application/xml'
    ? 100 + firm
    : 1000;
}

function fromXml(
  bytes: Uint8Array,
  limits: ReadLimits,
): DocumentRefusal | { syntax: Syntax; kind: DocumentKind; reading: SyntaxReading; structure: StructureResult } {
  const parsed = parseXml(bytes, limits.xml);
  if (!parsed.ok) return parsed;
  const detected = detectSyntax(parsed.root);
  if (!detected.ok) return detected;
  const reading = detected.syntax === 'ubl' ? readUbl(parsed.root) : readCii(parsed.root);
  return {
    syntax: detected.syntax,
    kind: detected.kind,
    reading,
    structure: checkStructure(parsed.root, detected.syntax, reading),
  };
}

const looksLikePdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes('%PDF-');
const looksLikeXml = (bytes: Uint8Array) =>
  /^(\uFEFF|\xEF\xBB\xBF|\xFF\xFE|\xFE\xFF)?\s*</.test(Buffer.from(bytes.subarray(0, 64)).toString('latin1'));

/**
 * Reads a received e-invoice. The content decides what it is; the content type only words the
 * refusal of something that is neither XML nor PDF.
 */
export async function readDocument(
  bytes: Uint8Array,
  contentType: string | null = null,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<ReadResult> {
  if (bytes.byteLength > limits.maxBytes)
    return {
      ok: false,
      code: 'TOO_LARGE',
      message: `The document has ${bytes.byteLength} bytes; at most ${limits.maxBytes} are accepted.`,
    };
  let xmlBytes = bytes;
  let container: DocumentRead['container'] = { type: 'xml' };
  const kept: KeptFile[] = [];
  if (looksLikePdf(bytes)) {
    const pdf = await readPdfAttachments(bytes, limits.pdf);
    if (!pdf.ok) return pdf;
    const candidates = pdf.attachments
      .filter((a) => rankAttachment(a) < 1000)
      .sort((a, b) => rankAttachment(a) - rankAttachment(b));
    if (candidates.length === 0) {
      const found =
        pdf.attachments.length === 0
          ? 'no embedded files'
          : `embedded files (${pdf.attachments.map((a) => a.name).join(', ')}) but no XML`;
      return {
        ok: false,
        code: 'PDF_NO_INVOICE',
        message: `The PDF has ${found}: it is a plain PDF, not a Factur-X / ZUGFeRD / XRechnung e-invoice.`,
      };
    }
    // The best-ranked XML that reads as an invoice; if none does, the first one's reason.
    let first: DocumentRefusal | null = null;
    for (const candidate of candidates) {
      const read = fromXml(candidate.content, limits);
      if ('ok' in read) {
        first ??= { ok: false, code: read.code, message: `The PDF's embedded ${candidate.name}: ${read.message}` };
        continue;
      }
      container = { type: 'pdf', attachment: candidate.name, relationship: candidate.relationship };
      xmlBytes = candidate.content;
      for (const other of pdf.attachments)
        if (other !== candidate)
          kept.push({
            source: 'pdf',
            name: other.name,
            mimeType: other.mimeType,
            description: null,
            content: other.content,
          });
      return finish(read, container, kept, xmlBytes);
    }
    return first!;
  }
  if (!looksLikeXml(bytes)) {
    return {
      ok: false,
      code: 'NOT_AN_EINVOICE',
      message: `The document${contentType ? ` (${contentType})` : ''} is neither XML nor PDF.`,
    };
  }
  const read = fromXml(xmlBytes, limits);
  if ('ok' in read) return read;
  return finish(read, container, kept, xmlBytes);
}

function finish(
  read: { syntax: Syntax; kind: DocumentKind; reading: SyntaxReading; structure: StructureResult },
  container: DocumentRead['container'],
  kept: KeptFile[],
  xml: Uint8Array,
): DocumentRead {
  const { model, unmapped, locations } = read.reading;
  const profile = profileOf(model.specificationId);
  const attachments: KeptFile[] = [
    ...(model.attachments ?? [])
      .filter((a) => a.embedded)
      .map((a) => ({
        source: 'xml' as const,
        name: a.embedded!.filename ?? a.id,
        mimeType: a.embedded!.mimeCode,
        description: a.description,
        content: a.embedded!.content,
      })),
    ...kept,
  ];
  return {
    ok: true,
    syntax: read.syntax,
    kind: read.kind,
    container,
    profile,
    claims: claimedSpecs(profile),
    model,
    xml,
    unmapped,
    attachments,
    structure: read.structure,
    locations,
  };
}
