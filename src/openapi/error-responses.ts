import { ERRORS, type ErrorCode } from '../errors/codes.js';
import { API_MAJOR_VERSION } from '../http/api-version.js';
import { EXAMPLE_REQUEST_ID } from './operations.js';

// The error side of the document: which codes a response names, its description, and one example
// per code (kept once in components.examples and referred to by each response).

type Json = Record<string, unknown>;

export const componentRef = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The node a local `$ref` points to in `document` (the node itself when it is no reference). */
function resolveRef(node: Json | undefined, document: Json | undefined): Json | undefined {
  const target = node?.$ref;
  if (typeof target !== 'string' || !document || !target.startsWith('#/')) return node;
  const found = target
    .slice(2)
    .split('/')
    .reduce<unknown>((at, part) => (at as Json | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document);
  return resolveRef(found as Json | undefined, document);
}

/**
 * The codes a response schema names in error.code: one error envelope or a choice (anyOf) of
 * them, each with a const, enum or union of codes. Pass the document to follow `$ref`s.
 */
export function errorCodesOf(schema: Json | undefined, document?: Json): ErrorCode[] {
  const top = resolveRef(schema, document);
  const envelopes = ((top?.anyOf as Json[] | undefined) ?? (top ? [top] : [])).map((e) => resolveRef(e, document));
  const values = envelopes.flatMap((envelope) => {
    const error = resolveRef((envelope?.properties as Json | undefined)?.error as Json | undefined, document);
    const codeSchema = (error?.properties as Json | undefined)?.code as Json | undefined;
    const variants = (codeSchema?.anyOf as Json[] | undefined) ?? (codeSchema ? [codeSchema] : []);
    return variants.flatMap((v) => [v.const, ...((v.enum as unknown[] | undefined) ?? [])]);
  });
  return [...new Set(values)].filter((c): c is ErrorCode => typeof c === 'string' && c in ERRORS);
}

function errorExample(code: ErrorCode): { summary: string; value: unknown } {
  return {
    summary: ERRORS[code].message,
    value: {
      success: false,
      error:
        code === 'VALIDATION_ERROR'
          ? {
              code,
              message: 'The request is not valid: check email.',
              details: [{ field: 'email', code: 'invalid_format', message: 'Must match format "email".' }],
            }
          : { code, message: ERRORS[code].message },
      meta: { requestId: EXAMPLE_REQUEST_ID, apiVersion: API_MAJOR_VERSION },
    },
  };
}

/** References to one example per code; the examples themselves are added to `componentExamples`. */
export function errorExampleRefs(codes: ErrorCode[], componentExamples: Json): Record<string, { $ref: string }> {
  for (const code of codes) componentExamples[code] ??= errorExample(code);
  return Object.fromEntries(codes.map((code) => [code, componentRef('examples', code)]));
}

export function errorDescription(codes: ErrorCode[]): string {
  return `Error codes: ${codes.map((c) => `\`${c}\` (${ERRORS[c].message})`).join('; ')}`;
}

/** A TypeBox schema as plain JSON (without TypeBox's symbols), as it appears in the document. */
export const jsonOf = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;
