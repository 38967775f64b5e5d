import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';

// Two processes run the same day's reminder pass at the same moment (`invoicing reminders run`,
// the package's bin): every level due is claimed by one of them, so each invoice gets exactly one
// queued reminder and one overdue event, whichever process wrote it.

const exec = promisify(execFile);
const BIN = join(import.meta.dirname, '../../bin/invoicing.js');
const INVOICES = 12;

interface PassOutput {
  sent: { invoiceId: string; days: number }[];
  overdue: { invoiceId: string }[];
  failed: number;
}

for (const dialect of DIALECTS) {
  describe(`two reminder passes at once on ${dialect}`, () => {
    let db: TestDatabase;
    let t: TestApp;
    const ids: string[] = [];

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      t = await buildTestApp(dialect, {}, { database: db });
      const { key } = await t.tenant();
      const buyer = await t.post(
        '/organization',
        {
          name: 'Käufer AG',
          isCustomer: true,
          email: 'ap@buyer.example',
          address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
        },
        key,
      );
      expect(buyer.statusCode, buyer.body).toBe(201);
      for (let i = 0; i < INVOICES; i += 1) {
        const created = await t.post(
          '/invoice',
          {
            organizationId: buyer.json().data.id,
            issueDate: '2026-01-02',
            dueDate: '2026-01-31',
            lines: [{ name: 'Consulting', quantity: '1', unitCode: 'HUR', unitPrice: '100', vatRate: '19' }],
          },
          key,
        );
        expect(created.statusCode, created.body).toBe(201);
        ids.push(created.json().data.id as string);
      }
    });
    afterAll(async () => {
      await t?.close();
      await db?.drop();
    });

    it('queues each invoice one reminder and one overdue event, whichever process takes it', async () => {
      const env = {
        ...process.env,
        DATABASE_URL: db.url,
        SMTP_FROM: 'invoices@service.example',
        SMTP_URL: '',
      };
      const run = () =>
        exec(process.execPath, [BIN, 'reminders', 'run', '--as-of', '2026-02-08', '--json'], { env }).then(
          ({ stdout }) => JSON.parse(stdout) as PassOutput,
        );
      const [a, b] = await Promise.all([run(), run()]);
      expect(a.failed + b.failed).toBe(0);
      for (const id of ids) {
        const sent = [...a.sent, ...b.sent].filter((r) => r.invoiceId === id);
        expect(
          sent.map((r) => r.days),
          id,
        ).toEqual([7]);
        expect([...a.overdue, ...b.overdue].filter((r) => r.invoiceId === id)).toHaveLength(1);
      }
      const rows = await t.storage.db
        .selectFrom('invoice_reminders')
        .select(['invoice_id', 'status'])
        .where('status', '=', 'sent')
        .execute();
      expect(rows).toHaveLength(INVOICES);
      const messages = await t.storage.db
        .selectFrom('email_deliveries')
        .select('document_id')
        .where('purpose', '=', 'reminder')
        .execute();
      expect(messages.map((m) => m.document_id).sort()).toEqual([...ids].sort());
      const events = await t.storage.db
        .selectFrom('events')
        .select('type')
        .where('type', 'in', ['invoice.reminder_sent', 'invoice.overdue'])
        .execute();
      expect(events).toHaveLength(2 * INVOICES);
    });
  });
}
