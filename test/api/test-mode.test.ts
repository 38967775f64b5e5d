import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { BASE_PATH } from '../../src/http/api-version.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { canInspectPdf, pdfText } from '../helpers/pdf-tools.js';
import { canValidate, validateAgainstXsd, XSD } from '../helpers/einvoice-files.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// Test mode: inv_test_ keys reach a sandbox of their company that shares nothing with its live
// data, and every answer says which world it comes from.

type Body = Record<string, unknown>;
const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`test mode on ${dialect}`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true, webhookRetryScheduleMs: [] });
    });
    afterAll(async () => t.close());
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });

    /** One company with a live and a test key holding every permission. */
    async function company() {
      const companyId = await t.createCompany(`Sandbox ${Math.random().toString(36).slice(2, 8)}`);
      const { PERMISSION_NAMES } = await import('../../src/auth/permissions.js');
      const live = (await t.createKey(companyId, PERMISSION_NAMES, { mode: 'live' })).key;
      const test = (await t.createKey(companyId, PERMISSION_NAMES, { mode: 'test' })).key;
      const as = (key: string) => ({
        send: (
          method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
          path: string,
          body?: Body,
          headers: Record<string, string> = {},
        ) =>
          t.request({
            method,
            url: `${BASE_PATH}${path}`,
            headers: { 'x-api-key': key, ...headers },
            ...(body ? { payload: body } : {}),
          }),
      });
      return { companyId, live: { key: live, ...as(live) }, test: { key: test, ...as(test) } };
    }

    const cli = async (...args: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli(args, {
        stdout: (s) => out.push(s),
        stderr: (s) => err.push(s),
        env: { DATABASE_URL: t.database.url },
      });
      return { code, stdout: out.join(''), stderr: err.join('') };
    };

    it('creates inv_test_ keys from the CLI, lists each key with its mode, and refuses another mode', async () => {
      const companyId = await t.createCompany('Cli Sandbox GmbH');
      const created = await cli(
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'CI',
        '--permissions',
        'organization.read',
        '--mode',
        'test',
        '--json',
      );
      expect(created.code).toBe(0);
      const key = JSON.parse(created.stdout);
      expect(key.key).toMatch(/^inv_test_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/);
      expect(key.mode).toBe('test');
      expect(
        JSON.parse(
          (
            await cli(
              'key',
              'create',
              '--company',
              companyId,
              '--name',
              'Prod',
              '--permissions',
              'organization.read',
              '--json',
            )
          ).stdout,
        ).key,
      ).toMatch(/^inv_live_/);
      const listed = await cli('key', 'list', '--company', companyId);
      expect(listed.stdout).toMatch(/MODE/);
      expect(listed.stdout).toMatch(/\btest\b/);
      expect(listed.stdout).toMatch(/\blive\b/);
      const refused = await cli(
        'key',
        'create',
        '--company',
        companyId,
        '--name',
        'X',
        '--permissions',
        'organization.read',
        '--mode',
        'staging',
      );
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--mode must be live or test');
    });

    it('says which world a key works in, and refuses a test key presented as a live one', async () => {
      const c = await company();
      expect((await c.test.send('GET', '/')).json().data).toMatchObject({ livemode: false });
      expect((await c.live.send('GET', '/')).json().data).toMatchObject({ livemode: true });
      const relabelled = c.test.key.replace('inv_test_', 'inv_live_');
      const res = await t.request({
        method: 'GET',
        url: `${BASE_PATH}/organization`,
        headers: { 'x-api-key': relabelled },
      });
      expect(res.statusCode).toBe(401);
    });

    it('keeps organizations apart: the same name in both worlds, 404 across them, lists that never mix', async () => {
      const c = await company();
      const live = (await c.live.send('POST', '/organization', { name: 'Twin GmbH', isCustomer: true })).json().data;
      const test = await c.test.send('POST', '/organization', { name: 'Twin GmbH', isCustomer: true });
      expect(test.statusCode).toBe(201);
      expect(live.livemode).toBe(true);
      expect(test.json().data.livemode).toBe(false);
      expect((await c.live.send('GET', `/organization/${test.json().data.id}`)).statusCode).toBe(404);
      expect((await c.test.send('GET', `/organization/${live.id}`)).statusCode).toBe(404);
      expect((await c.test.send('PATCH', `/organization/${live.id}`, { phone: '1' })).statusCode).toBe(404);
      expect((await c.live.send('GET', '/organization')).json().data.items.map((o: { id: string }) => o.id)).toEqual([
        live.id,
      ]);
      expect((await c.test.send('GET', '/organization')).json().data.items.map((o: { id: string }) => o.id)).toEqual([
        test.json().data.id,
      ]);
      expect((await c.test.send('POST', '/organization', { name: 'twin gmbh', isCustomer: true })).statusCode).toBe(
        409,
      );
    });

    it('numbers test invoices and credit notes TEST-… on counters of their own, never touching the live ones', async () => {
      const c = await company();
      const year = new Date().getUTCFullYear();
      const liveBuyer = (await c.live.send('POST', '/organization', { name: 'Live Buyer', isCustomer: true })).json()
        .data;
      const testBuyer = (await c.test.send('POST', '/organization', { name: 'Test Buyer', isCustomer: true })).json()
        .data;
      const tests = [];
      for (let i = 0; i < 3; i++)
        tests.push((await c.test.send('POST', '/invoice', { organizationId: testBuyer.id, lines: LINES })).json().data);
      expect(tests.map((i) => i.number)).toEqual([1, 2, 3].map((n) => `TEST-${year}-0000${n}`));
      expect(tests.every((i) => i.livemode === false)).toBe(true);
      const live = (await c.live.send('POST', '/invoice', { organizationId: liveBuyer.id, lines: LINES })).json().data;
      expect(live).toMatchObject({ number: `${year}-00001`, livemode: true });

      // A test key cannot invoice a live buyer, nor touch a live invoice, and the other way round.
      expect(
        (await c.test.send('POST', '/invoice', { organizationId: liveBuyer.id, lines: LINES })).json().error.code,
      ).toBe('ORGANIZATION_NOT_FOUND');
      expect((await c.test.send('GET', `/invoice/${live.id}`)).statusCode).toBe(404);
      expect((await c.live.send('POST', `/invoice/${tests[0].id}/payment`, { amount: '1' })).statusCode).toBe(404);
      expect(
        (await c.live.send('POST', '/credit-note', { invoiceId: tests[0].id, reason: 'x' })).json().error.code,
      ).toBe('INVOICE_NOT_FOUND');

      const paid = (await c.test.send('POST', `/invoice/${tests[0].id}/payment`, { amount: tests[0].amountDue })).json()
        .data;
      expect(paid.payments[0].livemode).toBe(false);
      const note = (await c.test.send('POST', '/credit-note', { invoiceId: tests[1].id, reason: 'Test credit' })).json()
        .data;
      expect(note).toMatchObject({ number: `TEST-CN-${year}-00001`, livemode: false });
      const liveNote = (await c.live.send('POST', '/credit-note', { invoiceId: live.id, reason: 'Live credit' })).json()
        .data;
      expect(liveNote.number).toBe(`CN-${year}-00001`);
      expect((await c.live.send('GET', '/credit-note')).json().data.items.map((n: { id: string }) => n.id)).toEqual([
        liveNote.id,
      ]);
      expect((await c.live.send('GET', '/invoice')).json().data.items.map((i: { id: string }) => i.id)).toEqual([
        live.id,
      ]);
    });

    it('keeps Idempotency-Keys apart: the same key with a live and a test key is two requests', async () => {
      const c = await company();
      const once = { 'idempotency-key': 'shared-key-1' };
      const live = await c.live.send('POST', '/organization', { name: 'Idem GmbH', isCustomer: true }, once);
      const test = await c.test.send('POST', '/organization', { name: 'Idem GmbH', isCustomer: true }, once);
      expect([live.statusCode, test.statusCode]).toEqual([201, 201]);
      expect(test.headers['idempotent-replayed']).toBeUndefined();
      expect(test.json().data.id).not.toBe(live.json().data.id);
      const differentBody = await c.test.send(
        'POST',
        '/organization',
        { name: 'Another GmbH', isCustomer: true },
        once,
      );
      expect(differentBody.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      const replay = await c.live.send('POST', '/organization', { name: 'Idem GmbH', isCustomer: true }, once);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json().data.id).toBe(live.json().data.id);
    });

    it('keeps events and webhook endpoints apart: each world delivers only its own events', async () => {
      const c = await company();
      const liveReceiver = await startReceiver();
      const testReceiver = await startReceiver();
      receivers.push(liveReceiver, testReceiver);
      const liveEndpoint = (
        await c.live.send('POST', '/webhook-endpoint', { url: liveReceiver.url, events: ['*'] })
      ).json().data;
      const testEndpoint = (
        await c.test.send('POST', '/webhook-endpoint', { url: testReceiver.url, events: ['*'] })
      ).json().data;
      expect([liveEndpoint.livemode, testEndpoint.livemode]).toEqual([true, false]);
      expect((await c.live.send('GET', `/webhook-endpoint/${testEndpoint.id}`)).statusCode).toBe(404);
      expect(
        (await c.test.send('GET', '/webhook-endpoint')).json().data.items.map((e: { id: string }) => e.id),
      ).toEqual([testEndpoint.id]);

      const liveOrg = (await c.live.send('POST', '/organization', { name: 'Evented Live', isCustomer: true })).json()
        .data;
      const testOrg = (await c.test.send('POST', '/organization', { name: 'Evented Test', isCustomer: true })).json()
        .data;
      await liveReceiver.waitFor((got) => got.length === 1);
      await testReceiver.waitFor((got) => got.length === 1);
      await t.container.deliveryWorker.drain();
      expect(liveReceiver.received.map((r) => JSON.parse(r.body).data.object.id)).toEqual([liveOrg.id]);
      expect(testReceiver.received.map((r) => JSON.parse(r.body))).toEqual([
        expect.objectContaining({ livemode: false, data: { object: testOrg } }),
      ]);

      const testEvents = (await c.test.send('GET', '/event')).json().data.items;
      expect(testEvents.map((e: { data: { object: { id: string } } }) => e.data.object.id)).toEqual([testOrg.id]);
      expect((await c.live.send('GET', `/event/${testEvents[0].id}`)).statusCode).toBe(404);
    });

    it('marks test documents: a TEST number and note in the e-invoice, a TEST mark on the PDF', async () => {
      const c = await company();
      const buyer = (
        await c.test.send('POST', '/organization', {
          name: 'Document Buyer',
          isCustomer: true,
          address: { city: 'Berlin', countryCode: 'DE' },
        })
      ).json().data;
      const invoice = (await c.test.send('POST', '/invoice', { organizationId: buyer.id, lines: LINES })).json().data;
      const cii = await c.test.send('GET', `/invoice/${invoice.id}/cii`);
      expect(cii.statusCode, cii.body).toBe(200);
      expect(cii.body).toContain(`<ram:ID>${invoice.number}</ram:ID>`);
      expect(cii.body).toContain('TEST DOCUMENT: made in test mode, not a valid invoice.');
      // The mark is in free text (BT-22) and the number (BT-1): the document stays schema-valid.
      if (canValidate)
        expect(validateAgainstXsd([{ name: 'test CII', xml: cii.body }], XSD.cii)[0]).toMatchObject({ valid: true });
      const pdf = await c.test.send('GET', `/invoice/${invoice.id}/pdf`);
      expect(pdf.statusCode).toBe(200);
      if (canInspectPdf) expect(pdfText(pdf.rawPayload)).toContain('TEST');
      const live = await company();
      const liveBuyer = (
        await live.live.send('POST', '/organization', {
          name: 'Document Buyer',
          isCustomer: true,
          address: { city: 'Berlin', countryCode: 'DE' },
        })
      ).json().data;
      const liveInvoice = (
        await live.live.send('POST', '/invoice', { organizationId: liveBuyer.id, lines: LINES })
      ).json().data;
      expect((await live.live.send('GET', `/invoice/${liveInvoice.id}/cii`)).body).not.toContain('TEST DOCUMENT');
    });

    it('resets test data from the CLI, test counters included, and leaves every live row as it was', async () => {
      const c = await company();
      const year = new Date().getUTCFullYear();
      const liveBuyer = (await c.live.send('POST', '/organization', { name: 'Kept Buyer', isCustomer: true })).json()
        .data;
      const liveInvoice = (await c.live.send('POST', '/invoice', { organizationId: liveBuyer.id, lines: LINES })).json()
        .data;
      await c.live.send('POST', `/invoice/${liveInvoice.id}/payment`, { amount: '10' });
      await c.live.send('POST', '/credit-note', {
        invoiceId: liveInvoice.id,
        reason: 'Kept',
        lines: [{ name: 'Consulting', quantity: '1', unitPrice: '10', vatRate: '19' }],
      });
      const testBuyer = (await c.test.send('POST', '/organization', { name: 'Gone Buyer', isCustomer: true })).json()
        .data;
      const testInvoice = (await c.test.send('POST', '/invoice', { organizationId: testBuyer.id, lines: LINES })).json()
        .data;
      await c.test.send('POST', `/invoice/${testInvoice.id}/payment`, { amount: '10' });
      await c.test.send('POST', '/credit-note', { invoiceId: testInvoice.id, reason: 'Gone' });
      await c.test.send(
        'POST',
        '/organization',
        { name: 'Replayed', isCustomer: true },
        { 'idempotency-key': 'reset-me' },
      );

      const db = t.storage.db;
      const liveRows = async () =>
        JSON.stringify(
          await Promise.all(
            (
              [
                'organizations',
                'invoices',
                'payments',
                'credit_notes',
                'events',
                'number_sequences',
                'idempotency_records',
              ] as const
            ).map((table) =>
              db
                .selectFrom(table)
                .selectAll()
                .where('company_id', '=', c.companyId)
                .where('livemode', '=', 1)
                .execute(),
            ),
          ),
        );
      const before = await liveRows();
      const reset = await cli('company', 'reset-test-data', c.companyId, '--json');
      expect(reset.code, reset.stderr).toBe(0);
      expect(JSON.parse(reset.stdout).deleted).toMatchObject({
        organizations: 2,
        invoices: 1,
        creditNotes: 1,
        payments: 1,
      });
      expect(await liveRows()).toBe(before);
      expect((await c.live.send('GET', `/invoice/${liveInvoice.id}`)).json().data).toMatchObject({
        number: liveInvoice.number,
        amountPaid: '10.00',
      });

      for (const table of [
        'organizations',
        'invoices',
        'payments',
        'credit_notes',
        'events',
        'number_sequences',
        'idempotency_records',
      ] as const) {
        expect(
          await db
            .selectFrom(table)
            .selectAll()
            .where('company_id', '=', c.companyId)
            .where('livemode', '=', 0)
            .execute(),
          table,
        ).toEqual([]);
      }
      expect((await c.test.send('GET', `/invoice/${testInvoice.id}`)).statusCode).toBe(404);
      // The test counters start again; the test key still works.
      const again = (await c.test.send('POST', '/organization', { name: 'Gone Buyer', isCustomer: true })).json().data;
      expect(
        (await c.test.send('POST', '/invoice', { organizationId: again.id, lines: LINES })).json().data.number,
      ).toBe(`TEST-${year}-00001`);
      expect((await cli('company', 'reset-test-data', 'cmp_unknown')).code).toBe(1);
    });
  });
}

describe('rate limits per mode', () => {
  it('counts a test key apart from the live key of the same company', async () => {
    const t = await buildTestApp('sqlite', { rateLimitMax: 3, rateLimitWindowMs: 60_000 });
    try {
      const companyId = await t.createCompany();
      const live = (await t.createKey(companyId, ['organization.read'], { mode: 'live' })).key;
      const test = (await t.createKey(companyId, ['organization.read'], { mode: 'test' })).key;
      const statuses = async (key: string) =>
        Promise.all(Array.from({ length: 4 }, () => t.get('/organization', key).then((r) => r.statusCode)));
      // Parallel answers arrive in any order: three pass and the fourth is refused, per key.
      expect((await statuses(test)).sort()).toEqual([200, 200, 200, 429]);
      expect((await statuses(live)).sort()).toEqual([200, 200, 200, 429]);
    } finally {
      await t.close();
    }
  });
});
