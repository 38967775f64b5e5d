import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerJobError } from '../../../src/lib/worker-pool.js';
import { buildTestApp, BASE_PATH, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import { EINVOICE_DIR } from '../../helpers/einvoice-files.js';
import { canInspectPdf, pdfAttachments, pdfPlainText, pdfQrPayloads } from '../../helpers/pdf-tools.js';
import { receive, supplierDocument } from '../../helpers/purchase-documents.js';

// POST /purchase-invoice: a document in, read off the event loop into the EN 16931 model,
// stored with its original bytes, its verdict and its files; or refused with a reason. And what
// is read back: the document, its original and attachments byte for byte, its rendering as PDF.

const example = (name: string) => readFileSync(join(EINVOICE_DIR, 'examples', name));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** A document whose stated payable breaks BR-CO-16 (and nothing else). */
function withWrongPayable(xml: string): string {
  return xml.replace(
    /<cbc:PayableAmount currencyID="EUR">[^<]+<\/cbc:PayableAmount>/,
    '<cbc:PayableAmount currencyID="EUR">120.00</cbc:PayableAmount>',
  );
}

for (const dialect of DIALECTS) {
  describe(`receiving a document on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const get = (key: string, path: string) =>
      t.request({ method: 'GET', url: `${BASE_PATH}${path}`, headers: { 'x-api-key': key } });

    it('reads a UBL invoice into the model with its amounts as written, and answers its original byte for byte with its type and digest', async () => {
      const { key } = await t.tenant();
      const bytes = example('cen-ubl/ubl-tc434-example1.xml');
      const res = await receive(t, key, bytes, { contentType: 'text/xml; charset=utf-8' });
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      expect(data).toMatchObject({
        kind: 'invoice',
        number: '12115118',
        syntax: 'ubl',
        profile: 'en16931',
        container: 'xml',
        state: 'received',
        verdict: 'valid',
        currency: 'EUR',
        totals: {
          lineNetTotal: '229.60',
          taxExclusive: '229.60',
          taxTotal: '20.73',
          taxInclusive: '250.33',
          payable: '250.33',
        },
        amountDue: '250.33',
        original: { contentType: 'application/xml', size: bytes.length, sha256: sha256(bytes) },
        judgement: { verdict: 'valid', rulesApplied: ['en16931'], structure: { valid: true, check: 'schema-less' } },
      });
      expect(data.document.lines.map((l: { netAmount: string }) => l.netAmount)).toHaveLength(
        data.document.lines.length,
      );
      expect(data.document.seller.name).toBe('De Koksmaat');

      const original = await get(key, `/purchase-invoice/${data.id}/original`);
      expect(original.statusCode).toBe(200);
      expect(original.headers['content-type']).toBe('application/xml');
      expect(original.rawPayload.equals(bytes)).toBe(true);
      expect(original.headers['repr-digest']).toBe(`sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`);
      expect(original.headers['content-disposition']).toBe('attachment; filename="12115118.xml"');

      const read = await get(key, `/purchase-invoice/${data.id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toEqual(data);
      const events = (await get(key, '/event?type=purchase_invoice.received')).json().data.items;
      expect(events.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([data.id]);
      expect(events[0].data.object).not.toHaveProperty('document');
    });

    it("shows the reading pool's load in /metrics", async () => {
      const { key } = await t.tenant();
      expect((await receive(t, key, supplierDocument({ number: 'M-1' }))).statusCode).toBe(201);
      const metrics = (await t.request({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toContain('receive_read_documents{state="reading"} 0');
      expect(metrics).toContain('receive_read_documents{state="waiting"} 0');
    });

    it('reads the XML inside a Factur-X PDF, and keeps the PDF as the original', async () => {
      const { key } = await t.tenant();
      const bytes = example('facturx/EN16931_Einfach.pdf');
      const res = await receive(t, key, bytes, { contentType: 'application/pdf' });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({
        syntax: 'cii',
        container: 'pdf',
        number: '471102',
        totals: { payable: '529.87' },
        original: { contentType: 'application/pdf', sha256: sha256(bytes) },
      });
      const original = await get(key, `/purchase-invoice/${res.json().data.id}/original`);
      expect(original.headers['content-type']).toBe('application/pdf');
      expect(original.rawPayload.equals(bytes)).toBe(true);
    });

    it.each([
      ['plain text', Buffer.from('Invoice 17: please pay 100 EUR'), 'not_an_einvoice', /neither XML nor PDF/],
      [
        'broken XML',
        Buffer.from('<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><cbc:ID>1</Invoice>'),
        'xml_malformed',
        /./,
      ],
      [
        'an XML bomb',
        Buffer.from(
          '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><Invoice>&lol2;</Invoice>',
        ),
        'xml_doctype',
        /DOCTYPE/,
      ],
      [
        'a UBL order',
        Buffer.from('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"><ID>1</ID></Order>'),
        'not_an_invoice',
        /UBL Order, not an invoice/,
      ],
      ['a plain PDF', example('broken/EmptyPDFA1.pdf'), 'pdf_no_invoice', /plain PDF/],
    ])(
      'refuses %s with 422 EINVOICE_REFUSED saying what was found, and stores nothing',
      async (_what, bytes, code, message) => {
        const { key } = await t.tenant();
        const res = await receive(t, key, bytes, {
          contentType: bytes.subarray(0, 5).toString() === '%PDF-' ? 'application/pdf' : 'application/xml',
        });
        expect(res.statusCode, res.body).toBe(422);
        const error = res.json().error;
        expect(error).toMatchObject({
          code: 'EINVOICE_REFUSED',
          message: expect.stringMatching(message),
          details: [{ field: 'body', code }],
        });
        expect((await get(key, '/purchase-invoice')).json().data.items).toEqual([]);
      },
    );

    it('answers 415 for a body of another media type, naming the types it takes', async () => {
      const { key } = await t.tenant();
      for (const contentType of ['application/json', 'image/png']) {
        const res = await receive(t, key, contentType === 'application/json' ? '{"number": "1"}' : 'png', {
          contentType,
        });
        expect(res.statusCode, contentType).toBe(415);
        expect(res.json().error).toMatchObject({
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message:
            'Send the document as the request body with Content-Type application/xml, text/xml, application/pdf.',
        });
      }
    });

    it('answers 413 for a document larger than RECEIVE_MAX_BYTES', async () => {
      const { key } = await t.tenant();
      const res = await receive(t, key, Buffer.alloc(t.config.receiveMaxBytes + 1, 0x20));
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        message: `The document is larger than ${t.config.receiveMaxBytes} bytes, the most this service takes (RECEIVE_MAX_BYTES).`,
      });
    });

    it('stores an invalid document flagged invalid with every finding; with ?require=valid refuses it with the same findings and stores nothing', async () => {
      const { key } = await t.tenant();
      const xml = withWrongPayable(supplierDocument({ number: 'R-BAD' }));
      const refused = await receive(t, key, xml, { query: 'require=valid' });
      expect(refused.statusCode, refused.body).toBe(422);
      const error = refused.json().error;
      expect(error.code).toBe('EINVOICE_INVALID');
      expect(error.message).toMatch(/BR-CO-16/);
      expect(error.details).toContainEqual(
        expect.objectContaining({
          code: 'BR-CO-16',
          severity: 'fatal',
          term: expect.stringMatching(/^BT-/),
          field: expect.stringContaining('LegalMonetaryTotal'),
        }),
      );
      expect((await get(key, '/purchase-invoice')).json().data.items).toEqual([]);

      const stored = await receive(t, key, xml);
      expect(stored.statusCode).toBe(201);
      const data = stored.json().data;
      expect(data.verdict).toBe('invalid');
      expect(data.totals.payable).toBe('120.00');
      expect(data.judgement.findings.map((f: { rule: string }) => f.rule)).toEqual(
        error.details.map((d: { code: string }) => d.code),
      );
      // A valid document passes ?require=valid.
      expect(
        (await receive(t, key, supplierDocument({ number: 'R-GOOD' }), { query: 'require=valid' })).statusCode,
      ).toBe(201);
    });

    it('keeps the BG-24 attachments of a document as files, answered byte for byte', async () => {
      const { key } = await t.tenant();
      const bytes = example('xrechnung/01.15a-INVOICE_ubl.xml');
      const res = await receive(t, key, bytes);
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      const embedded = [
        ...bytes
          .toString('utf8')
          .matchAll(/<cbc:EmbeddedDocumentBinaryObject[^>]*>([^<]+)<\/cbc:EmbeddedDocumentBinaryObject>/g),
      ].map((m) => Buffer.from(m[1]!, 'base64'));
      expect(embedded.length).toBeGreaterThan(0);
      expect(data.attachments).toHaveLength(embedded.length);
      for (const [index, content] of embedded.entries()) {
        const file = await get(key, `/purchase-invoice/${data.id}/attachments/${index + 1}`);
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.equals(content)).toBe(true);
        expect(file.headers['content-disposition']).toMatch(/^attachment; filename="/);
        expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
        expect(data.attachments[index]).toMatchObject({
          n: index + 1,
          source: 'xml',
          size: content.length,
          sha256: sha256(content),
        });
      }
      const references = data.document.attachments
        .filter((a: { embedded: unknown }) => a.embedded)
        .map((a: { embedded: { file: number } }) => a.embedded.file);
      expect(references).toEqual(embedded.map((_, i) => i + 1));
      expect((await get(key, `/purchase-invoice/${data.id}/attachments/${embedded.length + 1}`)).statusCode).toBe(404);
    });

    it('needs purchase-invoice.create to receive and purchase-invoice.read to read', async () => {
      const owner = await t.tenant();
      const created = (await receive(t, owner.key, supplierDocument())).json().data;
      const reader = await t.createKey(owner.companyId, ['purchase-invoice.read']);
      const writer = await t.createKey(owner.companyId, ['purchase-invoice.create']);
      expect((await receive(t, reader.key, supplierDocument({ number: 'R-2' }))).statusCode).toBe(403);
      expect((await get(reader.key, `/purchase-invoice/${created.id}`)).statusCode).toBe(200);
      expect((await get(reader.key, `/purchase-invoice/${created.id}/original`)).statusCode).toBe(200);
      expect((await receive(t, writer.key, supplierDocument({ number: 'R-3' }))).statusCode).toBe(201);
      for (const path of ['', '/original', '/pdf'])
        expect((await get(writer.key, `/purchase-invoice/${created.id}${path}`)).statusCode, path).toBe(403);
    });

    it("keeps test mode apart, and another company's documents out of sight", async () => {
      const live = await t.tenant();
      const test = await t.createKey(live.companyId, ['purchase-invoice.create', 'purchase-invoice.read'], {
        mode: 'test',
      });
      const sandboxed = await receive(t, test.key, supplierDocument());
      expect(sandboxed.statusCode).toBe(201);
      expect(sandboxed.json().data.livemode).toBe(false);
      const id = sandboxed.json().data.id;
      // The same document in the live world is no duplicate of the sandbox's.
      const liveOne = await receive(t, live.key, supplierDocument());
      expect(liveOne.statusCode).toBe(201);
      expect((await get(live.key, `/purchase-invoice/${id}`)).statusCode).toBe(404);
      expect((await get(test.key, `/purchase-invoice/${liveOne.json().data.id}`)).statusCode).toBe(404);
      expect((await get(live.key, '/purchase-invoice')).json().data.items.map((i: { id: string }) => i.id)).toEqual([
        liveOne.json().data.id,
      ]);
      expect((await get(test.key, '/purchase-invoice')).json().data.items.map((i: { id: string }) => i.id)).toEqual([
        id,
      ]);
      const other = await t.tenant();
      for (const path of ['', '/original', '/attachments/1', '/pdf'])
        expect((await get(other.key, `/purchase-invoice/${id}${path}`)).statusCode, path).toBe(404);
    });

    it.runIf(canInspectPdf)(
      'draws a received document as a PDF marked RECEIVED on every page, with its verdict, without XML or a payment code',
      async () => {
        const { key } = await t.tenant();
        const data = (await receive(t, key, supplierDocument({ number: 'R-PDF', price: '250' }))).json().data;
        const res = await get(key, `/purchase-invoice/${data.id}/pdf?lang=de`);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/pdf');
        const pdf = res.rawPayload;
        const text = pdfPlainText(pdf);
        expect(text).toContain('EMPFANGEN');
        expect(text).toMatch(
          /EMPFANGEN — Darstellung einer am \d\d\.\d\d\.20\d\d empfangenen E-Rechnung — das Original ist die E-Rechnung/,
        );
        expect(text).toContain('Geprüft nach den Regeln der EN 16931: gültig.');
        expect(text).toContain('R-PDF');
        expect(text).toContain('Nordlicht Bürobedarf GmbH');
        expect(text).toContain('297,50');
        expect(text).toContain('ZAHLUNGSANGABEN DES LIEFERANTEN');
        expect(text).toMatch(/Überweisung auf DE02 1203 0000 0000 2020 51/);
        expect(text).not.toContain('Bitte überweisen');
        expect(text).not.toContain('GiroCode');
        expect(pdfQrPayloads(pdf)).toEqual([]);
        expect(pdfAttachments(pdf).names).toEqual([]);
      },
    );
  });
}

for (const dialect of DIALECTS) {
  describe(`the reader's limits, as answers, on ${dialect}`, () => {
    let t: TestApp;
    let failure: WorkerJobError;

    beforeAll(async () => {
      // The reader is held by the test: each read fails as the pool would.
      t = await buildTestApp(dialect, {}, { reader: { read: () => Promise.reject(failure) } });
    });
    afterAll(async () => t.close());

    it('answers 503 with Retry-After when too many documents wait to be read', async () => {
      const { key } = await t.tenant();
      failure = new WorkerJobError('busy', 'Too many documents are waiting to be read (32).');
      const res = await receive(t, key, supplierDocument());
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json().error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: 'Too many documents are waiting to be read (32). Retry shortly.',
      });
    });

    it('refuses with 422 a document that passes the time or memory a reading may take', async () => {
      const { key } = await t.tenant();
      for (const [reason, code] of [
        ['timeout', 'read_timeout'],
        ['memory', 'read_memory'],
      ] as const) {
        failure = new WorkerJobError(
          reason,
          reason === 'timeout'
            ? 'The document took longer than 20000 ms to read.'
            : 'The document needed more than 512 MB to read.',
        );
        const res = await receive(t, key, supplierDocument());
        expect(res.statusCode, reason).toBe(422);
        expect(res.json().error).toMatchObject({
          code: 'EINVOICE_REFUSED',
          message: expect.stringContaining(failure.message),
          details: [{ field: 'body', code }],
        });
      }
    });
  });
}
