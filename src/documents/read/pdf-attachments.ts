import { inflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFRawStream,
  PDFString,
  PDFHexString,
  type PDFObject,
} from 'pdf-lib';
import { DEFAULT_PDF_LIMITS, type PdfLimits } from './read-limits.js';

// The files embedded in a PDF (PDF/A-3 associated files: Factur-X, ZUGFeRD, XRechnung in a PDF),
// read safely. pdf-lib parses the objects; every stream we decode ourselves, with zlib bounded
// to a number of output bytes, and object streams (which pdf-lib inflates while parsing) are
// measured first the same way, so a Flate bomb is refused before anything expands it. Name trees
// are walked with a depth and count bound, so a cycle of /Kids cannot loop.

export interface PdfAttachment {
  name: string;
  /** /AFRelationship: Data, Source, Alternative, Supplement, Unspecified; null when not stated. */
  relationship: string | null;
  /** The file is one of the catalog's associated files (/AF). */
  associated: boolean;
  mimeType: string | null;
  content: Uint8Array;
}

export type PdfRead =
  | { ok: true; attachments: PdfAttachment[]; skipped: { name: string; reason: string }[] }
  | { ok: false; code: 'PDF_UNREADABLE' | 'PDF_ENCRYPTED' | 'PDF_BOMB'; message: string };

class PdfRefusal extends Error {
  constructor(
    readonly code: 'PDF_UNREADABLE' | 'PDF_ENCRYPTED' | 'PDF_BOMB',
    message: string,
  ) {
    super(message);
  }
}

/** Inflates at most `max` bytes; more is a bomb, broken data is unreadable. */
function inflateBounded(data: Uint8Array, max: number, what: string): Buffer {
  try {
    return inflateSync(data, { maxOutputLength: max });
  } catch (error) {
    if (
      (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ||
      /Cannot create a Buffer larger|maxOutputLength/.test((error as Error).message)
    ) {
      throw new PdfRefusal('PDF_BOMB', `${what} inflates to more than ${max} bytes; it is not read.`);
    }
    throw new PdfRefusal('PDF_UNREADABLE', `${what} is compressed data that cannot be inflated.`);
  }
}

/**
 * Counts the bytes that belong to no object (N G obj … endobj) and no cross-reference table. A PDF
 * is objects, tables and a few lines of trailer; pdf-lib skips anything else a byte at a time, so
 * a PDF that is mostly something else (garbage, an object that never ends) is refused up front.
 */
function guardStructure(text: string, limits: PdfLimits): void {
  let covered = 0;
  const starts = /\d+\s+\d+\s+obj\b|xref\s/g;
  for (let match = starts.exec(text); match; match = starts.exec(text)) {
    const xref = match[0].startsWith('xref');
    const end = xref ? text.indexOf('trailer', match.index) : text.indexOf('endobj', match.index);
    if (end < 0) break;
    covered += end - match.index;
    starts.lastIndex = end;
  }
  const loose = text.length - covered;
  if (loose > limits.maxLooseBytes) {
    throw new PdfRefusal(
      'PDF_UNREADABLE',
      `The PDF has ${loose} bytes outside its objects (at most ${limits.maxLooseBytes} are read): it is truncated, never ends an object, or is not a PDF.`,
    );
  }
}

/** Measures every object stream before pdf-lib inflates it (a bomb would exhaust memory there). */
function guardObjectStreams(text: string, bytes: Uint8Array, limits: PdfLimits): void {
  const objectStream = /\/Type\s*\/ObjStm\b/g;
  let total = 0;
  for (let match = objectStream.exec(text); match; match = objectStream.exec(text)) {
    const keyword = /stream\r?\n/g;
    keyword.lastIndex = match.index;
    const start = keyword.exec(text);
    if (!start) continue;
    const dictionary = text.slice(Math.max(0, text.lastIndexOf('obj', match.index)), start.index);
    const filters = [
      ...dictionary.matchAll(/\/(FlateDecode|LZWDecode|ASCII85Decode|ASCIIHexDecode|RunLengthDecode|Fl|LZW)\b/g),
    ].map((m) => m[1]);
    if (filters.length === 0) continue;
    if (filters.some((f) => f !== 'FlateDecode' && f !== 'Fl'))
      throw new PdfRefusal(
        'PDF_UNREADABLE',
        'The PDF compresses its object streams with a filter other than Flate; it is not read.',
      );
    const data = bytes.subarray(start.index + start[0].length);
    let inflated: Buffer;
    try {
      inflated = inflateSync(data, { maxOutputLength: limits.maxObjectStreamBytes - total, finishFlush: 2 });
    } catch (error) {
      if (
        /larger|maxOutputLength/i.test((error as Error).message) ||
        (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
      ) {
        throw new PdfRefusal(
          'PDF_BOMB',
          `The PDF's object streams inflate to more than ${limits.maxObjectStreamBytes} bytes; it is not read.`,
        );
      }
      continue; // broken data: pdf-lib will skip the object
    }
    total += inflated.byteLength;
  }
}

function textOf(object: PDFObject | undefined): string | null {
  if (object instanceof PDFString || object instanceof PDFHexString) return object.decodeText();
  if (object instanceof PDFName) return object.decodeText();
  return null;
}

function decodeStream(stream: PDFRawStream, limits: PdfLimits, name: string): Uint8Array {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map((f) => textOf(f)) : filter ? [textOf(filter)] : [];
  let data: Uint8Array = stream.contents;
  if (data.byteLength > limits.maxStreamBytes)
    throw new PdfRefusal('PDF_BOMB', `The embedded file ${name} has more than ${limits.maxStreamBytes} bytes.`);
  for (const f of filters) {
    if (f === 'FlateDecode' || f === 'Fl')
      data = inflateBounded(data, limits.maxStreamBytes, `The embedded file ${name}`);
    else throw new PdfRefusal('PDF_UNREADABLE', `The embedded file ${name} is encoded with ${f}, which is not read.`);
  }
  return data;
}

/** Walks a name tree (/Names pairs, /Kids), bounded in depth and count. */
function nameTreeValues(root: PDFDict, limits: PdfLimits): PDFDict[] {
  const out: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const walk = (node: PDFDict, depth: number) => {
    if (depth > 32 || seen.has(node) || out.length >= limits.maxFiles) return;
    seen.add(node);
    const names = node.lookup(PDFName.of('Names'));
    if (names instanceof PDFArray) {
      for (let i = 1; i < names.size() && out.length < limits.maxFiles; i += 2) {
        const value = names.lookup(i);
        if (value instanceof PDFDict) out.push(value);
      }
    }
    const kids = node.lookup(PDFName.of('Kids'));
    if (kids instanceof PDFArray)
      for (let i = 0; i < kids.size(); i++) {
        const kid = kids.lookup(i);
        if (kid instanceof PDFDict) walk(kid, depth + 1);
      }
  };
  walk(root, 0);
  return out;
}

/** The embedded files of a PDF, or why they cannot be read. Never throws. */
export async function readPdfAttachments(bytes: Uint8Array, limits: PdfLimits = DEFAULT_PDF_LIMITS): Promise<PdfRead> {
  try {
    if (Buffer.from(bytes.subarray(0, 1024)).toString('latin1').indexOf('%PDF-') < 0)
      throw new PdfRefusal('PDF_UNREADABLE', 'The file does not start as a PDF (no %PDF- header).');
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    guardStructure(text, limits);
    guardObjectStreams(text, bytes, limits);
    let pdf: PDFDocument;
    try {
      pdf = await PDFDocument.load(bytes, {
        ignoreEncryption: true,
        throwOnInvalidObject: true,
        updateMetadata: false,
      });
    } catch (error) {
      throw new PdfRefusal('PDF_UNREADABLE', `The PDF cannot be parsed: ${(error as Error).message.split('\n')[0]}`);
    }
    if (pdf.isEncrypted)
      throw new PdfRefusal('PDF_ENCRYPTED', 'The PDF is encrypted; its embedded files cannot be read.');
    const catalog = pdf.catalog as PDFDict | undefined;
    if (!(catalog instanceof PDFDict))
      throw new PdfRefusal('PDF_UNREADABLE', 'The PDF has no document catalog: it is truncated or corrupt.');
    const associated = new Set<PDFDict>();
    const af = catalog.lookup(PDFName.of('AF'));
    if (af instanceof PDFArray)
      for (let i = 0; i < af.size(); i++) {
        const spec = af.lookup(i);
        if (spec instanceof PDFDict) associated.add(spec);
      }
    const names = catalog.lookup(PDFName.of('Names'));
    const tree = names instanceof PDFDict ? names.lookup(PDFName.of('EmbeddedFiles')) : undefined;
    const specs = [...new Set([...(tree instanceof PDFDict ? nameTreeValues(tree, limits) : []), ...associated])];
    const attachments: PdfAttachment[] = [];
    const skipped: { name: string; reason: string }[] = [];
    for (const spec of specs.slice(0, limits.maxFiles)) {
      const name = textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F'))) ?? '';
      const ef = spec.lookup(PDFName.of('EF'));
      const stream = ef instanceof PDFDict ? (ef.lookup(PDFName.of('F')) ?? ef.lookup(PDFName.of('UF'))) : undefined;
      if (!(stream instanceof PDFRawStream)) {
        skipped.push({ name, reason: 'no embedded file stream' });
        continue;
      }
      try {
        attachments.push({
          name,
          relationship: textOf(spec.lookup(PDFName.of('AFRelationship'))),
          associated: associated.has(spec),
          mimeType: textOf(stream.dict.lookup(PDFName.of('Subtype'))),
          content: decodeStream(stream, limits, name),
        });
      } catch (error) {
        if (error instanceof PdfRefusal && error.code === 'PDF_BOMB') throw error;
        skipped.push({ name, reason: (error as Error).message });
      }
    }
    return { ok: true, attachments, skipped };
  } catch (error) {
    if (error instanceof PdfRefusal) return { ok: false, code: error.code, message: error.message };
    return {
      ok: false,
      code: 'PDF_UNREADABLE',
      message: `The PDF cannot be read: ${(error as Error).message.split('\n')[0]}`,
    };
  }
}
