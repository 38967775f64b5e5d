import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import {
  makeTestCertificate,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// GET /invoice/{id} reads the invoice with its lines, payments, refunds, credit notes, messages,
// hosted link and reminders in one statement (their rows as JSON columns). These tests hold that
// answer to exact values (decimal text as sent, the order of each list) and, to the byte, to the
// answers the writes gave, which are built from other reads.

type Body = Record<string, unknown>;

const PUBLIC = 'https://pay.example.com';

/** The same value, and the same JSON text (keys in the same order). */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

// Twelve lines, so that a position compared as text (10 before 2) would show; decimals with many
// digits and trailing zeros, which a float would lose; text beyond ASCII.
const LINES = [
  { name: 'Beratung “Ω”', quantity: '7.5', unitPrice: '120.00', vatRate: '19' },
  { name: 'Bücher 📚', quantity: '3', unitPrice: '19.99', vatRate: '7' },
  { name: 'Licence', quantity: '12', unitPrice: '9.95', discountPercent: '10', vatRate: '19' },
  { name: 'Export service', quantity: '1', unitPrice: '500', vatRate: '0', vatCategory: 'G' },
  { name: 'Tiny', quantity: '0.0001', unitPrice: '0.01', vatRate: '19' },
  { name: 'Large', quantity: '1', unitPrice: '12345678901.23', vatRate: '19' },
  ...Array.from({ length: 6 }, (_, i) => ({
    name: `Line ${i + 7}`,
    description: `Described\n${'x'.repeat(i)}`,
    quantity: '1.10',
    unitPrice: '0.10',
    vatRate: '19',
  })),
];

for (const dialect of DIALECTS) {
  describe(`the invoice answer on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let certificate: TestCertificate;

    beforeAll(async () => {
      certificate = makeTestCertificate();
      smtp = await startSmtpServer(certificate);
      const email = loadConfig({
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'invoices@sender.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
      }).email!;
      t = await buildTestApp(dialect, { email, publicBaseUrl: PUBLIC });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
      certificate.remove();
    });

    async function company() {
      const { key } = await t.tenant();
      const post = async (path: string, body?: Body) => {
        const res = await t.request({
          method: 'POST',
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json().data as Body & { id: string };
      };
      const get = async (id: string) => {
        const res = await t.get(`/invoice/${id}`, key);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as Body;
      };
      const buyer = await post('/organization', {
        name: 'Käufer AG',
        isCustomer: true,
        email: 'ap@buyer.example',
        address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
      });
      const getCreditNote = async (id: string) => {
        const res = await t.get(`/credit-note/${id}`, key);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as Body;
      };
      return { post, get, getCreditNote, buyer };
    }

    it('reads an invoice with lines, payments, a refund, a credit note, a message and its link exactly', async () => {
      const c = await company();
      const issued = await c.post('/invoice', { organizationId: c.buyer.id, lines: LINES, issueDate: '2026-03-02' });
      const payable = (issued.totals as { payable: string }).payable;
      expect(payable).toBe('14691359656.30');
      await c.post(`/invoice/${issued.id}/payment`, { amount: '14691359600.00', reference: 'first' });
      await c.post(`/invoice/${issued.id}/payment`, { amount: '56.30', reference: 'second', date: '2026-03-05' });
      const creditNote = await c.post('/credit-note', {
        invoiceId: issued.id,
        reason: 'Export service not rendered',
        lines: [{ name: 'Export service', quantity: '1', unitPrice: '500', vatRate: '0', vatCategory: 'G' }],
      });
      const refunded = await c.post(`/invoice/${issued.id}/refund`, { amount: '500.00', reference: 'back' });

      const read = await c.get(issued.id);
      // To the byte what the refund answered, which was built from what it read and wrote.
      expectSame(read, refunded);
      expectSame(read.lines, issued.lines);
      expect((read.lines as { position: number; name: string; quantity: string }[]).map((l) => l.position)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      // Decimals as stored (the service keeps a price's or quantity's digits but no trailing zeros).
      expect((read.lines as Body[]).slice(0, 8)).toMatchObject([
        { name: 'Beratung “Ω”', quantity: '7.5', unitPrice: '120', netAmount: '900.00' },
        { name: 'Bücher 📚', quantity: '3', unitPrice: '19.99', netAmount: '59.97' },
        { discountPercent: '10', netAmount: '107.46' },
        { vatCategory: 'G', netAmount: '500.00' },
        { quantity: '0.0001', unitPrice: '0.01', netAmount: '0.00' },
        { unitPrice: '12345678901.23', netAmount: '12345678901.23' },
        { name: 'Line 7', description: 'Described', quantity: '1.1', unitPrice: '0.1', netAmount: '0.11' },
        { name: 'Line 8', description: 'Described\nx', position: 8 },
      ]);
      expect(read).toMatchObject({
        status: 'paid',
        amountPaid: '14691359656.30',
        amountCredited: '500.00',
        amountRefunded: '500.00',
        amountDue: '0.00',
        creditNoteIds: [creditNote.id],
        hostedUrl: issued.hostedUrl,
        viewedAt: null,
        deliveries: [],
        reminders: [],
      });
      expect(issued.hostedUrl).toMatch(/^https:\/\/pay\.example\.com\/hosted\/[A-Za-z0-9_-]{43}$/);
      expect((read.payments as Body[]).map((p) => [p.amount, p.reference])).toEqual([
        ['14691359600.00', 'first'],
        ['56.30', 'second'],
      ]);
      expect((read.payments as Body[])[1]).toMatchObject({ date: '2026-03-05' });
      expect((read.refunds as Body[]).map((r) => [r.amount, r.reference])).toEqual([['500.00', 'back']]);

      // Sent twice: the messages come newest first, as they were recorded.
      await c.post(`/invoice/${issued.id}/send`, {});
      await c.post(`/invoice/${issued.id}/send`, { to: ['second@buyer.example'] });
      await t.container.emailWorker!.drain();
      const after = await c.get(issued.id);
      const deliveries = after.deliveries as { status: string; to: string[]; documentId: string }[];
      expect(deliveries.map((d) => [d.status, d.to, d.documentId])).toEqual([
        ['sent', ['second@buyer.example'], issued.id],
        ['sent', ['ap@buyer.example'], issued.id],
      ]);
      // Sending made the PDF, whose digest the invoice now records; nothing else changed.
      expectSame({ ...after, deliveries: [], pdfSha256: read.pdfSha256 }, read);
    });

    it('reads a credit note with its lines, messages and link exactly, as its create answered it', async () => {
      const c = await company();
      const issued = await c.post('/invoice', {
        organizationId: c.buyer.id,
        lines: LINES,
        issueDate: '2026-03-02',
        // A credit note states how it settles: the invoice's terms are its own.
        paymentTerms: 'Settled against invoice payments.',
      });
      // Twelve lines back (the whole invoice): the answer keeps their order and decimals.
      const created = await c.post('/credit-note', {
        invoiceId: issued.id,
        reason: 'Returned',
        issueDate: '2026-03-03',
      });
      const read = await c.getCreditNote(created.id);
      expectSame(read, created);
      expect(read).toMatchObject({ invoiceId: issued.id, deliveries: [], viewedAt: null });
      expect(read.hostedUrl).toMatch(/^https:\/\/pay\.example\.com\/hosted\/[A-Za-z0-9_-]{43}$/);
      expect(read.hostedUrl).not.toBe(issued.hostedUrl);
      expect((read.lines as Body[]).map((l) => [l.position, l.quantity, l.unitPrice])).toEqual(
        (issued.lines as Body[]).map((l) => [l.position, l.quantity, l.unitPrice]),
      );

      // Sent twice: the messages come newest first, each of this credit note.
      await c.post(`/credit-note/${created.id}/send`, {});
      await c.post(`/credit-note/${created.id}/send`, { to: ['second@buyer.example'] });
      await t.container.emailWorker!.drain();
      const after = await c.getCreditNote(created.id);
      const deliveries = after.deliveries as {
        status: string;
        to: string[];
        documentId: string;
        documentKind: string;
      }[];
      expect(deliveries.map((d) => [d.status, d.to, d.documentKind, d.documentId])).toEqual([
        ['sent', ['second@buyer.example'], 'credit-note', created.id],
        ['sent', ['ap@buyer.example'], 'credit-note', created.id],
      ]);
      expectSame({ ...after, deliveries: [], pdfSha256: read.pdfSha256 }, read);
    });

    it('reads a draft with its buyer as it is now, as its create answered it', async () => {
      const c = await company();
      const draft = await c.post('/invoice', { organizationId: c.buyer.id, lines: LINES.slice(0, 3), status: 'draft' });
      expectSame(await c.get(draft.id), draft);
    });
  });
}
