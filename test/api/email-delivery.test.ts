import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHash } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import {
  filenameOf,
  makeTestCertificate,
  parseMessage,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// Sending invoices and credit notes by email, through the very app the server runs, to a real
// SMTP server on loopback that offers STARTTLS with a certificate made for the run: the message
// arrives over TLS, to the right recipients, with the PDF and the XML whose bytes are the API's
// downloads; every message is recorded in the document's answer and as an event.

type Json = Record<string, unknown>;

const BUYER = {
  name: 'Käufer AG',
  isCustomer: true,
  vatId: 'DE811907980',
  email: 'ap@buyer.example',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};

const SELLER = {
  legalName: 'Seller Software GmbH',
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
  paymentTerms: 'Payable within 30 days.',
};

const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19' }];

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

for (const dialect of DIALECTS) {
  describe(`sending documents by email on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      smtp = await startSmtpServer(certificate);
      const email = loadConfig({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'invoices@sender.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
        EMAIL_RETRY_SCHEDULE_MS: '50,50',
      }).email!;
      t = await buildTestApp(dialect, { email });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    async function seller(permissions = ALL_PERMISSIONS) {
      const { key } = await t.tenant(ALL_PERMISSIONS);
      const send = async (
        method: InjectOptions['method'],
        path: string,
        body?: Json,
        headers: Record<string, string> = {},
      ) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key, ...headers },
          ...(body ? { payload: body } : {}),
        });
      expect((await send('PATCH', '/company', SELLER)).statusCode).toBe(200);
      const buyer = (await send('POST', '/organization', BUYER)).json().data as Json;
      const issue = async (body: Json = {}) => {
        const res = await send('POST', '/invoice', {
          organizationId: buyer.id,
          buyerReference: '04011000-12345-34',
          lines: LINES,
          ...body,
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as Json;
      };
      const limited =
        permissions === ALL_PERMISSIONS
          ? key
          : (await t.createKey((await t.get('/company', key)).json().data.id, permissions)).key;
      return { key, limited, send, buyer, issue };
    }

    const messagesTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));

    it('sends an issued invoice to the buyer over STARTTLS with the PDF and the CII whose bytes are the downloads', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const res = await s.send('POST', `/invoice/${invoice.id}/send`, {});
      expect(res.statusCode, res.body).toBe(202);
      const queued = res.json().data;
      expect(queued).toMatchObject({
        status: 'queued',
        to: ['ap@buyer.example'],
        cc: [],
        language: 'de',
        xmlFormat: 'cii',
        replyTo: 'billing@seller.example',
        attachments: [],
      });
      expect(queued.subject).toBe(`Rechnung ${invoice.number} von Seller Software GmbH`);

      const delivery = await vi.waitFor(
        async () => {
          const [found] = (await s.send('GET', `/invoice/${invoice.id}`)).json().data.deliveries;
          if (found.status !== 'sent') throw new Error(`still ${found.status}`);
          return found;
        },
        { timeout: 20_000, interval: 50 },
      );
      const [mail] = smtp.received.filter((m) => parseMessage(m.raw).headers['message-id'] === delivery.messageId);
      expect(mail, 'the message reached the SMTP server').toBeDefined();
      expect(mail!.secure, 'the session was upgraded with STARTTLS').toBe(true);
      expect(mail!.from).toBe('invoices@sender.example');
      expect(mail!.to).toEqual(['ap@buyer.example']);
      const message = parseMessage(mail!.raw);
      expect(message.headers['reply-to']).toBe('billing@seller.example');
      expect(message.headers.from).toContain('<invoices@sender.example>');

      const pdf = (await s.send('GET', `/invoice/${invoice.id}/pdf?lang=de`)).rawPayload;
      const cii = (await s.send('GET', `/invoice/${invoice.id}/cii`)).rawPayload;
      const files = message.parts.filter((part) => filenameOf(part) !== null);
      expect(files.map(filenameOf)).toEqual([`invoice-${invoice.number}.pdf`, `invoice-${invoice.number}-cii.xml`]);
      expect(files[0]!.body.equals(pdf), 'the PDF is the download').toBe(true);
      expect(files[1]!.body.equals(cii), 'the XML is the download').toBe(true);
      expect(delivery.attachments).toEqual([
        {
          filename: `invoice-${invoice.number}.pdf`,
          contentType: 'application/pdf',
          size: pdf.length,
          sha256: sha256(pdf),
        },
        {
          filename: `invoice-${invoice.number}-cii.xml`,
          contentType: 'application/xml',
          size: cii.length,
          sha256: sha256(cii),
        },
      ]);
      expect(delivery.smtpResponse).toMatch(/^250/);
      expect(delivery.sentAt).not.toBeNull();

      const events = (await s.send('GET', '/event?type=invoice.sent')).json().data.items as {
        data: { object: Json };
      }[];
      expect(events.map((event) => event.data.object.id)).toEqual([delivery.id]);
    });

    it('sends a credit note to the given recipients, in the language and XML format asked for', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const credit = await s.send('POST', '/credit-note', { invoiceId: invoice.id, reason: 'Returned goods' });
      expect(credit.statusCode, credit.body).toBe(201);
      const note = credit.json().data;
      const res = await s.send('POST', `/credit-note/${note.id}/send`, {
        to: ['accounts@other.example'],
        cc: ['boss@other.example'],
        language: 'fr',
        xmlFormat: 'xrechnung-ubl',
      });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data.subject).toMatch(new RegExp(`^Avoir ${note.number} de `));
      await vi.waitFor(
        async () => {
          const [found] = (await s.send('GET', `/credit-note/${note.id}`)).json().data.deliveries;
          if (found.status !== 'sent') throw new Error(`still ${found.status}`);
        },
        { timeout: 20_000, interval: 50 },
      );
      const [mail] = messagesTo('accounts@other.example');
      expect(mail!.to.sort()).toEqual(['accounts@other.example', 'boss@other.example']);
      const message = parseMessage(mail!.raw);
      expect(message.headers.cc).toBe('boss@other.example');
      const files = message.parts.filter((part) => filenameOf(part) !== null);
      expect(files[0]!.body.equals((await s.send('GET', `/credit-note/${note.id}/pdf?lang=fr`)).rawPayload)).toBe(true);
      expect(
        files[1]!.body.equals((await s.send('GET', `/credit-note/${note.id}/ubl?profile=xrechnung`)).rawPayload),
      ).toBe(true);
      expect((await s.send('GET', '/event?type=credit-note.sent')).json().data.items).toHaveLength(1);
    });

    it('queues one message for one Idempotency-Key, however often the request is repeated', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const headers = { 'idempotency-key': `send-${invoice.id}` };
      const first = await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['once@buyer.example'] }, headers);
      const again = await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['once@buyer.example'] }, headers);
      expect(first.statusCode).toBe(202);
      expect(again.statusCode).toBe(202);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data.id).toBe(first.json().data.id);
      await vi.waitFor(() => expect(messagesTo('once@buyer.example')).toHaveLength(1), {
        timeout: 20_000,
        interval: 50,
      });
      expect((await s.send('GET', `/invoice/${invoice.id}`)).json().data.deliveries).toHaveLength(1);
    });

    it('retries a message the relay refuses for now, and records a permanent refusal as failed with an event', async () => {
      const s = await seller();
      const invoice = await s.issue();
      smtp.refuse = { code: 451, message: 'Try again later' };
      const res = await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['later@buyer.example'] });
      expect(res.statusCode, res.body).toBe(202);
      const deliveryOf = async () =>
        ((await s.send('GET', `/invoice/${invoice.id}`)).json().data.deliveries as Json[])[0]!;
      await vi.waitFor(async () => expect((await deliveryOf()).attempts).toBeGreaterThanOrEqual(1), {
        timeout: 20_000,
        interval: 20,
      });
      smtp.refuse = null;
      await vi.waitFor(async () => expect((await deliveryOf()).status).toBe('sent'), { timeout: 20_000, interval: 50 });
      expect(messagesTo('later@buyer.example')).toHaveLength(1);

      smtp.refuse = { code: 550, message: 'No such mailbox' };
      try {
        const failing = await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['nobody@buyer.example'] });
        expect(failing.statusCode).toBe(202);
        const failed = await vi.waitFor(
          async () => {
            const found = ((await s.send('GET', `/invoice/${invoice.id}`)).json().data.deliveries as Json[]).find(
              (d) => d.id === failing.json().data.id,
            )!;
            if (found.status === 'queued') throw new Error('still queued');
            return found;
          },
          { timeout: 20_000, interval: 50 },
        );
        expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
        expect(failed.failureReason).toMatch(/No such mailbox/);
        const events = (await s.send('GET', '/event?type=invoice.send_failed')).json().data.items as {
          data: { object: Json };
        }[];
        expect(events.map((event) => event.data.object.id)).toEqual([failed.id]);
      } finally {
        smtp.refuse = null;
      }
    });

    it("uses the company's own template of the language, and the default again once it is dropped", async () => {
      const s = await seller();
      const invoice = await s.issue();
      const put = await s.send('PUT', '/company/email-templates/invoice/de', {
        subject: 'Ihre Rechnung {{number}} über {{amount}} {{currency}}',
        body: 'Hallo {{buyer}},\nanbei {{number}}.\n',
      });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data).toMatchObject({ documentKind: 'invoice', language: 'de', custom: true });
      const listed = (await s.send('GET', '/company/email-templates')).json().data as Json[];
      expect(listed).toHaveLength(6);
      expect(
        listed.filter((template) => template.custom).map((template) => [template.documentKind, template.language]),
      ).toEqual([['invoice', 'de']]);
      const custom = (await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['template@buyer.example'] })).json()
        .data;
      expect(custom.subject).toBe(`Ihre Rechnung ${invoice.number} über 285.60 EUR`);
      await vi.waitFor(() => expect(messagesTo('template@buyer.example')).toHaveLength(1), {
        timeout: 20_000,
        interval: 50,
      });
      const text = parseMessage(messagesTo('template@buyer.example')[0]!.raw).parts.find(
        (part) => filenameOf(part) === null,
      )!;
      expect(text.body.toString('utf8')).toContain(`Hallo Käufer AG,`);

      expect(
        (await s.send('PUT', '/company/email-templates/invoice/de', { subject: 'two\nlines', body: 'x' })).statusCode,
      ).toBe(400);
      const reset = await s.send('DELETE', '/company/email-templates/invoice/de');
      expect(reset.json().data).toMatchObject({ custom: false, updatedAt: null });
      const again = (await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['template@buyer.example'] })).json()
        .data;
      expect(again.subject).toBe(`Rechnung ${invoice.number} von Seller Software GmbH`);
    });

    it('refuses before queueing: a draft, a buyer without email, a bad address, an unknown id, a key without the permission', async () => {
      const s = await seller(['invoice.read']);
      const draft = await s.issue({ status: 'draft' });
      expect((await s.send('POST', `/invoice/${draft.id}/send`, {})).json().error.code).toBe('INVOICE_NOT_ISSUED');
      const noEmail = (await s.send('POST', '/organization', { ...BUYER, name: 'No Mail GmbH', email: null })).json()
        .data;
      const invoice = await s.issue({ organizationId: noEmail.id });
      const missing = await s.send('POST', `/invoice/${invoice.id}/send`, {});
      expect(missing.statusCode, missing.body).toBe(400);
      expect(missing.json().error.details[0].field).toBe('to');
      const bad = await s.send('POST', `/invoice/${invoice.id}/send`, { to: ['not an address'] });
      expect(bad.statusCode, bad.body).toBe(400);
      expect(bad.json().error.details[0].field).toBe('to[0]');
      expect((await s.send('POST', '/invoice/inv_00000000-0000-7000-8000-000000000000/send', {})).statusCode).toBe(404);
      const forbidden = await t.request({
        method: 'POST',
        url: `${BASE_PATH}/invoice/${invoice.id}/send`,
        headers: { 'x-api-key': s.limited },
        payload: {},
      });
      expect(forbidden.statusCode).toBe(403);
      expect((await s.send('GET', `/invoice/${invoice.id}`)).json().data.deliveries).toEqual([]);
    });
  });
}

describe('sending without SMTP settings', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(DIALECTS[0]!);
  });
  afterAll(async () => t.close());

  it('answers 503 EMAIL_NOT_CONFIGURED and queues nothing', async () => {
    const { key } = await t.tenant();
    const buyer = (await t.post('/organization', BUYER, key)).json().data;
    const invoice = (await t.post('/invoice', { organizationId: buyer.id, lines: LINES }, key)).json().data;
    const res = await t.post(`/invoice/${invoice.id}/send`, {}, key);
    expect(res.statusCode).toBe(503);
    expect(res.json().error.code).toBe('EMAIL_NOT_CONFIGURED');
    expect((await t.get(`/invoice/${invoice.id}`, key)).json().data.deliveries).toEqual([]);
  });
});
