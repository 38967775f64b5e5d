import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { documentForm, DocumentedAs } from '../../src/schemas/documented-as.js';
import { hoistNamedSchemas, SchemaNameConflict } from '../../src/openapi/named-schemas.js';

// The two mechanisms behind the document's components, on small documents: titled schemas
// become components, and DocumentedAs shows the documented form in place of the runtime one.

type Json = Record<string, unknown>;

const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as Json;

function documentWith(requestSchema: unknown, responseSchema: unknown): Json {
  return {
    openapi: '3.1.0',
    paths: {
      '/thing': {
        post: {
          requestBody: { content: { 'application/json': { schema: json(requestSchema) } } },
          responses: {
            '201': { description: 'Created', content: { 'application/json': { schema: json(responseSchema) } } },
          },
        },
      },
    },
    components: {},
  };
}

const Money = Type.String({ title: 'Money', pattern: '^\\d+$' });
const Thing = Type.Object(
  { price: Money, parts: Type.Array(Type.Object({ price: Money }, { title: 'Part' })) },
  { title: 'Thing' },
);

describe('named schemas', () => {
  it('moves every titled schema into components, once, and refers to it by $ref wherever it is used', () => {
    const hoisted = hoistNamedSchemas(documentWith(Thing, Type.Object({ data: Thing }, { title: 'ThingEnvelope' })));
    const schemas = (hoisted.components as Json).schemas as Record<string, Json>;
    expect(Object.keys(schemas)).toEqual(['Money', 'Part', 'Thing', 'ThingEnvelope']);
    expect(schemas.Thing!.properties).toEqual({
      price: { $ref: '#/components/schemas/Money' },
      parts: { type: 'array', items: { $ref: '#/components/schemas/Part' } },
    });
    const post = ((hoisted.paths as Json)['/thing'] as Json).post as Json;
    expect(JSON.stringify(post)).not.toContain('"title"');
    expect(JSON.stringify(post)).toContain('"$ref":"#/components/schemas/Thing"');
  });

  it('refuses two different schemas with the same title, naming it', () => {
    const otherMoney = Type.Object({ price: Type.String({ title: 'Money', pattern: '^\\d+\\.\\d{2}$' }) });
    const build = () => hoistNamedSchemas(documentWith(Thing, otherMoney));
    expect(build).toThrow(SchemaNameConflict);
    expect(build).toThrow(/"Money"/);
  });

  it('refuses a title that cannot be a type name', () => {
    expect(() => hoistNamedSchemas(documentWith(Type.String({ title: 'The price' }), Type.Null()))).toThrow(
      /not a component name/,
    );
  });
});

describe('DocumentedAs', () => {
  const Decimal = DocumentedAs(
    Type.Unsafe({}),
    Type.Union([Type.String({ pattern: '^\\d+$' }), Type.Number()], { title: 'Decimal' }),
  );

  it('keeps the runtime schema for validation and shows the documented one in the document, through Optional and unions', () => {
    const body = Type.Object({ amount: Decimal, discount: Type.Optional(Type.Union([Decimal, Type.Null()])) });
    expect(json(body).properties).toEqual({ amount: {}, discount: { anyOf: [{}, { type: 'null' }] } });
    const documented = json(documentForm(body)).properties as Record<string, Json>;
    expect(documented.amount).toEqual({
      title: 'Decimal',
      anyOf: [{ type: 'string', pattern: '^\\d+$' }, { type: 'number' }],
    });
    expect((documented.discount!.anyOf as Json[])[0]).toEqual(documented.amount);
  });
});
