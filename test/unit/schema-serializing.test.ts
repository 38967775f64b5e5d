import { Type } from '@sinclair/typebox';
import build from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { PERMISSION_NAMES } from '../../src/auth/permissions.js';
import { forSerializing } from '../../src/http/schema-compilers.js';
import { SuccessEnvelope } from '../../src/http/envelope.js';
import { Nullable } from '../../src/schemas/nullable.js';

// Answers are serialized from a schema whose unions of literals and nullable fields are type
// lists, which the serializer tells apart without running a validator per option. What it writes
// must be what the exact schema writes.

const Status = Type.Union([Type.Literal('draft'), Type.Literal('issued'), Type.Literal('void')]);
const Address = Type.Object({ city: Type.String(), countryCode: Nullable(Type.String()) });
const Thing = Type.Object({
  status: Status,
  previous: Nullable(Status),
  note: Nullable(Type.String({ description: 'A note' })),
  count: Nullable(Type.Integer()),
  paid: Nullable(Type.Boolean()),
  address: Nullable(Address),
  tags: Type.Array(Type.Union(PERMISSION_NAMES.map((p) => Type.Literal(p)))),
  level: Type.Union([Type.Literal(1), Type.Literal(2)]),
  either: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: Type.Integer() })]),
  optional: Type.Optional(Nullable(Type.String())),
});
const Answer = SuccessEnvelope(Thing);

const values = [
  {
    status: 'issued',
    previous: 'draft',
    note: 'Zahlbar “sofort” ✓\n',
    count: 3,
    paid: true,
    address: { city: 'Köln', countryCode: 'DE' },
    tags: PERMISSION_NAMES.slice(0, 5),
    level: 2,
    either: { b: 7 },
    optional: 'x',
  },
  {
    status: 'void',
    previous: null,
    note: null,
    count: null,
    paid: null,
    address: { city: 'Wien', countryCode: null },
    tags: [],
    level: 1,
    either: { a: 'a' },
  },
  {
    status: 'draft',
    previous: null,
    note: '',
    count: 0,
    paid: false,
    address: null,
    tags: [...PERMISSION_NAMES],
    level: 1,
    either: { a: '' },
    optional: null,
  },
];

describe('forSerializing', () => {
  it('writes every answer exactly as the exact schema does', () => {
    const exact = build(Answer as never);
    const fast = build(forSerializing(Answer) as never);
    for (const data of values) {
      const body = {
        success: true,
        message: 'OK',
        data,
        meta: {
          requestId: 'req_1',
          requestTime: '2026-11-28T06:00:00.000Z',
          apiVersion: 'v1',
          timestamp: '2026-11-28T06:00:00.012Z',
        },
      };
      expect(fast(body)).toBe(exact(body));
      expect(JSON.parse(fast(body))).toEqual(body);
    }
  });

  it('turns unions of literals and nullable fields into type lists, and leaves other unions alone', () => {
    const plain = forSerializing(Thing) as { properties: Record<string, Record<string, unknown>> };
    const p = plain.properties;
    expect(p.status).toEqual({ type: 'string' });
    expect(p.previous).toEqual({ type: ['string', 'null'] });
    expect(p.note).toEqual({ type: ['string', 'null'], description: 'A note' });
    expect(p.count!.type).toEqual(['integer', 'null']);
    expect(p.address!.type).toEqual(['object', 'null']);
    expect(p.address!.properties).toEqual({ city: { type: 'string' }, countryCode: { type: ['string', 'null'] } });
    expect(p.tags!.items).toEqual({ type: 'string' });
    expect(p.level).toEqual({ type: 'number' });
    expect(p.either!.anyOf).toHaveLength(2);
  });

  it('leaves the schema it is given as it was, for validation and the OpenAPI document', () => {
    const before = JSON.stringify(Answer);
    forSerializing(Answer);
    expect(JSON.stringify(Answer)).toBe(before);
    expect(Thing.properties.status.anyOf).toHaveLength(3);
  });

  it('still refuses a value that no option allows, as the exact schema does', () => {
    const fast = build(forSerializing(Type.Object({ address: Nullable(Address) })) as never);
    expect(() => fast({ address: 'not an address' })).toThrow(TypeError);
  });
});
