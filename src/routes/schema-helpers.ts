import { Type, type TSchema } from '@sinclair/typebox';
import { ERRORS, type ErrorCode } from '../errors/codes.js';
import { ErrorDetailSchema, ErrorMeta } from '../http/envelope.js';
import { DocumentedAs } from '../schemas/documented-as.js';

// What a route declares for each error status. Fastify serializes with one envelope whose code
// is any of the status's codes (cheap: no branch to pick); the document shows the same answer
// as a choice of one named envelope per code (NameConflictError, …), which generated clients
// turn into one type per error.

function errorEnvelopeFor(codes: ErrorCode[]) {
  return Type.Object(
    {
      success: Type.Literal(false),
      error: Type.Object({
        code: codes.length === 1 ? Type.Literal(codes[0]!) : Type.Union(codes.map((c) => Type.Literal(c))),
        message: Type.String(),
        details: Type.Optional(Type.Array(ErrorDetailSchema)),
      }),
      meta: ErrorMeta,
    },
    { description: codes.map((c) => `${c}: ${ERRORS[c].message}`).join(' ') },
  );
}

/** NAME_CONFLICT -> NameConflict. */
export function pascalCaseOf(code: ErrorCode): string {
  return code
    .toLowerCase()
    .split('_')
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
}

/** NAME_CONFLICT -> NameConflictError; VALIDATION_ERROR -> ValidationError. */
export function errorSchemaName(code: ErrorCode): string {
  const name = pascalCaseOf(code);
  return name.endsWith('Error') ? name : `${name}Error`;
}

/** The error envelope of one code, named after it (NameConflictError). */
export function errorSchemaOf(code: ErrorCode) {
  return Type.Object(
    {
      success: Type.Literal(false),
      error: Type.Object({
        code: Type.Literal(code),
        message: Type.String(),
        details: Type.Optional(Type.Array(ErrorDetailSchema)),
      }),
      meta: ErrorMeta,
    },
    { title: errorSchemaName(code), description: ERRORS[code].message },
  );
}

/** Error responses of a route, keyed by status, each naming the codes it can carry. */
export function errorResponses(codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...new Set([...codes, ...COMMON_ERRORS])]) {
    const status = ERRORS[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    const documented = list.length === 1 ? errorSchemaOf(list[0]!) : Type.Union(list.map(errorSchemaOf));
    responses[status] = DocumentedAs(errorEnvelopeFor(list), documented);
  }
  return responses;
}

/** Errors any route can answer with, whatever it does. */
export const COMMON_ERRORS: ErrorCode[] = ['NOT_FOUND', 'RATE_LIMITED', 'INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'];

/** Errors of any route that reads a JSON body. */
export const BODY_ERRORS: ErrorCode[] = [
  'VALIDATION_ERROR',
  'INVALID_JSON',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
];

/** Errors of any route that needs a key. */
export const KEY_ERRORS: ErrorCode[] = ['INVALID_API_KEY', 'FORBIDDEN'];
