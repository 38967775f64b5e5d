import { isDeepStrictEqual } from 'node:util';
import { mapDocumentSchemas, mapSubschemas } from './schema-walk.js';

// A schema declared with a `title` is a named schema: it becomes `components.schemas[title]`
// and every use of it a `$ref` to that component. So generators get one type per resource,
// input and envelope (Invoice, CreateInvoiceInput, ErrorEnvelope, …) instead of one per use,
// and a schema added later is named just by declaring it with a title. Titles are only read
// here, after @fastify/swagger wrote the document: validation and serialization never see a
// `$ref`. A name means one schema: two different schemas with the same title are an error.

type Json = Record<string, unknown>;

/** Component names are type names in generated clients: PascalCase, letters and digits. */
const COMPONENT_NAME = /^[A-Z][A-Za-z0-9]*$/;

export class SchemaNameConflict extends Error {
  constructor(
    readonly schemaName: string,
    first: Json,
    second: Json,
  ) {
    const show = (schema: Json) => JSON.stringify(schema).slice(0, 400);
    super(
      `Two different schemas are titled "${schemaName}"; give one another title.\n  ${show(first)}\n  ${show(second)}`,
    );
  }
}

export function hoistNamedSchemas<D extends Json & { components?: Json }>(document: D): D {
  const named: Record<string, Json> = {};
  const name = (title: string, schema: Json) => {
    const existing = named[title];
    if (existing === undefined) named[title] = schema;
    else if (!isDeepStrictEqual(existing, schema)) throw new SchemaNameConflict(title, existing, schema);
  };

  const hoist = (schema: Json): Json => {
    const inner = mapSubschemas(schema, hoist);
    const title = inner.title;
    if (typeof title !== 'string') return inner;
    if (!COMPONENT_NAME.test(title))
      throw new Error(`The schema title "${title}" is not a component name (PascalCase letters and digits).`);
    name(title, inner);
    return { $ref: `#/components/schemas/${title}` };
  };

  const hoisted = mapDocumentSchemas(document, hoist);
  // Components declared directly (their subschemas were hoisted above) keep their own names.
  for (const [key, schema] of Object.entries((hoisted.components?.schemas as Record<string, Json> | undefined) ?? {}))
    name(key, schema);
  const sorted = Object.fromEntries(Object.entries(named).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...hoisted, components: { ...(hoisted.components ?? {}), schemas: sorted } };
}
