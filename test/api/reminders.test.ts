import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { runCli } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';
import { claimInstance } from '../helpers/panel-client.js';
import {
  filenameOf,
  makeTestCertificate,
  parseMessage,
  startSmtpServer,
  type TestCertificate,
  type TestSmtpServer,
} from '../helpers/smtp-server.js';

// Reminders (dunning) through the very app the server runs: a pass for a given day queues
// exactly the reminders due, once, whoever runs it and however often; payment, credit, void and a
// pause stop them; overdue is told once; after downtime only the latest level is sent; and the
// messages reach a real SMTP server with the open balance and the invoice attached.

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
};

// 3 × 80 + 19 % VAT = 285.60
const LINES = [{ name: 'Consulting', quantity: '3', unitCode: 'HUR', unitPrice: '80', vatRate: '19' }];
const DUE = '2026-01-31';

let certificate: TestCertificate;
beforeAll(() => {
  certificate = makeTestCertificate();
});
afterAll(() => certificate.remove());

for (const dialect of DIALECTS) {
  describe(`reminders on ${dialect}`, () => {
    let t: TestApp;
    let smtp: TestSmtpServer;
    let env: Record<string, string>;

    beforeAll(async () => {
      smtp = await startSmtpServer(certificate);
      env = {
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        SMTP_FROM: 'invoices@sender.example',
        SMTP_TLS_CA_FILE: certificate.certFile,
        EMAIL_RETRY_SCHEDULE_MS: '50,50',
      };
      t = await buildTestApp(dialect, { email: loadConfig(env).email! });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    async function seller() {
      const { key, companyId } = await t.tenant(ALL_PERMISSIONS);
      const send = async (method: InjectOptions['method'], path: string, body?: Json, as = key) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': as },
          ...(body ? { payload: body } : {}),
        });
      expect((await send('PATCH', '/company', SELLER)).statusCode).toBe(200);
      const buyer = (await send('POST', '/organization', BUYER)).json().data as Json;
      const issue = async (body: Json = {}) => {
        const res = await send('POST', '/invoice', {
          organizationId: buyer.id,
          buyerReference: '04011000-12345-34',
          issueDate: '2026-01-02',
          dueDate: DUE,
          lines: LINES,
          ...body,
        });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as Json & { id: string; number: string };
      };
      const reminders = async (id: string) => (await send('GET', `/invoice/${id}`)).json().data.reminders as Json[];
      const events = async (type: string) =>
        ((await send('GET', `/event?type=${type}`)).json().data.items as { data: { object: Json } }[]).map(
          (e) => e.data.object,
        );
      return { key, companyId, send, issue, reminders, events };
    }

    const pass = (asOf: string) => t.container.reminderScheduler.run(asOf, new Date(`${asOf}T08:00:00Z`));
    const mine = (result: Awaited<ReturnType<typeof pass>>, id: string) => ({
      sent: result.sent.filter((r) => r.invoiceId === id).map((r) => r.days),
      skipped: result.skipped.filter((r) => r.invoiceId === id).map((r) => r.days),
      overdue: result.overdue.filter((r) => r.invoiceId === id).length,
    });

    it('answers the default policy until the company sets one, and checks a change as a whole', async () => {
      const s = await seller();
      const read = (await s.send('GET', '/company/reminder-policy')).json().data;
      expect(read).toMatchObject({ enabled: true, custom: false, updatedAt: null });
      expect(read.levels.map((l: Json) => l.days)).toEqual([-3, 0, 7, 14]);
      expect(read.levels.map((l: Json) => l.templateKind)).toEqual([
        'reminder-1',
        'reminder-2',
        'reminder-3',
        'reminder-4',
      ]);

      const refused = await s.send('PUT', '/company/reminder-policy', {
        enabled: true,
        levels: [
          { days: 0, fee: '5.00' },
          { days: 7, fee: '30.00', interestRatePercent: '25' },
          { days: 7 },
          { days: 14, fee: '15.00' },
        ],
      });
      expect(refused.statusCode).toBe(400);
      expect(
        (refused.json().error.details as Json[]).map((d) => `${String(d.field)}:${String(d.code)}`).sort(),
      ).toEqual([
        'levels:too_large',
        'levels[0].fee:not_overdue',
        'levels[1].interestRatePercent:too_large',
        'levels[2].days:duplicate',
      ]);

      const policy = { enabled: true, levels: [{ days: 10, fee: '40.00', interestRatePercent: '11.27' }, { days: 0 }] };
      const put = await s.send('PUT', '/company/reminder-policy', policy);
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data.levels).toEqual([
        { level: 1, days: 0, fee: null, interestRatePercent: null, templateKind: 'reminder-1' },
        { level: 2, days: 10, fee: '40', interestRatePercent: '11.27', templateKind: 'reminder-2' },
      ]);
      const again = await s.send('PUT', '/company/reminder-policy', policy);
      expect(again.json().data.updatedAt, 'the same policy again changes nothing').toBe(put.json().data.updatedAt);
      const audit = await t.container.repositories.companies.profileEvents(s.companyId, 10);
      expect(audit.filter((e) => e.changes.includes('reminderPolicy'))).toHaveLength(1);

      const { key: testKey } = await t.createKey(s.companyId, ALL_PERMISSIONS, { mode: 'test' });
      expect((await s.send('PUT', '/company/reminder-policy', policy, testKey)).statusCode).toBe(403);
    });

    it('sends exactly the reminders due on each day, once, and marks the invoice overdue once', async () => {
      const s = await seller();
      const invoice = await s.issue();
      expect(mine(await pass('2026-01-27'), invoice.id)).toEqual({ sent: [], skipped: [], overdue: 0 });
      expect(mine(await pass('2026-01-28'), invoice.id)).toEqual({ sent: [-3], skipped: [], overdue: 0 });
      expect(mine(await pass('2026-01-28'), invoice.id), 'a second pass of the day').toEqual({
        sent: [],
        skipped: [],
        overdue: 0,
      });
      expect(mine(await pass('2026-01-31'), invoice.id)).toEqual({ sent: [0], skipped: [], overdue: 0 });
      expect(mine(await pass('2026-02-01'), invoice.id)).toEqual({ sent: [], skipped: [], overdue: 1 });
      expect(mine(await pass('2026-02-02'), invoice.id)).toEqual({ sent: [], skipped: [], overdue: 0 });
      expect(mine(await pass('2026-02-07'), invoice.id)).toEqual({ sent: [7], skipped: [], overdue: 0 });

      const reminders = await s.reminders(invoice.id);
      expect(reminders.map((r) => [r.days, r.status, r.openBalance])).toEqual([
        [7, 'sent', '285.60'],
        [0, 'sent', '285.60'],
        [-3, 'sent', '285.60'],
      ]);
      const sent = await s.events('invoice.reminder_sent');
      expect(sent.map((r) => r.days).sort()).toEqual([-3, 0, 7]);
      const overdue = await s.events('invoice.overdue');
      expect(overdue.map((o) => o.id)).toEqual([invoice.id]);
      const listed = (await s.send('GET', '/invoice')).json().data.items as Json[];
      expect(listed[0]).not.toHaveProperty('reminders');
    });

    it('after downtime sends only the latest level come due and records the ones passed over', async () => {
      const s = await seller();
      const invoice = await s.issue();
      expect(mine(await pass('2026-02-20'), invoice.id)).toEqual({ sent: [14], skipped: [-3, 0, 7], overdue: 1 });
      const reminders = await s.reminders(invoice.id);
      expect(reminders.map((r) => [r.days, r.status, r.skipReason])).toEqual([
        [14, 'sent', null],
        [7, 'skipped', 'superseded'],
        [0, 'skipped', 'superseded'],
        [-3, 'skipped', 'superseded'],
      ]);
      expect(mine(await pass('2026-03-20'), invoice.id)).toEqual({ sent: [], skipped: [], overdue: 0 });
    });

    it('sends each level once when two passes run at the same time', async () => {
      const s = await seller();
      const invoices = await Promise.all([s.issue(), s.issue(), s.issue(), s.issue()]);
      const [a, b] = await Promise.all([pass('2026-02-08'), pass('2026-02-08')]);
      for (const invoice of invoices) {
        const sent = [...mine(a, invoice.id).sent, ...mine(b, invoice.id).sent];
        expect(sent, `invoice ${invoice.number}`).toEqual([7]);
        expect(mine(a, invoice.id).overdue + mine(b, invoice.id).overdue).toBe(1);
        const rows = await s.reminders(invoice.id);
        expect(rows.filter((r) => r.status === 'sent')).toHaveLength(1);
      }
      const queued = (await s.events('invoice.reminder_sent')).filter((r) =>
        invoices.some((i) => i.id === r.invoiceId),
      );
      expect(queued).toHaveLength(invoices.length);
    });

    it('stops at payment in full, a full credit note, a void and a pause (dispute), and goes on when resumed', async () => {
      const s = await seller();
      const paid = await s.issue();
      const credited = await s.issue();
      const voided = await s.issue();
      const disputed = await s.issue();
      expect((await s.send('POST', `/invoice/${paid.id}/payment`, { amount: '285.60' })).statusCode).toBe(201);
      const credit = await s.send('POST', '/credit-note', { invoiceId: credited.id, reason: 'Returned' });
      expect(credit.statusCode, credit.body).toBe(201);
      expect((await s.send('POST', `/invoice/${voided.id}/void`, {})).statusCode).toBe(200);
      const paused = await s.send('POST', `/invoice/${disputed.id}/reminders/pause`, {
        reason: 'dispute',
        note: 'Buyer says the hours are wrong',
      });
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json().data).toMatchObject({ paused: true, pauseReason: 'dispute', reminders: [] });

      const result = await pass('2026-02-08');
      for (const invoice of [paid, credited, voided])
        expect(mine(result, invoice.id), `invoice ${invoice.number}`).toEqual({ sent: [], skipped: [], overdue: 0 });
      expect(mine(result, disputed.id), 'paused: overdue all the same, no reminder').toEqual({
        sent: [],
        skipped: [],
        overdue: 1,
      });

      const resumed = await s.send('POST', `/invoice/${disputed.id}/reminders/resume`);
      expect(resumed.json().data).toMatchObject({ paused: false, pauseReason: null });
      expect(mine(await pass('2026-02-08'), disputed.id)).toEqual({ sent: [7], skipped: [-3, 0], overdue: 0 });

      const draft = (
        await s.send('POST', '/invoice', { organizationId: paid.organizationId, lines: LINES, status: 'draft' })
      ).json().data as Json;
      expect((await s.send('POST', `/invoice/${String(draft.id)}/reminders/pause`, {})).statusCode).toBe(409);
      expect((await s.send('POST', '/invoice/inv_nope/reminders/pause', {})).statusCode).toBe(404);
    });

    it('delivers the reminder to the SMTP server with the open balance, the fee apart, and the invoice attached', async () => {
      const s = await seller();
      await s.send('PUT', '/company/reminder-policy', {
        enabled: true,
        levels: [{ days: 7, fee: '5.00', interestRatePercent: '9.125' }],
      });
      const invoice = await s.issue();
      expect((await s.send('POST', `/invoice/${invoice.id}/payment`, { amount: '85.60' })).statusCode).toBe(201);
      expect(mine(await pass('2026-02-07'), invoice.id).sent).toEqual([7]);
      const [reminder] = await s.reminders(invoice.id);
      // 200.00 × 9.125 % × 7 / 365 = 0.35
      expect(reminder).toMatchObject({
        openBalance: '200.00',
        fee: '5.00',
        interestRatePercent: '9.125',
        interest: '0.35',
      });
      const delivery = await eventually(
        async () => {
          const found = ((await s.send('GET', `/invoice/${invoice.id}`)).json().data.deliveries as Json[]).find(
            (d) => d.id === reminder!.emailDeliveryId,
          );
          return found?.status === 'sent' ? found : false;
        },
        { timeoutMs: 20_000, what: 'the reminder to be sent' },
      );
      const mail = smtp.received.find((m) => parseMessage(m.raw).headers['message-id'] === delivery.messageId);
      expect(mail?.to).toEqual(['ap@buyer.example']);
      const message = parseMessage(mail!.raw);
      expect(delivery.subject).toBe(
        `Zahlungserinnerung 1: Rechnung ${invoice.number} von Seller Software GmbH ist überfällig`,
      );
      const text = message.parts.find((part) => filenameOf(part) === null)!.body.toString('utf8');
      expect(text).toContain('Offener Betrag: 200.00 EUR');
      expect(text).toContain('Mahngebühr (nicht Teil der Rechnung): 5.00 EUR');
      expect(text).toContain('Verzugszinsen, 9.125 % p. a. für 7 Tage (nicht Teil der Rechnung): 0.35 EUR');
      expect(text).toContain('Insgesamt jetzt fällig: 205.35 EUR');
      const files = message.parts.filter((part) => filenameOf(part) !== null);
      expect(files.map(filenameOf)).toEqual([`invoice-${invoice.number}.pdf`, `invoice-${invoice.number}-cii.xml`]);
      expect(files[1]!.body.equals((await s.send('GET', `/invoice/${invoice.id}/cii`)).rawPayload)).toBe(true);
      const after = (await s.send('GET', `/invoice/${invoice.id}`)).json().data;
      expect(after.amountDue, 'the reminder never changes the invoice').toBe('200.00');
      expect(await s.events('invoice.sent'), 'a reminder is not an invoice.sent').toEqual([]);
    });

    it("shows the panel's invoice page with the reminders sent and skipped", async () => {
      const { owner, companyId } = await claimInstance(t.app);
      const { key } = await t.createKey(companyId, ALL_PERMISSIONS);
      const send = (method: InjectOptions['method'], path: string, body: Json) =>
        t.request({ method, url: `${BASE_PATH}${path}`, headers: { 'x-api-key': key }, payload: body });
      expect((await send('PATCH', '/company', SELLER)).statusCode).toBe(200);
      const buyer = (await send('POST', '/organization', BUYER)).json().data as Json;
      const invoice = (
        await send('POST', '/invoice', {
          organizationId: buyer.id,
          buyerReference: '04011000-12345-34',
          issueDate: '2026-01-02',
          dueDate: DUE,
          lines: LINES,
        })
      ).json().data as { id: string };
      expect(mine(await pass('2026-02-08'), invoice.id).sent).toEqual([7]);
      const page = await owner.get(`/panel/invoices/${invoice.id}`);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<h2 id="reminders">Reminders</h2>');
      expect(page.body).toContain('3 (+7 days)</td><td>sent</td>');
      expect(page.body).toContain('skipped (superseded)');
    });

    it('runs one pass for a given day from the CLI and prints what it did', async () => {
      const s = await seller();
      const invoice = await s.issue();
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(['reminders', 'run', '--as-of', '2026-01-31', '--json'], {
        stdout: (text) => out.push(text),
        stderr: (text) => err.push(text),
        env: { DATABASE_URL: t.database.url, ...env },
      });
      expect(code, err.join('')).toBe(0);
      const result = JSON.parse(out.join('')) as { asOf: string; sent: Json[]; skipped: Json[] };
      expect(result.asOf).toBe('2026-01-31');
      expect(result.sent.filter((r) => r.invoiceId === invoice.id).map((r) => r.days)).toEqual([0]);
      expect(result.skipped.filter((r) => r.invoiceId === invoice.id).map((r) => r.days)).toEqual([-3]);
      const usage: string[] = [];
      expect(
        await runCli(['reminders', 'run', '--as-of', '31.01.2026'], {
          stdout: () => {},
          stderr: (text) => usage.push(text),
          env: { DATABASE_URL: t.database.url },
        }),
      ).toBe(2);
      expect(usage.join('')).toContain('--as-of must be a date YYYY-MM-DD');
    });
  });
}
