import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CI } from './einvoice-files.js';

// Poppler's command-line tools (Debian poppler-utils) open the PDFs the way a reader does.
// Under CI=true their absence fails the tests instead of skipping them.

export const hasPoppler = ['pdftoppm', 'pdftotext', 'pdfdetach', 'pdffonts'].every((tool) => spawnSync(tool, ['-v']).error === undefined);
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
export const pdfText = (pdf: Buffer) => withPdfFile(pdf, (file) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));

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
