import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { PanelClient } from '../helpers/panel-client.js';

// Random and mutated requests against every route: whatever arrives, the answer is a well-formed
// envelope with a 2xx or 4xx status, never a 5xx, and its request id matches the header.

const CLIENT_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const validOrganization = {
  name: 'Fuzz Org',
  typeCode: 'F',
  firstName: 'A',
  lastName: 'B',
  isCustomer: true,
  email: 'a@b.example',
  address: { city: 'Berlin', countryCode: 'DE' },
};
const validInvoiceLines = [{ name: 'Item', quantity: '2', unitPrice: '10.00', vatRate: '19' }];

function mutate(base: Record<string, unknown>) {
  return fc.oneof(
    fc
      .record({
        key: fc.constantFrom(...Object.keys(base), 'extra', '__proto__', 'constructor'),
        value: fc.jsonValue(),
      })
      .map(({ key, value }) => {
        const copy: Record<string, unknown> = JSON.parse(JSON.stringify(base));
        copy[key] = value;
        return copy;
      }),
    fc.constantFrom(...Object.keys(base)).map((key) => {
      const copy: Record<string, unknown> = JSON.parse(JSON.stringify(base));
      delete copy[key];
      return copy;
    }),
  );
}

for (const dialect of DIALECTS) {
  describe(`fuzzing every route on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let organizationId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { rateLimitMax: 1_000_000, authFailureLimit: 1_000_000 });
      ({ key } = await t.tenant(
        t.app.registeredRoutes.flatMap((r) => (r.access?.kind === 'key' ? [r.access.permission] : [])),
      ));
      organizationId = (await t.post('/organization', { name: 'Fuzz Buyer', isCustomer: true }, key)).json().data.id;
    });
    afterAll(async () => t.close());

    it('answers text holding a NUL character with a 4xx on the API and the panel, never a 5xx', async () => {
      const nul = 'a\u0000b';
      const organization = await t.post('/organization', { name: nul, isCustomer: true }, key);
      expect(organization.statusCode).toBe(400);
      expect(organization.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [expect.objectContaining({ field: 'name' })],
      });
      const invoice = await t.post(
        '/invoice',
        { organizationId, buyerReference: nul, lines: [{ ...validInvoiceLines[0], name: nul }] },
        key,
      );
      expect(invoice.statusCode).toBe(400);
      expect(
        invoice
          .json()
          .error.details.map((d: { field: string }) => d.field)
          .sort(),
      ).toEqual(['buyerReference', 'lines[0].name']);
      expect((await t.get('/organization/a%00b', key)).json().error.code).toBe('NOT_FOUND');
      expect((await t.get('/invoice/a%00b', key)).statusCode).toBe(404);
      for (const query of ['/organization?name=a%00b', '/invoice?number=a%00b', '/invoice?organizationId=a%00b']) {
        const res = await t.get(query, key);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
      const browser = new PanelClient(t.app);
      await browser.get('/panel/sign-in');
      expect(
        (await browser.post('/panel/sign-in', { email: `${nul}@example.com`, password: 'whatever123' })).statusCode,
      ).toBe(400);
    });

    it('answers every random request with a well-formed envelope, a 2xx or 4xx, and a matching request id', async () => {
      const paths = [...new Set(t.app.registeredRoutes.map((r) => r.url.replace(/:[A-Za-z]+/g, 'x')))];
      const bodies = fc.oneof(
        fc.jsonValue().map((v) => JSON.stringify(v)),
        mutate(validOrganization).map((v) => JSON.stringify(v)),
        mutate({ organizationId, lines: validInvoiceLines }).map((v) => JSON.stringify(v)),
        fc
          .record({
            organizationId: fc.constant(organizationId),
            lines: fc.array(
              fc.record({
                name: fc.string(),
                quantity: fc.jsonValue(),
                unitPrice: fc.jsonValue(),
                vatRate: fc.jsonValue(),
              }),
              { maxLength: 3 },
            ),
          })
          .map((v) => JSON.stringify(v)),
        fc.string({ maxLength: 200 }),
      );
      const requests = fc.record({
        method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
        path: fc.oneof(
          fc.constantFrom(...paths),
          fc.constantFrom(...paths).chain((p) => fc.webSegment().map((s) => `${p}/${s}`)),
          fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
        ),
        query: fc.option(fc.webQueryParameters(), { nil: undefined }),
        requestId: fc.option(fc.oneof(fc.string({ maxLength: 140 }), fc.stringMatching(CLIENT_ID)), { nil: undefined }),
        keyChoice: fc.constantFrom('valid', 'bearer', 'garbage', 'none'),
        garbageKey: fc.string({ maxLength: 80 }),
        contentType: fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/xml',
          undefined,
        ),
        body: fc.option(bodies, { nil: undefined }),
      });

      await fc.assert(
        fc.asyncProperty(requests, async (r) => {
          const headers: Record<string, string> = {};
          if (r.requestId !== undefined && /^[\x20-\x7e]*$/.test(r.requestId)) headers['x-request-id'] = r.requestId;
          if (r.keyChoice === 'valid') headers['x-api-key'] = key;
          if (r.keyChoice === 'bearer') headers.authorization = `Bearer ${key}`;
          if (r.keyChoice === 'garbage' && /^[\x21-\x7e]*$/.test(r.garbageKey)) headers['x-api-key'] = r.garbageKey;
          if (r.contentType) headers['content-type'] = r.contentType;
          const options: InjectOptions = {
            method: r.method as InjectOptions['method'],
            url: `${r.path}${r.query ? `?${r.query}` : ''}`,
            headers,
            ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { payload: r.body } : {}),
          };
          const res = await t.request(options);
          expect(res.statusCode, `${r.method} ${options.url}`).toBeLessThan(500);
          const requestId = res.headers['x-request-id'];
          expect(requestId).toEqual(expect.any(String));
          if (headers['x-request-id'] !== undefined && CLIENT_ID.test(headers['x-request-id']))
            expect(requestId).toBe(headers['x-request-id']);
          if (r.method === 'HEAD' || !String(res.headers['content-type'] ?? '').includes('application/json')) return;
          // Outside the public API (docs, metrics, panel) and for the OpenAPI document itself, a
          // success is not an envelope; every error answered as JSON still is.
          const pathname = String(options.url).split('?')[0]!.replace(/\/+$/, '');
          const enveloped = pathname.startsWith('/api/v1.0.0/public') && !pathname.endsWith('/openapi.json');
          if (res.statusCode < 400 && !enveloped) return;
          const body = res.json();
          expect(body.meta.requestId).toBe(requestId);
          expect(body.meta.apiVersion).toBe('v1');
          if (res.statusCode < 400) {
            expect(body.success).toBe(true);
          } else {
            expect(body.success).toBe(false);
            expect(body.error).toEqual(
              expect.objectContaining({ code: expect.any(String), message: expect.any(String) }),
            );
          }
        }),
        { numRuns: dialect === 'sqlite' ? 400 : 150 },
      );
    });
  });
}
