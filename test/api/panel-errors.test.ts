import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, sqlitePathOf } from '../../src/db/database.js';
import { ERRORS } from '../../src/errors/codes.js';
import { keyInputProblems, MAX_KEY_NAME_LENGTH } from '../../src/services/api-key-service.js';
import { MAX_ENDPOINTS } from '../../src/webhooks/endpoint-service.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';
import { addEndpoint } from '../helpers/panel-webhooks.js';
import { TcpProxy } from '../helpers/servers.js';
import { claimInstance, PanelClient, signedInAs } from '../helpers/panel-client.js';

// The panel answers refusals through the API's error model: an AppError's code gives the status
// (one table, errors/codes.ts), a database outage is a 503 page with the API's Retry-After and no
// driver text, and a form shows the service's own words for the rules the service keeps.

const BUSY_TIMEOUT_MS = 300;

/** What leaks when an error is shown raw: driver and SQL text, addresses, a stack. */
const LEAKS =
  /SQLITE|ECONNREFUSED|Connection terminated|timeout exceeded|database is locked|127\.0\.0\.1|\bselect\b.+\bfrom\b|\binsert into\b|\bat \S+:\d+:\d+/i;

/** The error's own part of a page (the layout around it is the same on every page). */
function articleOf(body: string): string {
  return /<article[^>]*>([\s\S]*)<\/article>/.exec(body)?.[1] ?? body;
}

interface Outage {
  start(): Promise<void>;
  end(): Promise<void>;
}

/** The database goes away for real: PostgreSQL behind a TCP proxy that is cut; SQLite held by another connection's write lock. */
async function outageFor(
  database: TestDatabase,
): Promise<{ database: TestDatabase; outage: Outage; close(): Promise<void> }> {
  if (database.dialect === 'sqlite') {
    let holder: DatabaseSync | undefined;
    return {
      database,
      outage: {
        start: async () => {
          holder = new DatabaseSync(sqlitePathOf(database.url));
          holder.exec('begin exclusive');
        },
        end: async () => {
          holder?.exec('rollback');
          holder?.close();
          holder = undefined;
        },
      },
      close: async () => {},
    };
  }
  const target = new URL(database.url);
  const proxy = await TcpProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(database.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  return {
    database: { ...database, open: () => openStorage(proxied.toString(), { poolMax: 5 }) },
    outage: { start: () => proxy.cut(), end: () => proxy.restore() },
    close: () => proxy.close(),
  };
}

for (const dialect of DIALECTS) {
  describe(`panel errors through the API's error table on ${dialect}`, () => {
    let t: TestApp;
    let database: TestDatabase;
    let outage: Outage;
    let closeOutage: () => Promise<void>;
    let owner: PanelClient;
    let companyId: string;
    let key: string;
    const ids: Record<string, string> = {};

    beforeAll(async () => {
      database = await createTestDatabase(dialect);
      const prepared = await outageFor(database);
      outage = prepared.outage;
      closeOutage = prepared.close;
      t = await buildTestApp(
        dialect,
        { databaseBusyTimeoutMs: BUSY_TIMEOUT_MS, webhookAllowPrivateUrls: true },
        { database: prepared.database },
      );
      ({ owner, companyId } = await claimInstance(t.app));
      ({ key } = await t.createKey(companyId, ['organization.create', 'invoice.create', 'invoice.read']));
      const buyer = await t.post(
        '/organization',
        {
          name: 'Buyer AG',
          isCustomer: true,
          address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
        },
        key,
      );
      expect(buyer.statusCode, buyer.body).toBe(201);
      const lines = [{ name: 'Consulting', quantity: '3', unitPrice: '80', vatRate: '19' }];
      const draft = await t.post('/invoice', { organizationId: buyer.json().data.id, status: 'draft', lines }, key);
      expect(draft.statusCode, draft.body).toBe(201);
      ids.draft = draft.json().data.id;
      // No buyer reference: XRechnung refuses it as an incomplete e-invoice (BR-DE-15).
      const issued = await t.post('/invoice', { organizationId: buyer.json().data.id, lines }, key);
      expect(issued.statusCode, issued.body).toBe(201);
      ids.issued = issued.json().data.id;
    });
    afterAll(async () => {
      await outage.end();
      await t.close();
      await closeOutage();
      await database.drop();
    });

    function expectPage(
      res: { statusCode: number; headers: Record<string, unknown>; body: string },
      status: number,
      title: string,
    ): void {
      expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain(`<h1>${title}</h1>`);
      expect(res.body).toContain(`Error ${status}`);
      expect(articleOf(res.body)).not.toMatch(LEAKS);
    }

    it('renders NOT_FOUND as a 404 page, for another id and for a path the panel does not have', async () => {
      expectPage(
        await owner.get('/panel/invoices/inv_0000000000000000000000000'),
        ERRORS.NOT_FOUND.status,
        'Not found',
      );
      expectPage(await owner.get('/panel/no-such-page'), ERRORS.NOT_FOUND.status, 'Not found');
    });

    it("renders a form the route's schema refuses as a VALIDATION_ERROR page that lists each field's detail", async () => {
      await owner.get('/panel/keys');
      const res = await owner.post('/panel/keys', { name: 'k'.repeat(1001), permissions: 'invoice.read' });
      expectPage(res, ERRORS.VALIDATION_ERROR.status, 'The form was not understood');
      expect(articleOf(res.body)).toMatch(
        /<li><strong><code>name<\/code><\/strong>: Must NOT have more than 1000 characters\.<\/li>/,
      );
    });

    it('renders FORBIDDEN as a 403 page when a member sends a form only owners and admins may', async () => {
      const member = await signedInAs(t.app, companyId, `member-${dialect}@example.com`, 'member');
      await member.get('/panel/keys');
      const res = await member.post('/panel/keys', { name: 'Not mine to make', permissions: 'invoice.read' });
      expectPage(res, ERRORS.FORBIDDEN.status, 'Not allowed');
      expect(res.body).toContain('Your role does not allow this.');
    });

    it('renders INVOICE_NOT_ISSUED as a 409 page for a draft e-invoice, as the API answers it', async () => {
      const api = await t.get(`/invoice/${ids.draft}/ubl`, key);
      expect(api.json().error.code).toBe('INVOICE_NOT_ISSUED');
      const res = await owner.get(`/panel/invoices/${ids.draft}/ubl`);
      expect(res.statusCode).toBe(api.statusCode);
      expectPage(res, ERRORS.INVOICE_NOT_ISSUED.status, 'A draft has no e-invoice');
    });

    it('renders EINVOICE_INCOMPLETE as a 422 page naming each missing field, as the API answers it', async () => {
      const api = await t.get(`/invoice/${ids.issued}/ubl?profile=xrechnung`, key);
      expect(api.json().error.code).toBe('EINVOICE_INCOMPLETE');
      const res = await owner.get(`/panel/invoices/${ids.issued}/ubl?profile=xrechnung`);
      expect(res.statusCode).toBe(api.statusCode);
      expect(res.statusCode).toBe(ERRORS.EINVOICE_INCOMPLETE.status);
      expect(res.body).toContain(`Error ${ERRORS.EINVOICE_INCOMPLETE.status} · EINVOICE_INCOMPLETE`);
      for (const detail of api.json().error.details as { field: string }[])
        expect(res.body).toContain(`<code>${detail.field}</code>`);
    });

    it('answers the webhook endpoint limit with the status and words the error table gives WEBHOOK_ENDPOINT_LIMIT', async () => {
      for (let i = 0; i < MAX_ENDPOINTS; i++) await addEndpoint(owner, { url: `http://127.0.0.1:9/hook-${i}` });
      await owner.get('/panel/webhooks');
      const res = await owner.post('/panel/webhooks', { url: 'http://127.0.0.1:9/one-too-many', events: '*' });
      expect(res.statusCode).toBe(ERRORS.WEBHOOK_ENDPOINT_LIMIT.status);
      expect(res.body).toContain(ERRORS.WEBHOOK_ENDPOINT_LIMIT.message);
    });

    it("shows the key service's own words next to the fields of the key forms", async () => {
      await owner.get('/panel/keys');
      const create = await owner.post('/panel/keys', { name: ' ', expiresOn: '2001-01-01' });
      expect(create.statusCode).toBe(ERRORS.VALIDATION_ERROR.status);
      const refusal = keyInputProblems({ name: ' ', permissions: [], expiresAt: '2001-01-01T00:00:00.000Z' });
      expect(refusal?.details?.map((d) => d.field)).toEqual(['name', 'permissions', 'expiresAt']);
      for (const detail of refusal!.details!) {
        const field = detail.field === 'expiresAt' ? 'expiresOn' : detail.field;
        expect(create.body).toContain(`<small id="${field}-error" class="field-error">${detail.message}</small>`);
      }

      const keys = await t.container.apiKeys.list(companyId);
      await owner.get(`/panel/keys/${keys[0]!.id}/rename`);
      const long = await owner.post(`/panel/keys/${keys[0]!.id}/rename`, { name: 'k'.repeat(MAX_KEY_NAME_LENGTH + 1) });
      expect(long.statusCode).toBe(400);
      const [lengthProblem] = keyInputProblems({
        name: 'k'.repeat(MAX_KEY_NAME_LENGTH + 1),
        permissions: ['invoice.read'],
        expiresAt: null,
      })!.details!;
      expect(long.body).toContain(`<small id="name-error" class="field-error">${lengthProblem!.message}</small>`);
      expect(long.body).toContain(`maxlength="${MAX_KEY_NAME_LENGTH}"`);
    });

    it("answers a form sent while the database is out with a 503 page: a plain message and the API's Retry-After", async () => {
      await owner.get('/panel/keys');
      await outage.start();
      try {
        const api = await t.post('/organization', { name: 'During the outage', isCustomer: true }, key);
        expect(api.statusCode).toBe(503);
        expect(api.json().error.code).toBe('SERVICE_UNAVAILABLE');
        const res = await owner.post('/panel/keys', { name: 'During the outage', permissions: 'invoice.read' });
        expectPage(res, ERRORS.SERVICE_UNAVAILABLE.status, 'Temporarily unavailable');
        expect(res.body).toContain('The database cannot be reached right now. Try again shortly.');
        expect(res.headers['retry-after']).toBe(api.headers['retry-after']);
      } finally {
        await outage.end();
      }
    });
  });
}
