import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { epcPayload, girocodeSvg } from '../../src/documents/index.js';
import { WORDS } from '../../src/hosted/words.js';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';
import {
  makeTestCertificate,
  parseMessage,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// The hosted page of an issued invoice or credit note, through the very app the server runs: the
// link in the answer opens a public page with the document, its status and open balance, how to
// pay it with a GiroCode for exactly that balance, and downloads byte-equal to the API's; the link
// is revocable, rate-limited, never logged, shows only its own document, and reaches the buyer in
// the email.

type Json = Record<string, unknown>;

const PUBLIC = 'https://pay.example.com';

const SELLER = {
  legalName: 'Seller Software GmbH',
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
  paymentTerms: 'Payable within 30 days.',
};

const BUYER = {
  name: 'Käufer AG',
  isCustomer: true,
  vatId: 'DE811907980',
  email: 'ap@buyer.example',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};

// 3 × 100 at 19 %: 357.00
const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '100', vatRate: '19' }];

const pathOf = (hostedUrl: string) => {
  expect(hostedUrl.startsWith(`${PUBLIC}/hosted/`), hostedUrl).toBe(true);
  return hostedUrl.slice(PUBLIC.length);
};

/** The GiroCode SVG of a page, or null. */
const svgOf = (html: string) => /<svg[\s\S]*?<\/svg>/.exec(html)?.[0] ?? null;

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

for (const dialect of DIALECTS) {
  describe(`hosted invoice pages on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    const log: string[] = [];

    beforeAll(async () => {
      smtp = await startSmtpServer(certificate);
      const email = loadConfig({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'invoices@sender.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
        EMAIL_RETRY_SCHEDULE_MS: '50,50',
      }).email!;
      const logStream = new PassThrough();
      logStream.on('data', (chunk: Buffer) => log.push(chunk.toString('utf8')));
      t = await buildTestApp(
        dialect,
        { email, publicBaseUrl: PUBLIC, hostedRateLimitMax: 8, hostedRateLimitWindowMs: 3_600_000 },
        { logStream },
      );
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    async function seller(options: { mode?: 'live' | 'test' } = {}) {
      const { companyId, key: liveKey } = await t.tenant(ALL_PERMISSIONS);
      // The seller profile is shared by both modes and set with a live key.
      const liveSend = (method: InjectOptions['method'], path: string, body?: Json) =>
        t.request({ method, url: `${BASE_PATH}${path}`, headers: { 'x-api-key': liveKey }, payload: body });
      expect((await liveSend('PATCH', '/company', SELLER)).statusCode).toBe(200);
      const key =
        options.mode === 'test' ? (await t.createKey(companyId, ALL_PERMISSIONS, { mode: 'test' })).key : liveKey;
      const send = async (method: InjectOptions['method'], path: string, body?: Json) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
      const buyer = (await send('POST', '/organization', BUYER)).json().data as Json;
      const issue = async (body: Json = {}) => {
        const res = await send('POST', '/invoice', { organizationId: buyer.id, lines: LINES, ...body });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as Json & { id: string; number: string; hostedUrl: string };
      };
      return { companyId, key, send, buyer, issue };
    }

    const page = (path: string) => t.request({ method: 'GET', url: path });

    it('shows an issued invoice with its open balance, a GiroCode for it, and no cookie, index or frame', async () => {
      const s = await seller();
      const invoice = await s.issue();
      expect(invoice.hostedUrl).toMatch(/^https:\/\/pay\.example\.com\/hosted\/[A-Za-z0-9_-]{43}$/);
      expect(invoice.viewedAt).toBeNull();
      const read = (await s.send('GET', `/invoice/${invoice.id}`)).json().data;
      expect(read.hostedUrl, 'every answer shows the same link').toBe(invoice.hostedUrl);

      const res = await page(pathOf(invoice.hostedUrl));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.headers['x-robots-tag']).toContain('noindex');
      expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toMatch(/script-src/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).not.toMatch(/<script/i);
      // German, as the buyer is in Germany: seller, buyer, the line, the totals, the status.
      expect(res.body).toContain('<html lang="de">');
      expect(res.body).toContain(`Rechnung ${invoice.number}`);
      expect(res.body).toContain('Seller Software GmbH');
      expect(res.body).toContain('Käufer AG');
      expect(res.body).toContain('Consulting');
      expect(res.body).toContain('357,00');
      expect(res.body).toContain('class="status status-open"');
      expect(res.body).toContain('DE89 3704 0044 0532 0130 00');

      const facts = (await t.container.documents.pageFacts(
        'invoice',
        { companyId: s.companyId, livemode: true },
        invoice.id,
        new Date(),
      ))!;
      expect(epcPayload(facts.view, '357.00')).toContain('EUR357.00');
      expect(svgOf(res.body)).toBe(girocodeSvg(facts.view, '357.00', WORDS.de.scanToPay));
    });

    it('shows the right balance, and a GiroCode for it alone, after a partial payment and after a credit note', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const path = pathOf(invoice.hostedUrl);
      const owner = { companyId: s.companyId, livemode: true };
      const view = (await t.container.documents.pageFacts('invoice', owner, invoice.id, new Date()))!.view;

      expect((await s.send('POST', `/invoice/${invoice.id}/payment`, { amount: '157.00' })).statusCode).toBe(201);
      let html = (await page(path)).body;
      expect(html).toContain('class="status status-partly-paid"');
      expect(html).toContain('Offener Betrag: 200,00');
      expect(svgOf(html)).toBe(girocodeSvg(view, '200.00', WORDS.de.scanToPay));
      expect(svgOf(html)).not.toBe(girocodeSvg(view, '357.00', WORDS.de.scanToPay));

      const credit = await s.send('POST', '/credit-note', {
        invoiceId: invoice.id,
        reason: 'One hour less',
        lines: [{ name: 'Consulting', quantity: '1', unitCode: 'HUR', unitPrice: '100', vatRate: '19' }],
      });
      expect(credit.statusCode, credit.body).toBe(201);
      html = (await page(path)).body;
      expect(html).toContain('Offener Betrag: 81,00');
      expect(svgOf(html)).toBe(girocodeSvg(view, '81.00', WORDS.de.scanToPay));

      // The credit note has a page of its own: no payment asked, its invoice's balance shown.
      const creditNote = credit.json().data;
      expect(creditNote.hostedUrl).toMatch(/^https:\/\/pay\.example\.com\/hosted\//);
      const creditPage = (await page(pathOf(creditNote.hostedUrl))).body;
      expect(creditPage).toContain(`Gutschrift ${creditNote.number}`);
      expect(creditPage).toContain(`Offener Betrag der Rechnung ${invoice.number}: 81,00`);
      expect(svgOf(creditPage)).toBeNull();

      expect((await s.send('POST', `/invoice/${invoice.id}/payment`, { amount: '81.00' })).statusCode).toBe(201);
      html = (await page(path)).body;
      expect(html).toContain('class="status status-paid"');
      expect(html).toContain('Es ist nichts zu zahlen.');
      expect(svgOf(html), 'no code when nothing is owed').toBeNull();
    });

    it('shows a void invoice as void, and one settled by a payment and a credit note as credited, asking for nothing', async () => {
      const s = await seller();
      const voided = await s.issue();
      expect((await s.send('POST', `/invoice/${voided.id}/void`)).statusCode).toBe(200);
      let html = (await page(pathOf(voided.hostedUrl))).body;
      expect(html).toContain('class="status status-void"');
      expect(svgOf(html)).toBeNull();

      const credited = await s.issue();
      expect((await s.send('POST', `/invoice/${credited.id}/payment`, { amount: '157.00' })).statusCode).toBe(201);
      const credit = await s.send('POST', '/credit-note', {
        invoiceId: credited.id,
        reason: 'Two hours less',
        lines: [{ name: 'Consulting', quantity: '1', unitCode: 'HUR', unitPrice: '168.07', vatRate: '19' }],
      });
      expect(credit.statusCode, credit.body).toBe(201);
      html = (await page(pathOf(credited.hostedUrl))).body;
      expect(html).toContain('class="status status-credited"');
      expect(html).toContain('Es ist nichts zu zahlen.');
      expect(svgOf(html)).toBeNull();
    });

    it('shows a test-mode invoice with no GiroCode and no account, as test-mode PDFs do', async () => {
      const s = await seller({ mode: 'test' });
      const invoice = await s.issue();
      const html = (await page(pathOf(invoice.hostedUrl))).body;
      expect(html).toContain(WORDS.de.testDocument);
      expect(svgOf(html)).toBeNull();
      expect(html).not.toContain('DE89 3704');
    });

    it('offers the PDF and the XML, byte-equal to the API downloads', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const path = pathOf(invoice.hostedUrl);
      const html = (await page(path)).body;
      expect(html).toContain(`href="${invoice.hostedUrl}/pdf"`);
      expect(html).toContain(`href="${invoice.hostedUrl}/xml"`);
      const pdf = await page(`${path}/pdf`);
      const apiPdf = await s.send('GET', `/invoice/${invoice.id}/pdf?lang=de`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
      expect(pdf.rawPayload.equals(apiPdf.rawPayload)).toBe(true);
      expect(pdf.headers['set-cookie']).toBeUndefined();
      expect(pdf.headers['x-robots-tag']).toContain('noindex');
      const xml = await page(`${path}/xml`);
      const apiXml = await s.send('GET', `/invoice/${invoice.id}/cii`);
      expect(xml.statusCode).toBe(200);
      expect(xml.rawPayload.equals(apiXml.rawPayload)).toBe(true);
    });

    it('records the first view on the invoice and as one invoice.viewed event', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const path = pathOf(invoice.hostedUrl);
      expect((await page(path)).statusCode).toBe(200);
      expect((await page(path)).statusCode).toBe(200);
      const read = (await s.send('GET', `/invoice/${invoice.id}`)).json().data;
      expect(read.viewedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const events = (await s.send('GET', '/event?type=invoice.viewed')).json().data.items as Json[];
      expect(events).toHaveLength(1);
      expect((events[0]!.data as { object: Json }).object).toMatchObject({ id: invoice.id, viewedAt: read.viewedAt });
    });

    it('revokes the link on rotate: the old one is a 404 with no hint, the new one opens the page', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const old = pathOf(invoice.hostedUrl);
      expect((await page(old)).statusCode).toBe(200);
      const res = await s.send('POST', `/invoice/${invoice.id}/hosted-link/rotate`);
      expect(res.statusCode, res.body).toBe(200);
      const rotated = res.json().data;
      expect(rotated.hostedUrl).not.toBe(invoice.hostedUrl);
      expect(rotated.viewedAt, 'the first view stays').not.toBeNull();
      const gone = await page(old);
      expect(gone.statusCode).toBe(404);
      const unknown = await page(`/hosted/${'A'.repeat(43)}`);
      expect(gone.body, 'a rotated token answers as an unknown one').toBe(unknown.body);
      expect(gone.headers['x-robots-tag']).toContain('noindex');
      expect((await page(`${old}/pdf`)).statusCode).toBe(404);
      expect((await page(pathOf(rotated.hostedUrl))).statusCode).toBe(200);
      expect((await s.send('GET', `/invoice/${invoice.id}`)).json().data.hostedUrl).toBe(rotated.hostedUrl);

      const draft = await s.issue({ status: 'draft' });
      expect(draft.hostedUrl, 'a draft has no page').toBeNull();
      const refused = await s.send('POST', `/invoice/${draft.id}/hosted-link/rotate`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('INVOICE_NOT_ISSUED');

      const creditNote = (await s.send('POST', '/credit-note', { invoiceId: invoice.id, reason: 'Cancelled' })).json()
        .data;
      const rotatedCredit = await s.send('POST', `/credit-note/${creditNote.id}/hosted-link/rotate`);
      expect(rotatedCredit.statusCode, rotatedCredit.body).toBe(200);
      expect((await page(pathOf(creditNote.hostedUrl))).statusCode).toBe(404);
      expect((await page(pathOf(rotatedCredit.json().data.hostedUrl))).statusCode).toBe(200);
    });

    it('shows a token only its own document, and another company cannot rotate it', async () => {
      const a = await seller();
      const b = await seller();
      const invoiceA = await a.issue({ note: 'Note of company A' });
      const invoiceB = await b.issue({ note: 'Note of company B' });
      const pageA = (await page(pathOf(invoiceA.hostedUrl))).body;
      expect(pageA).toContain(invoiceA.number);
      expect(invoiceA.hostedUrl).not.toBe(invoiceB.hostedUrl);
      expect((await b.send('POST', `/invoice/${invoiceA.id}/hosted-link/rotate`)).statusCode).toBe(404);
      expect((await page(pathOf(invoiceA.hostedUrl))).statusCode, 'still open').toBe(200);
      const pdfA = await page(`${pathOf(invoiceA.hostedUrl)}/pdf`);
      const apiPdfA = await a.send('GET', `/invoice/${invoiceA.id}/pdf?lang=de`);
      expect(pdfA.rawPayload.equals(apiPdfA.rawPayload)).toBe(true);
    });

    it('limits views per link with a clear 429 page, other links unaffected', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const other = await s.issue();
      const path = pathOf(invoice.hostedUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await page(path)).statusCode);
      expect(statuses.filter((status) => status === 200)).toHaveLength(8);
      const limited = await page(path);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toMatch(/^\d+$/);
      expect(limited.body).toContain(WORDS.en.limitedTitle);
      expect(limited.headers['x-robots-tag']).toContain('noindex');
      expect((await page(pathOf(other.hostedUrl))).statusCode).toBe(200);
    });

    it('never writes a token into the log', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const path = pathOf(invoice.hostedUrl);
      const token = path.slice('/hosted/'.length);
      await page(path);
      await page(`${path}/pdf`);
      await eventually(() => log.some((line) => line.includes('/hosted/[redacted]/pdf')), {
        what: 'the access log line of the download',
      });
      expect(log.join('')).not.toContain(token);
    });

    it('sends the link in the email body, put in when the message is sent', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const res = await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['link@buyer.example'] });
      expect(res.statusCode, res.body).toBe(202);
      const mail = await eventually(() => smtp.received.find((m) => m.to.includes('link@buyer.example')) ?? false, {
        timeoutMs: 20_000,
        what: 'the message at the SMTP server',
      });
      const text = parseMessage(mail.raw)
        .parts.filter((part) => /^text\/plain/i.test(part.headers['content-type'] ?? ''))
        .map((part) => part.body.toString('utf8'))
        .join('');
      expect(text).toContain(`Online ansehen, mit aktuellem Stand und Downloads: ${invoice.hostedUrl}`);
      const stored = (await t.storage.db.selectFrom('email_deliveries').select('body_text').execute()).map(
        (row) => row.body_text,
      );
      expect(stored.join('\n'), 'no row holds the token in clear').not.toContain(pathOf(invoice.hostedUrl));
    });
  });
}

describe('hosted pages without PUBLIC_BASE_URL', () => {
  it('answers hostedUrl null', async () => {
    const t = await buildTestApp(DIALECTS[0]!);
    try {
      const { key } = await t.tenant(ALL_PERMISSIONS);
      const buyer = (await t.post('/organization', { name: 'Buyer', isCustomer: true }, key)).json().data;
      const res = await t.post('/invoice', { organizationId: buyer.id, lines: LINES }, key);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ hostedUrl: null, viewedAt: null });
    } finally {
      await t.close();
    }
  });
});
