import { Type, type TSchema } from '@sinclair/typebox';
import { ERRORS, type ErrorCode } from '../errors/codes.js';
import { API_MAJOR_VERSION } from '../http/api-version.js';
import { ErrorDetailSchema } from '../http/envelope.js';

/** A value that may also be sent as null (treated as absent). */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Union([schema, Type.Null()]);
}

function errorEnvelopeFor(codes: ErrorCode[]) {
  return Type.Object(
    {
      success: Type.Literal(false),
      error: Type.Object({
        code: codes.length === 1 ? Type.Literal(codes[0]!) : Type.Union(codes.map((c) => Type.Literal(c))),
        message: Type.String(),
        details: Type.Optional(Type.Array(ErrorDetailSchema)),
      }),
      meta: Type.Object({ requestId: Type.String(), apiVersion: Type.String({ examples: [API_MAJOR_VERSION] }) }),
    },
    { description: codes.map((c) => `${c}: ${ERRORS[c].message}`).join(' ') },
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
  for (const [status, list] of byStatus) responses[status] = errorEnvelopeFor(list);
  return responses;
}

/** Errors any route can answer with, whatever it does. */
const COMMON_ERRORS: ErrorCode[] = ['NOT_FOUND', 'RATE_LIMITED', 'INTERNAL_SERVER_ERROR', 'SERVICE_UNAVAILABLE'];

/** Errors of any route that reads a JSON body. */
export const BODY_ERRORS: ErrorCode[] = ['VALIDATION_ERROR', 'INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

/** Errors of any route that needs a key. */
export const KEY_ERRORS: ErrorCode[] = ['INVALID_API_KEY', 'FORBIDDEN'];
