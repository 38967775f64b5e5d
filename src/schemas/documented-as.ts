import type { Static, TSchema, TUnsafe } from '@sinclair/typebox';

// Some values are checked by code, not by the schema validator, because the code's error codes
// are part of the contract (a decimal's `invalid_decimal`, `too_many_decimals`, `too_large`; a
// date's `invalid_date`). The validator must then let such a value through, while clients should
// still read its exact form in the OpenAPI document. A schema made by DocumentedAs carries both:
// Fastify validates and serializes with the runtime schema, and the document builder puts the
// documented one in its place (see documentForm). The documented form rides on a symbol, which
// JSON, Ajv and fast-json-stringify never see, and which TypeBox's Optional and Union keep.

const DOCUMENTED_FORM = Symbol('documentedForm');

type WithDocumentedForm = Record<PropertyKey, unknown> & { [DOCUMENTED_FORM]?: TSchema };

/**
 * `runtime` for the validator and serializer, `documented` for the OpenAPI document. The static
 * type is the documented one's. Annotations added to the result later (say, a description)
 * are not seen by the document: put them on `documented`.
 */
export function DocumentedAs<D extends TSchema>(runtime: TSchema, documented: D): TUnsafe<Static<D>> {
  return { ...runtime, [DOCUMENTED_FORM]: documented } as unknown as TUnsafe<Static<D>>;
}

/** A copy of a route schema as the document shows it: every DocumentedAs replaced by its documented form. */
export function documentForm(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(documentForm);
  if (value === null || typeof value !== 'object') return value;
  const documented = (value as WithDocumentedForm)[DOCUMENTED_FORM];
  if (documented !== undefined) return documentForm(documented);
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, documentForm(child)]));
}
