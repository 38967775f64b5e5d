import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/dialects.js';
import { MODES } from '../helpers/modes.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';

type Body = Record<string, unknown>;

const line = (overrides: Body = {}): Body => ({
  name: 'Item',
  quantity: '1',
  unitPrice: '10',
  vatRate: '19',
  ...overrides,
});

for (const dialect of DIALECTS)
  for (const mode of MODES) {
    describe(`POST /invoice refusals on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;
      let key: string;
      let buyerId: string;

      const body = (overrides: Body = {}): Body => ({
        organizationId: buyerId,
        issueDate: '2026-05-01',
        lines: [line()],
        ...overrides,
      });
      const fieldsOf = (res: { json(): { error: { details?: { field: string }[] } } }) =>
        (res.json().error.details ?? []).map((d) => d.field);

      beforeAll(async () => {
        t = await buildTestApp(dialect);
        ({ key } = await t.tenant(undefined, { mode }));
        buyerId = (await t.post('/organization', { name: 'Buyer', isCustomer: true }, key)).json().data.id;
      });
      afterAll(async () => t.close());

      it('answers 401 without a key before looking at the body', async () => {
        const res = await t.post('/invoice', { nonsense: true });
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('INVALID_API_KEY');
      });

      it('answers 403 to a key without invoice.create before looking at the body', async () => {
        const { key: orgOnly } = await t.tenant(['organization.create'], { mode });
        const res = await t.post('/invoice', { nonsense: true }, orgOnly);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      });

      it('refuses unknown fields at the top and in lines, naming each', async () => {
        const res = await t.post('/invoice', body({ discount: 5, lines: [line(), line({ colour: 'red' })] }), key);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
        expect(fieldsOf(res)).toEqual(expect.arrayContaining(['discount', 'lines[1].colour']));
      });

      it('names every malformed decimal, negative price and zero quantity by its line', async () => {
        const res = await t.post(
          '/invoice',
          body({
            lines: [
              line(),
              line({ quantity: '1e3' }),
              line({ unitPrice: '-0.01' }),
              line({ quantity: 0 }),
              line({ unitPrice: '1.1234567' }),
              line({ vatRate: 'NaN' }),
              line({ discountPercent: '101' }),
              line({ quantity: true }),
              line({ unitPrice: ' 1' }),
              line({ unitPrice: '1,5' }),
              line({ vatRate: '-1' }),
            ],
          }),
          key,
        );
        expect(res.statusCode).toBe(400);
        const details = res.json().error.details as { field: string; code: string }[];
        expect(details.map((d) => [d.field, d.code])).toEqual([
          ['lines[1].quantity', 'invalid_decimal'],
          ['lines[2].unitPrice', 'negative'],
          ['lines[3].quantity', 'zero'],
          ['lines[4].unitPrice', 'too_many_decimals'],
          ['lines[5].vatRate', 'invalid_decimal'],
          ['lines[6].discountPercent', 'out_of_range'],
          ['lines[7].quantity', 'invalid_decimal'],
          ['lines[8].unitPrice', 'invalid_decimal'],
          ['lines[9].unitPrice', 'invalid_decimal'],
          ['lines[10].vatRate', 'out_of_range'],
        ]);
      });

      it('refuses an unknown currency, a due date before the issue date and impossible dates', async () => {
        const unknown = await t.post('/invoice', body({ currency: 'ABC' }), key);
        expect(unknown.statusCode).toBe(400);
        expect(unknown.json().error.details).toEqual([
          expect.objectContaining({ field: 'currency', code: 'unknown_currency' }),
        ]);
        const early = await t.post('/invoice', body({ issueDate: '2026-05-10', dueDate: '2026-05-09' }), key);
        expect(early.statusCode).toBe(400);
        expect(early.json().error.details).toEqual([
          expect.objectContaining({ field: 'dueDate', code: 'before_issue_date' }),
        ]);
        const impossible = await t.post('/invoice', body({ issueDate: '2026-02-30' }), key);
        expect(impossible.statusCode).toBe(400);
        expect(fieldsOf(impossible)).toEqual(['issueDate']);
        const lowercase = await t.post('/invoice', body({ currency: 'eur' }), key);
        expect(fieldsOf(lowercase)).toEqual(['currency']);
      });

      it('requires an exemption reason for E and AE and a rate that fits the category', async () => {
        const res = await t.post(
          '/invoice',
          body({
            lines: [
              line({ vatRate: '0', vatCategory: 'E' }),
              line({ vatRate: '0', vatCategory: 'AE', exemptionReason: '  ' }),
              line({ vatRate: '0', vatCategory: 'S' }),
              line({ vatRate: '19', vatCategory: 'Z' }),
              line({ vatRate: '0', vatCategory: 'K', exemptionReason: 'Intra-community supply' }),
            ],
          }),
          key,
        );
        expect(res.statusCode).toBe(400);
        expect(fieldsOf(res)).toEqual([
          'lines[0].exemptionReason',
          'lines[1].exemptionReason',
          'lines[2].vatRate',
          'lines[3].vatRate',
        ]);
      });

      it('refuses no lines, more than 500 lines and overlong texts', async () => {
        expect(fieldsOf(await t.post('/invoice', body({ lines: [] }), key))).toEqual(['lines']);
        expect(
          fieldsOf(await t.post('/invoice', body({ lines: Array.from({ length: 501 }, () => line()) }), key)),
        ).toEqual(['lines']);
        expect(
          fieldsOf(await t.post('/invoice', body({ number: 'N'.repeat(65), note: 'x'.repeat(501) }), key)),
        ).toEqual(['number', 'note']);
        expect(fieldsOf(await t.post('/invoice', body({ lines: [line({ name: '   ' })] }), key))).toEqual([
          'lines[0].name',
        ]);
      });

      it('answers 400 ORGANIZATION_NOT_FOUND alike for a missing organization and for one of another company', async () => {
        const missing = await t.post('/invoice', body({ organizationId: 'org_does-not-exist' }), key);
        const other = await t.tenant(undefined, { mode });
        const foreignOrg = (await t.post('/organization', { name: 'Foreign', isCustomer: true }, other.key)).json().data
          .id;
        const foreign = await t.post('/invoice', body({ organizationId: foreignOrg }), key);
        for (const res of [missing, foreign]) {
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toEqual({
            code: 'ORGANIZATION_NOT_FOUND',
            message: 'The organization does not exist.',
          });
        }
      });

      it("does not let company B's key invoice company A's organization, nor take A's numbers", async () => {
        const b = await t.tenant(undefined, { mode });
        const res = await t.post('/invoice', body({ number: 'TENANT-1' }), b.key);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('ORGANIZATION_NOT_FOUND');
        const count = await t.storage.db
          .selectFrom('invoices')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('number', '=', 'TENANT-1')
          .executeTakeFirstOrThrow();
        expect(Number(count.n)).toBe(0);
      });

      it('answers 409 INVOICE_NUMBER_CONFLICT to a number already used in the company, but not to one used in another', async () => {
        expect((await t.post('/invoice', body({ number: 'DUP-1' }), key)).statusCode).toBe(201);
        const again = await t.post('/invoice', body({ number: 'DUP-1' }), key);
        expect(again.statusCode).toBe(409);
        expect(again.json().error.code).toBe('INVOICE_NUMBER_CONFLICT');
        const other = await t.tenant(undefined, { mode });
        const otherBuyer = (await t.post('/organization', { name: 'Other buyer', isCustomer: true }, other.key)).json()
          .data.id;
        const elsewhere = await t.post('/invoice', body({ organizationId: otherBuyer, number: 'DUP-1' }), other.key);
        expect(elsewhere.statusCode).toBe(201);
      });

      it('answers non-JSON and broken JSON in the envelope', async () => {
        const broken = await t.request({
          method: 'POST',
          url: `${BASE_PATH}/invoice`,
          payload: '{"lines": [',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
        });
        expect(broken.statusCode).toBe(400);
        expect(broken.json().error.code).toBe('INVALID_JSON');
      });
    });
  }
