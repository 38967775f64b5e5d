import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';
import {
  filenameOf,
  makeTestCertificate,
  parseMessage,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// Sending from the panel: an issued invoice's and credit note's page sends it through the API's
// service to a real SMTP server on loopback, once per form however often the form is sent, shows
// every message with its state, recipients, attachments and the relay's answer, and refuses a
// role that may not send; the company's email templates are read, set, previewed and reset.

type Json = Record<string, unknown>;

const PROFILE = {
  legalName: 'Seller Software GmbH',
  vatId: 'DE123456789',
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
  paymentTerms: 'Payable within 30 days.',
};

const BUYER = {
  name: 'Buyer AG',
  isCustomer: true,
  vatId: 'DE811907980',
  email: 'ap@buyer.example',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};

const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19' }];

/** The hidden token of the Send form on a page. */
function formToken(body: string): string {
  const token = /name="idempotencyKey" value="([^"]+)"/.exec(body)?.[1];
  if (!token) throw new Error('the page has no Send form');
  return token;
}

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

for (const dialect of DIALECTS) {
  describe(`sending from the panel on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let owner: PanelClient;
    let member: PanelClient;
    let key: string;
    const ids: Record<string, string> = {};

    const post = async (path: string, body: Json) => {
      const res = await t.post(path, body, key);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; number: string };
    };

    beforeAll(async () => {
      smtp = await startSmtpServer(certificate);
      const email = loadConfig({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'invoices@sender.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
        EMAIL_RETRY_SCHEDULE_MS: '50,50',
      }).email!;
      t = await buildTestApp(dialect, { email });
      let companyId: string;
      ({ owner, companyId } = await claimInstance(t.app));
      member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      ({ key } = await t.createKey(companyId, [
        'company.read',
        'company.update',
        'organization.create',
        'invoice.create',
        'invoice.read',
        'credit-note.create',
        'credit-note.read',
      ]));
      const patched = await t.request({
        method: 'PATCH',
        url: `${BASE_PATH}/company`,
        headers: { 'x-api-key': key },
        payload: PROFILE,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const buyer = await post('/organization', BUYER);
      ids.buyer = buyer.id;
      ids.invoice = (
        await post('/invoice', { organizationId: buyer.id, buyerReference: '04011000-12345-34', lines: LINES })
      ).id;
      ids.draft = (await post('/invoice', { organizationId: buyer.id, status: 'draft', lines: LINES })).id;
      ids.creditNote = (
        await post('/credit-note', {
          invoiceId: ids.invoice,
          reason: 'Returned',
          lines: [{ ...LINES[0], quantity: '1' }],
        })
      ).id;
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const deliveredTo = (address: string) => smtp.received.filter((mail) => mail.to.includes(address));

    it("prefills the Send form with the buyer's email and queues one message however often the form is sent", async () => {
      const page = await owner.get(`/panel/invoices/${ids.invoice}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Sent by email');
      expect(page.body).toContain('Not sent by email yet.');
      expect(page.body).toMatch(/<input id="to" name="to"[^>]*value="ap@buyer.example"/);
      expect(page.body).toContain('The buyer&#39;s: German');
      const token = formToken(page.body);
      const fields = {
        to: 'ap@buyer.example, books@buyer.example',
        cc: 'copy@buyer.example',
        language: 'en',
        xmlFormat: 'xrechnung-cii',
        idempotencyKey: token,
      };
      const first = await owner.post(`/panel/invoices/${ids.invoice}/send`, fields);
      expect(first.statusCode, first.body).toBe(303);
      const again = await owner.post(`/panel/invoices/${ids.invoice}/send`, fields);
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(first.headers.location);

      await t.container.emailWorker!.drain();
      const answer = (await t.get(`/invoice/${ids.invoice}`, key)).json().data;
      expect(answer.deliveries).toHaveLength(1);
      const [delivery] = answer.deliveries;
      expect(delivery).toMatchObject({
        status: 'sent',
        to: ['ap@buyer.example', 'books@buyer.example'],
        cc: ['copy@buyer.example'],
        language: 'en',
        xmlFormat: 'xrechnung-cii',
      });
      const mails = smtp.received.filter((m) => parseMessage(m.raw).headers['message-id'] === delivery.messageId);
      expect(mails, 'the message reached the SMTP server once').toHaveLength(1);
      expect(mails[0]!.to).toEqual(['ap@buyer.example', 'books@buyer.example', 'copy@buyer.example']);
      const names = parseMessage(mails[0]!.raw).parts.map(filenameOf).filter(Boolean);
      expect(names).toEqual(delivery.attachments.map((a: { filename: string }) => a.filename));

      const shown = await owner.get(first.headers.location as string);
      expect(shown.body).toContain('The message to ap@buyer.example, books@buyer.example is queued');
      expect(shown.body).toContain('badge-email-sent');
      expect(shown.body).toContain('copy@buyer.example');
      for (const attachment of delivery.attachments) {
        expect(shown.body).toContain(attachment.filename);
        expect(shown.body).toContain(attachment.sha256);
      }
      expect(shown.body).toContain(delivery.smtpResponse.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    });

    it('sends a credit note from its page, and lists the message for every role', async () => {
      const page = await owner.get(`/panel/credit-notes/${ids.creditNote}`);
      const res = await owner.post(`/panel/credit-notes/${ids.creditNote}/send`, {
        to: 'refunds@buyer.example',
        cc: '',
        language: '',
        xmlFormat: 'cii',
        idempotencyKey: formToken(page.body),
      });
      expect(res.statusCode, res.body).toBe(303);
      await t.container.emailWorker!.drain();
      expect(deliveredTo('refunds@buyer.example')).toHaveLength(1);
      const seen = await member.get(`/panel/credit-notes/${ids.creditNote}`);
      expect(seen.body).toContain('refunds@buyer.example');
      expect(seen.body).toContain('badge-email-sent');
      expect(seen.body).not.toContain('name="idempotencyKey"');
      expect(seen.body).toContain('owners and admins send');
    });

    it("shows the service's refusals under their field, and keeps what was typed", async () => {
      const page = await owner.get(`/panel/invoices/${ids.invoice}`);
      const res = await owner.post(`/panel/invoices/${ids.invoice}/send`, {
        to: 'not-an-address',
        cc: 'also wrong@',
        language: 'de',
        xmlFormat: 'cii',
        idempotencyKey: formToken(page.body),
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('&quot;not-an-address&quot; is not one email address.');
      expect(res.body).toContain('id="to-error"');
      expect(res.body).toContain('id="cc-error"');
      expect(res.body).toMatch(/<input id="to" name="to"[^>]*value="not-an-address"/);
      expect(formToken(res.body)).not.toBe(formToken(page.body));
    });

    it('refuses a member who posts the Send form with 403 and queues nothing', async () => {
      const before = (await t.get(`/invoice/${ids.invoice}`, key)).json().data.deliveries.length;
      const page = await member.get(`/panel/invoices/${ids.invoice}`);
      expect(page.body).not.toContain(`action="/panel/invoices/${ids.invoice}/send"`);
      const res = await member.post(`/panel/invoices/${ids.invoice}/send`, {
        to: 'ap@buyer.example',
        xmlFormat: 'cii',
        idempotencyKey: 'forged-form',
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Owners and admins send invoices.');
      expect((await t.get(`/invoice/${ids.invoice}`, key)).json().data.deliveries).toHaveLength(before);
    });

    it('offers no Send form on a draft, and refuses a form without its CSRF token', async () => {
      const draft = await owner.get(`/panel/invoices/${ids.draft}`);
      expect(draft.body).toContain('A draft is not sent');
      expect(draft.body).not.toContain('name="idempotencyKey"');
      const page = await owner.get(`/panel/invoices/${ids.invoice}`);
      const res = await owner.post(
        `/panel/invoices/${ids.invoice}/send`,
        { to: 'ap@buyer.example', xmlFormat: 'cii', idempotencyKey: formToken(page.body) },
        { csrf: false },
      );
      expect(res.statusCode).toBe(403);
    });

    it('lists the six templates under Company settings and sets, previews and resets one', async () => {
      const company = await owner.get('/panel/company');
      expect(company.body).toContain('href="/panel/company/email-templates"');
      const list = await owner.get('/panel/company/email-templates');
      expect(list.statusCode).toBe(200);
      expect(list.body.match(/href="\/panel\/company\/email-templates\/[a-z-]+\/[a-z]{2}"/g)).toHaveLength(6);

      const path = '/panel/company/email-templates/invoice/de';
      const shown = await owner.get(path);
      expect(shown.body).toContain('Rechnung 2026-00042 von Seller Software GmbH');

      const preview = await owner.post(path, {
        subject: 'Ihre Rechnung {{number}} über {{amount}} {{currency}}',
        body: 'Guten Tag {{buyer}},\r\nanbei {{number}}.',
        action: 'preview',
      });
      expect(preview.statusCode).toBe(200);
      expect(preview.body).toContain('Preview (not saved)');
      expect(preview.body).toContain('Ihre Rechnung 2026-00042 über 1190.00 EUR');
      expect(preview.body).toContain('Guten Tag Sample Customer Ltd,\nanbei 2026-00042.');
      expect((await t.get('/company/email-templates', key)).json().data[0].custom).toBe(false);

      const saved = await owner.post(path, {
        subject: 'Ihre Rechnung {{number}} über {{amount}} {{currency}}',
        body: 'Guten Tag {{buyer}},\r\nanbei {{number}}.',
        action: 'save',
      });
      expect(saved.statusCode, saved.body).toBe(303);
      const templates = (await t.get('/company/email-templates', key)).json().data as Json[];
      expect(templates.find((x) => x.documentKind === 'invoice' && x.language === 'de')).toMatchObject({
        custom: true,
        subject: 'Ihre Rechnung {{number}} über {{amount}} {{currency}}',
        body: 'Guten Tag {{buyer}},\nanbei {{number}}.',
      });
      const after = await owner.get(saved.headers.location as string);
      expect(after.body).toContain('The template is saved.');
      expect(after.body).toContain('Reset to the default');

      // A message queued now uses it: the worker's template code and the preview agree.
      const page = await owner.get(`/panel/invoices/${ids.invoice}`);
      await owner.post(`/panel/invoices/${ids.invoice}/send`, {
        to: 'template@buyer.example',
        language: 'de',
        xmlFormat: 'cii',
        idempotencyKey: formToken(page.body),
      });
      await t.container.emailWorker!.drain();
      expect(deliveredTo('template@buyer.example')).toHaveLength(1);
      const invoice = (await t.get(`/invoice/${ids.invoice}`, key)).json().data;
      expect(invoice.deliveries[0]).toMatchObject({
        status: 'sent',
        subject: `Ihre Rechnung ${invoice.number} über ${invoice.totals.payable} EUR`,
      });

      const reset = await owner.post(`${path}/reset`);
      expect(reset.statusCode).toBe(303);
      expect((await t.get('/company/email-templates', key)).json().data[0]).toMatchObject({ custom: false });
      expect((await owner.get(reset.headers.location as string)).body).toContain('the default applies again');
    });

    it("refuses a subject of two lines with the service's words, and a member's change with 403", async () => {
      const path = '/panel/company/email-templates/credit-note/fr';
      const twoLines = await owner.post(path, { subject: 'Avoir\r\n{{number}}', body: 'Bonjour', action: 'save' });
      expect(twoLines.statusCode).toBe(400);
      expect(twoLines.body).toContain('A subject is one line.');
      const empty = await owner.post(path, { subject: '', body: '', action: 'save' });
      expect(empty.statusCode).toBe(400);
      expect(empty.body).toContain('Enter a subject.');
      expect(empty.body).toContain('Enter the text of the message.');

      const seen = await member.get(path);
      expect(seen.statusCode).toBe(200);
      expect(seen.body).not.toContain('name="subject"');
      expect(seen.body).toContain('Avoir CN-2026-00007 de Seller Software GmbH');
      const forged = await member.post(path, { subject: 'x', body: 'y', action: 'save' });
      expect(forged.statusCode).toBe(403);
      const forgedReset = await member.post(`${path}/reset`);
      expect(forgedReset.statusCode).toBe(403);
    });
  });
}
