import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { validInvoiceFields } from '../helpers/invoice-arbitraries.js';
import { expectIdentities, type Answer } from '../helpers/invoice-identities.js';

type Json = Record<string, unknown>;

for (const dialect of DIALECTS) {
  describe(`POST /invoice properties on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let buyerId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { rateLimitMax: 1_000_000 });
      ({ key } = await t.tenant());
      buyerId = (await t.post('/organization', { name: 'Buyer', isCustomer: true }, key)).json().data.id;
    });
    afterAll(async () => t.close());

    it('issues random valid invoices whose every EN 16931 identity holds exactly, in the currency digits', async () => {
      await fc.assert(
        fc.asyncProperty(validInvoiceFields, async (fields) => {
          const res = await t.post('/invoice', { organizationId: buyerId, ...fields }, key);
          expect(res.statusCode, res.body).toBe(201);
          expectIdentities(res.json().data as Answer);
        }),
        { numRuns: dialect === 'sqlite' ? 150 : 60 },
      );
    });

    it('answers a create, issued or draft, with exactly the invoice a GET then reads back', async () => {
      // The create's answer is built from what was written, not read back: this holds it to the stored truth.
      await fc.assert(
        fc.asyncProperty(validInvoiceFields, fc.constantFrom('issued', 'draft'), async (fields, status) => {
          const created = await t.post('/invoice', { organizationId: buyerId, ...fields, status }, key);
          expect(created.statusCode, created.body).toBe(201);
          const read = await t.get(`/invoice/${created.json().data.id}`, key);
          expect(read.statusCode).toBe(200);
          expect(created.json().data).toEqual(read.json().data);
        }),
        { numRuns: dialect === 'sqlite' ? 60 : 30 },
      );
    });

    it('answers any random JSON body with a 400 in the envelope, never a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.jsonValue(), async (body) => {
          const res = await t.request({
            method: 'POST',
            url: `${BASE_PATH}/invoice`,
            payload: JSON.stringify(body),
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
          });
          expect(res.statusCode, res.body).toBe(400);
          const json = res.json();
          expect(json.success).toBe(false);
          expect(['VALIDATION_ERROR', 'INVALID_JSON']).toContain(json.error.code);
          expect(json.meta.requestId).toBe(res.headers['x-request-id']);
        }),
        { numRuns: 100 },
      );
    });

    it('answers random invalid variations of a valid invoice with a 400 naming the broken field', async () => {
      const breakers: [string, fc.Arbitrary<(body: Json) => string>][] = [
        [
          'unknown field',
          fc
            .stringMatching(/^[a-z][a-zA-Z]{0,7}$/)
            .filter(
              (k) =>
                ![
                  'organizationId',
                  'number',
                  'issueDate',
                  'dueDate',
                  'currency',
                  'pricesIncludeTax',
                  'buyerReference',
                  'purchaseOrderReference',
                  'note',
                  'lines',
                ].includes(k),
            )
            .map((k) => (b: Json) => ((b[k] = 1), k)),
        ],
        [
          'bad decimal',
          fc
            .tuple(
              fc.constantFrom('quantity', 'unitPrice', 'vatRate', 'discountPercent'),
              fc.oneof(
                fc.string().filter((s) => !/^-?\d+(\.\d+)?$/.test(s)),
                fc.constantFrom(true, {}, [], 1e-9, 1e30),
              ),
            )
            .map(
              ([f, v]) =>
                (b: Json) => ((lineOf(b)[f] = v), `lines[0].${f}`),
            ),
        ],
        [
          'negative price',
          fc
            .integer({ min: 1, max: 10_000 })
            .map((n) => (b: Json) => ((lineOf(b).unitPrice = `-${n / 100}`), 'lines[0].unitPrice')),
        ],
        [
          'zero quantity',
          fc
            .constantFrom('0', '0.000', 0, '-0')
            .map((q) => (b: Json) => ((lineOf(b).quantity = q), 'lines[0].quantity')),
        ],
        [
          'rate out of range',
          fc
            .integer({ min: 101, max: 100_000 })
            .map((r) => (b: Json) => ((lineOf(b).vatRate = String(r)), 'lines[0].vatRate')),
        ],
        [
          'unknown currency',
          fc
            .stringMatching(/^[A-Z]{3}$/)
            .filter((c) => !Intl.supportedValuesOf('currency').includes(c))
            .map((c) => (b: Json) => ((b.currency = c), 'currency')),
        ],
        [
          'due before issue',
          fc
            .integer({ min: 1, max: 400 })
            .map(
              (days) => (b: Json) => (
                (b.issueDate = '2026-06-01'),
                (b.dueDate = new Date(Date.UTC(2026, 5, 1) - days * 86_400_000).toISOString().slice(0, 10)),
                'dueDate'
              ),
            ),
        ],
        [
          'bad date',
          fc
            .constantFrom('2026-02-30', '2026-13-01', '26-01-01', 'today', '2026-1-1')
            .map((v) => (b: Json) => ((b.issueDate = v), 'issueDate')),
        ],
        ['no lines', fc.constant((b: Json) => ((b.lines = []), 'lines'))],
        [
          'exempt without reason',
          fc
            .constantFrom('E', 'AE')
            .map(
              (c) => (b: Json) => (
                Object.assign(lineOf(b), { vatRate: '0', vatCategory: c, exemptionReason: undefined }),
                'lines[0].exemptionReason'
              ),
            ),
        ],
      ];
      const lineOf = (b: Json) => (b.lines as Json[])[0]!;
      await fc.assert(
        fc.asyncProperty(validInvoiceFields, fc.oneof(...breakers.map(([, arb]) => arb)), async (fields, breaker) => {
          const body: Json = JSON.parse(JSON.stringify({ organizationId: buyerId, ...fields }));
          const field = breaker(body);
          const res = await t.post('/invoice', JSON.parse(JSON.stringify(body)), key);
          expect(res.statusCode, res.body).toBe(400);
          expect(res.json().error.code).toBe('VALIDATION_ERROR');
          expect((res.json().error.details as { field: string }[]).map((x) => x.field)).toContain(field);
        }),
        { numRuns: dialect === 'sqlite' ? 200 : 80 },
      );
    });
  });
}
