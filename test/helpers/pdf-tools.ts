import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import jsqrModule from 'jsqr';
import { CI } from './einvoice-files.js';

// Poppler's command-line tools (Debian poppler-utils) open the PDFs the way a reader does.
// Under CI=true their absence fails the tests instead of skipping them.

export const hasPoppler = ['pdftoppm', 'pdftotext', 'pdfdetach', 'pdffonts'].every(
  (tool) => spawnSync(tool, ['-v']).error === undefined,
);
export const canInspectPdf = hasPoppler || CI;

/** Runs fn with the PDF in a temporary file, and removes it after. */
export function withPdfFile<T>(pdf: Buffer, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pdf-'));
  try {
    const file = join(dir, 'document.pdf');
    writeFileSync(file, pdf);
    return fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text a reader extracts. */
export const pdfText = (pdf: Buffer) =>
  withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));

/** The names of the embedded files, and the content of the first. */
export function pdfAttachments(pdf: Buffer): { names: string[]; first: string | null } {
  return withPdfFile(pdf, (file, dir) => {
    const list = execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' });
    const names = [...list.matchAll(/^\d+: (.+)$/gm)].map((m) => m[1]!.trim());
    if (names.length === 0) return { names, first: null };
    const out = join(dir, 'attachment');
    execFileSync('pdfdetach', ['-save', '1', '-o', out, file]);
    return { names, first: readFileSync(out, 'utf8') };
  });
}

/** Renders page 1 to PNG (bytes), as a reader would show it. */
export const pdfPagePng = (pdf: Buffer, dpi = 60) =>
  withPdfFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-png', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'page')]);
    return readFileSync(join(dir, 'page.png'));
  });

/** pdffonts' table: one row per font with its embedded flag. */
export const pdfFonts = (pdf: Buffer) =>
  withPdfFile(pdf, (file) =>
    execFileSync('pdffonts', [file], { encoding: 'utf8' })
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
      .map((line) => ({ name: line.split(/\s+/)[0]!, embedded: / yes +(yes|no) +(yes|no) +\d+ +\d+\s*$/.test(line) })),
  );

/** The XMP packet, which pdfkit writes uncompressed. */
export function xmpOf(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  const start = text.indexOf('<x:xmpmeta');
  const end = text.indexOf('</x:xmpmeta>');
  if (start < 0 || end < 0) throw new Error('no XMP packet');
  return Buffer.from(text.slice(start, end + '</x:xmpmeta>'.length), 'latin1').toString('utf8');
}

// jsqr is a CommonJS module whose export is the function; its types describe an ES default.
const jsQR = (typeof jsqrModule === 'function' ? jsqrModule : jsqrModule.default) as typeof jsqrModule.default;

/** The text a reader extracts, without the bidi marks poppler puts around right-to-left runs. */
export const pdfPlainText = (pdf: Buffer) => pdfText(pdf).replace(/[\u202a-\u202e\u2066-\u2069]/g, '');

/** Each page as a grey image (pdftoppm's PGM), for finding the QR code on it. */
function pdfPagesGrey(pdf: Buffer, dpi: number): { width: number; height: number; pixels: Buffer }[] {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-gray', file, join(dir, 'page')]);
    return readdirSync(dir)
      .filter((name) => name.endsWith('.pgm'))
      .sort()
      .map((name) => {
        const data = readFileSync(join(dir, name));
        // P5 <width> <height> <max>\n<bytes>
        const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(data.subarray(0, 64).toString('latin1'))!;
        const width = Number(header[1]);
        const height = Number(header[2]);
        return { width, height, pixels: data.subarray(header[0].length, header[0].length + width * height) };
      });
  });
}

/** The payloads of the QR codes a reader sees on the pages (one per page at most), decoded from the rendered image. */
export function pdfQrPayloads(pdf: Buffer): string[] {
  const payloads: string[] = [];
  for (const page of pdfPagesGrey(pdf, 150)) {
    const rgba = new Uint8ClampedArray(page.width * page.height * 4);
    for (let i = 0; i < page.pixels.length; i++) {
      const v = page.pixels[i]!;
      rgba[i * 4] = v;
      rgba[i * 4 + 1] = v;
      rgba[i * 4 + 2] = v;
      rgba[i * 4 + 3] = 255;
    }
    const code = jsQR(rgba, page.width, page.height);
    // A false find in the page's big letters decodes to nothing: only a code that carries data counts.
    if (code && code.data !== '') payloads.push(code.data);
  }
  return payloads;
}

/**
 * How many glyphs the pages draw as .notdef: every font is a subset whose glyph 0 is .notdef,
 * and pdfkit writes text as hex glyph ids (four digits each) in its content streams.
 */
export function pdfNotdefGlyphs(pdf: Buffer): number {
  const raw = pdf.toString('latin1');
  let count = 0;
  for (const match of raw.matchAll(/\/Filter \/FlateDecode[^]*?>>\s*stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(Buffer.from(raw.slice(start, end), 'latin1')).toString('latin1');
    } catch {
      continue;
    }
    if (!content.includes(' Tf')) continue;
    for (const text of content.matchAll(/\[([^\]]*)\] TJ/g)) {
      for (const hex of text[1]!.matchAll(/<([0-9a-f]+)>/g)) {
        for (let i = 0; i < hex[1]!.length; i += 4) if (hex[1]!.slice(i, i + 4) === '0000') count++;
      }
    }
  }
  return count;
}

/** Every word a reader finds, with its page and box (pdftotext -bbox). */
export function pdfWords(pdf: Buffer): { page: number; text: string; xMin: number; xMax: number; yMin: number }[] {
  const html = withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' }));
  const words: { page: number; text: string; xMin: number; xMax: number; yMin: number }[] = [];
  let page = 0;
  for (const line of html.split('\n')) {
    if (line.includes('<page ')) page++;
    const match = /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">(.*)<\/word>/.exec(line);
    if (match)
      words.push({
        page,
        xMin: Number(match[1]),
        yMin: Number(match[2]),
        xMax: Number(match[3]),
        text: match[4]!.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>'),
      });
  }
  return words;
}

/** The text of each page. */
export const pdfPageTexts = (pdf: Buffer) => pdfPlainText(pdf).split('\f').slice(0, -1);
