import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import {
  filenameOf,
  makeTestCertificate,
  parseMessage,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// A recurring invoice that sends: each run's invoice reaches a real SMTP server on loopback once,
// with the PDF and the XML attached whose bytes are the downloads, even when the pass for the same
// instant runs again; a draft run is never sent.

const PROFILE = {
  legalName: 'Seller Software GmbH',
  vatId: 'DE123456789',
  electronicAddress: { scheme: '9930', identifier: 'DE123456789' },
  address: { line1: 'Friedrichstr. 100', city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
  contact: { name: 'Ada Seller', phone: '+49 30 987654', email: 'billing@seller.example' },
  bankAccount: { iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
};

const BUYER = {
  name: 'Subscriber AG',
  isCustomer: true,
  vatId: 'DE811907980',
  email: 'ap@subscriber.example',
  address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
};

const LINES = [{ name: 'Maintenance', quantity: '1', unitCode: 'MON', unitPrice: '100', vatRate: '19' }];

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

for (const dialect of DIALECTS) {
  describe(`recurring invoices that send on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let key: string;
    let companyId: string;
    let buyerId: string;

    beforeAll(async () => {
      smtp = await startSmtpServer(certificate);
      const email = loadConfig({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'invoices@sender.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
        EMAIL_RETRY_SCHEDULE_MS: '50,50',
      }).email!;
      t = await buildTestApp(dialect, { email, recurringIntervalMs: 0 });
      ({ companyId, key } = await t.tenant());
      const patched = await t.request({
        method: 'PATCH',
        url: '/api/v1.0.0/public/company',
        headers: { 'x-api-key': key },
        payload: PROFILE,
      });
      expect(patched.statusCode, patched.body).toBe(200);
      const buyer = await t.post('/organization', BUYER, key);
      expect(buyer.statusCode, buyer.body).toBe(201);
      buyerId = buyer.json().data.id;
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    const create = async (extra: Record<string, unknown>) => {
      const res = await t.post(
        '/recurring-invoice',
        {
          template: { organizationId: buyerId, buyerReference: '04011000-12345-34', lines: LINES },
          schedule: { interval: 'month', anchorDate: today(), timeZone: 'UTC' },
          ...extra,
        },
        key,
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string };
    };
    // Runs today (UTC), as of now: the message is due at once, as in a server's own pass.
    const today = () => new Date().toISOString().slice(0, 10);
    const pass = () => t.container.recurring.runDue(new Date(), undefined, { companyId });

    it("sends each run's invoice once to the buyer with the PDF and XML attached, however often the pass runs", async () => {
      const r = await create({ send: {} });
      await pass();
      await pass();
      await t.container.emailWorker!.drain();
      const runs = (await t.get(`/recurring-invoice/${r.id}`, key)).json().data.runs;
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ status: 'made', sendError: null });
      expect(runs[0].deliveryId).toMatch(/^\w+_/);
      const invoice = (await t.get(`/invoice/${runs[0].invoiceId}`, key)).json().data;
      expect(invoice.deliveries).toHaveLength(1);
      const [delivery] = invoice.deliveries;
      expect(delivery).toMatchObject({ id: runs[0].deliveryId, status: 'sent', to: ['ap@subscriber.example'] });

      const mails = smtp.received.filter((m) => parseMessage(m.raw).headers['message-id'] === delivery.messageId);
      expect(mails, 'the message reached the SMTP server once').toHaveLength(1);
      expect(mails[0]!.to).toEqual(['ap@subscriber.example']);
      const names = parseMessage(mails[0]!.raw).parts.map(filenameOf).filter(Boolean);
      expect(names).toEqual(delivery.attachments.map((a: { filename: string }) => a.filename));
      expect(names).toHaveLength(2);
      const pdf = await t.get(`/invoice/${invoice.id}/pdf?lang=${delivery.language}`, key);
      const { createHash } = await import('node:crypto');
      expect(delivery.attachments[0].sha256).toBe(createHash('sha256').update(pdf.rawPayload).digest('hex'));
    });

    it('never sends a run that only makes a draft', async () => {
      const before = smtp.received.length;
      const r = await create({ send: {}, invoiceStatus: 'draft' });
      await pass();
      await t.container.emailWorker!.drain();
      const runs = (await t.get(`/recurring-invoice/${r.id}`, key)).json().data.runs;
      expect(runs).toHaveLength(1);
      expect(runs[0].deliveryId).toBeNull();
      const invoice = (await t.get(`/invoice/${runs[0].invoiceId}`, key)).json().data;
      expect(invoice.status).toBe('draft');
      expect(invoice.deliveries).toEqual([]);
      expect(smtp.received.length).toBe(before);
    });
  });
}
