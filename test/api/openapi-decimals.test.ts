import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { createDocumentAjv } from '../helpers/openapi-contract.js';

// The document describes decimal inputs (Quantity, Price, Percent) more precisely than the
// validator checks them: the limits are enforced by code that answers its own detail codes. This
// suite sends random values through the API and holds the document to what the API does:
// - a string the document accepts is accepted by the API, and the other way round, except a
//   zero quantity (refused with `zero`, a rule the document states in words);
// - a number the API accepts is accepted by the document (the document cannot count a number's
//   decimal places, so it says them in words).
// Every value goes in a line of one invoice whose organization does not exist: a line without a
// detail was accepted, and nothing is ever stored.

type Field = 'quantity' | 'unitPrice' | 'discountPercent' | 'vatRate';
const COMPONENT: Record<Field, string> = {
  quantity: 'Quantity',
  unitPrice: 'Price',
  discountPercent: 'Percent',
  vatRate: 'Percent',
};
const FIELDS = Object.keys(COMPONENT) as Field[];

const EDGES = [
  '0',
  '-0',
  '00',
  '-0.000',
  '1',
  '-1',
  '100',
  '100.0000',
  '100.00001',
  '99.99990',
  '101',
  '19.99',
  '1.1234567',
  '1.1234560',
  '999999999999999',
  '1000000000000000',
  '0001234',
  '1e3',
  ' 1',
  '1 ',
  '+1',
  '1,5',
  '.5',
  '5.',
  '',
  '-',
  'NaN',
  '0'.repeat(39) + '1',
  '0'.repeat(40) + '1',
];

const decimalText = fc.oneof(
  fc.constantFrom(...EDGES),
  fc.stringMatching(/^-?\d{1,17}(\.\d{1,8})?$/),
  fc.stringMatching(/^-?0{0,3}[0-9]{0,3}(\.[0-9]{0,6}0{0,3})?$/),
  fc.string({ unit: fc.constantFrom('0', '1', '9', '.', '-', '+', 'e', ' ', ',') }),
);

const decimalNumber = fc.oneof(
  fc.constantFrom(0, -0, 1, -1, 100, 100.0001, 100.00001, 19.99, 1e-7, 0.1 + 0.2, 1e15, 999999999999999),
  fc.integer({ min: -2e15, max: 2e15 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e16, max: 1e16 }),
);

describe('decimal inputs in the OpenAPI document', () => {
  let t: TestApp;
  let key: string;
  let documentAccepts: (field: Field, value: unknown) => boolean;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { rateLimitMax: 1_000_000 });
    ({ key } = await t.tenant(['invoice.create']));
    const document = (await t.request({ method: 'GET', url: `${BASE_PATH}/openapi.json` })).json();
    const ajv = createDocumentAjv(document);
    const validators = Object.fromEntries(
      FIELDS.map((f) => [f, ajv.compile({ $ref: `openapi#/components/schemas/${COMPONENT[f]}` })]),
    );
    documentAccepts = (field, value) => validators[field]!(value) as boolean;
  });
  afterAll(async () => t.close());

  /** The detail code the API gives each value in `field` (null: accepted). */
  async function serverVerdicts(field: Field, values: unknown[]): Promise<(string | null)[]> {
    const lines = values.map((value) => ({
      name: 'Item',
      quantity: '1',
      unitPrice: '1',
      vatRate: '19',
      [field]: value,
    }));
    const res = await t.post('/invoice', { organizationId: 'org_does-not-exist', lines }, key);
    const body = res.json() as { error: { code: string; details?: { field: string; code: string }[] } };
    expect(['VALIDATION_ERROR', 'ORGANIZATION_NOT_FOUND']).toContain(body.error.code);
    const details = body.error.details ?? [];
    for (const detail of details) expect(detail.field).toMatch(new RegExp(`^lines\\[\\d+\\]\\.${field}$`));
    return values.map((_, i) => details.find((d) => d.field === `lines[${i}].${field}`)?.code ?? null);
  }

  for (const field of FIELDS) {
    it(`accepts exactly the ${field} strings the API accepts`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(decimalText, { minLength: 1, maxLength: 200 }), async (values) => {
          const verdicts = await serverVerdicts(field, values);
          values.forEach((value, i) => {
            const refusal = verdicts[i];
            if (refusal === 'zero')
              expect(documentAccepts(field, value), `${field} ${JSON.stringify(value)}`).toBe(true);
            else
              expect(
                documentAccepts(field, value),
                `${field} ${JSON.stringify(value)}: API says ${refusal ?? 'accepted'}`,
              ).toBe(refusal === null);
          });
        }),
        { numRuns: 8 },
      );
    });

    it(`accepts every ${field} number the API accepts`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(decimalNumber, { minLength: 1, maxLength: 200 }), async (values) => {
          const verdicts = await serverVerdicts(field, values);
          values.forEach((value, i) => {
            if (verdicts[i] === null) expect(documentAccepts(field, value), `${field} ${value}`).toBe(true);
          });
        }),
        { numRuns: 5 },
      );
    });
  }

  it('refuses what no decimal field takes: booleans, objects, arrays and null where a value is required', () => {
    for (const value of [true, {}, [], null]) {
      for (const field of FIELDS)
        expect(documentAccepts(field, value), `${field} ${JSON.stringify(value)}`).toBe(false);
    }
  });
});
