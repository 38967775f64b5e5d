import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readDocument, DEFAULT_READ_LIMITS } from '../../../src/documents/read/index.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';

// What arrives is untrusted: every hostile or broken input gets a typed refusal that says what
// was found, and none of them can make the reader expand, fetch or loop without bound.

const UBL = readFileSync(join(EINVOICE_DIR, 'examples/peppol/base-example.xml'), 'utf8');
const FACTUR_X = readFileSync(join(EINVOICE_DIR, 'examples/facturx/EN16931_Einfach.pdf'));

/** A PDF of the given objects (1 is the catalog), with a correct cross-reference table. */
function pdf(objects: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const chunk = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    ]);
    parts.push(chunk);
    length += chunk.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`,
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  parts.push(
    Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`),
  );
  return Buffer.concat(parts);
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`),
    data,
    Buffer.from('\nendstream'),
  ]);
}

/** A PDF embedding one file under this name, its stream given as is. */
const withAttachment = (name: string, fileStream: Buffer) =>
  pdf([
    '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles << /Names [(' + name + ') 4 0 R] >> >> /AF [4 0 R] >>',
    '<< /Type /Pages /Kids [] /Count 0 >>',
    fileStream,
    `<< /Type /Filespec /F (${name}) /UF (${name}) /AFRelationship /Alternative /EF << /F 3 0 R >> >>`,
  ]);

describe('reading what arrives', () => {
  it('refuses a DOCTYPE, so an entity bomb never expands', async () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ''};`.repeat(10)}">`).join('')}]><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol9;</Invoice>`;
    expect(await readDocument(Buffer.from(bomb))).toMatchObject({
      ok: false,
      code: 'XML_DOCTYPE',
      message: expect.stringMatching(/DOCTYPE/),
    });
  });

  it('refuses an external entity without reading the file it names', async () => {
    const xxe = UBL.replace(
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
    ).replace('<cbc:Note>', '<cbc:Note>&x;');
    const read = await readDocument(Buffer.from(xxe));
    expect(read).toMatchObject({ ok: false, code: 'XML_DOCTYPE' });
    expect(JSON.stringify(read)).not.toMatch(/root:/);
  });

  it('refuses an entity it does not know, and malformed XML, as not well-formed', async () => {
    expect(await readDocument(Buffer.from(UBL.replace('<cbc:Note>', '<cbc:Note>&nbsp;')))).toMatchObject({
      ok: false,
      code: 'XML_MALFORMED',
    });
    expect(await readDocument(Buffer.from(UBL.slice(0, UBL.length / 2)))).toMatchObject({
      ok: false,
      code: 'XML_MALFORMED',
      message: expect.stringMatching(/not well-formed/),
    });
  });

  it('refuses XML nested deeper than its limit and documents larger than theirs', async () => {
    const deep = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">${'<a>'.repeat(5000)}${'</a>'.repeat(5000)}</Invoice>`;
    expect(await readDocument(Buffer.from(deep))).toMatchObject({ ok: false, code: 'XML_TOO_DEEP' });
    const limits = { ...DEFAULT_READ_LIMITS, maxBytes: 1000 };
    expect(await readDocument(Buffer.from(UBL), 'application/xml', limits)).toMatchObject({
      ok: false,
      code: 'TOO_LARGE',
    });
  });

  it('says what it found when a file is no e-invoice: another UBL document, ZUGFeRD 1, other XML, neither XML nor PDF', async () => {
    const order = '<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>';
    expect(await readDocument(Buffer.from(order))).toMatchObject({
      ok: false,
      code: 'NOT_AN_INVOICE',
      message: expect.stringMatching(/UBL Order/),
    });
    const zugferd1 = '<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0"/>';
    expect(await readDocument(Buffer.from(zugferd1))).toMatchObject({
      ok: false,
      code: 'UNSUPPORTED_SYNTAX',
      message: expect.stringMatching(/ZUGFeRD 1\.0/),
    });
    expect(await readDocument(Buffer.from('<html><body>hi</body></html>'))).toMatchObject({
      ok: false,
      code: 'NOT_AN_EINVOICE',
      message: expect.stringMatching(/<html>/),
    });
    expect(await readDocument(Buffer.from('PK\x03\x04 a zip'), 'application/zip')).toMatchObject({
      ok: false,
      code: 'NOT_AN_EINVOICE',
      message: expect.stringMatching(/application\/zip/),
    });
  });

  it('refuses a PDF whose embedded invoice inflates beyond the limit (a Flate bomb)', async () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const read = await readDocument(
      withAttachment('factur-x.xml', stream('/Type /EmbeddedFile /Filter /FlateDecode', bomb)),
    );
    expect(read).toMatchObject({
      ok: false,
      code: 'PDF_BOMB',
      message: expect.stringMatching(/inflates to more than/),
    });
  });

  it('refuses a PDF whose object streams inflate beyond the limit, before any parser expands them', async () => {
    const bomb = deflateSync(Buffer.alloc(100 * 1024 * 1024));
    const file = pdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      stream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', bomb),
    ]);
    expect(await readDocument(file)).toMatchObject({ ok: false, code: 'PDF_BOMB' });
  });

  it('reads the invoice a plain stream carries, and ends on a name tree whose kids point back at themselves', async () => {
    const xml = Buffer.from(UBL);
    const read = await readDocument(withAttachment('factur-x.xml', stream('/Type /EmbeddedFile', xml)));
    expect(read).toMatchObject({
      ok: true,
      syntax: 'ubl',
      container: { type: 'pdf', attachment: 'factur-x.xml', relationship: 'Alternative' },
    });
    const cycle = pdf([
      '<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles 3 0 R >> >>',
      '<< /Type /Pages /Kids [] /Count 0 >>',
      '<< /Kids [3 0 R 4 0 R] >>',
      '<< /Kids [3 0 R] >>',
    ]);
    expect(await readDocument(cycle)).toMatchObject({ ok: false, code: 'PDF_NO_INVOICE' });
  });

  it('refuses a PDF without embedded XML, and says which files it has', async () => {
    const read = await readDocument(
      withAttachment('photo.png', stream('/Type /EmbeddedFile /Subtype /image#2Fpng', Buffer.from('not really a png'))),
    );
    expect(read).toMatchObject({ ok: false, code: 'PDF_NO_INVOICE', message: expect.stringMatching(/photo\.png/) });
  });

  it('ends with a verdict on truncated PDFs, garbage after a PDF header, and a PDF that never closes its objects', async () => {
    for (const bytes of [
      FACTUR_X.subarray(0, FACTUR_X.length / 3),
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2_000_000, 0x41)]),
      Buffer.from(`%PDF-1.7\n${'1 0 obj\n<< /A [ '.repeat(20_000)}`),
    ]) {
      const read = await readDocument(bytes);
      if (read.ok) expect(read.model).toBeDefined();
      else expect(read.code).toMatch(/^PDF_/);
    }
  });
});
