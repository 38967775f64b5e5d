import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { ErrorDetail } from '../errors/app-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { API_MAJOR_VERSION } from './api-version.js';

// The response envelope of the spec, declared once as schemas (used for serialization and the
// OpenAPI document) and built by the two functions below. Titles name the schemas in the
// document's components (src/openapi/named-schemas.ts).

export const SuccessMeta = Type.Object(
  {
    requestId: Type.String({ description: 'Same value as the X-Request-Id response header.' }),
    requestTime: Type.String({ format: 'date-time', description: 'When the request was received (ISO-8601, UTC).' }),
    apiVersion: Type.String({ examples: [API_MAJOR_VERSION] }),
    timestamp: Type.String({ format: 'date-time', description: 'When the response was produced (ISO-8601, UTC).' }),
  },
  { title: 'SuccessMeta' },
);

/** The success envelope around `data`; named `<data's title>Envelope` when `data` is named. */
export function SuccessEnvelope<T extends TSchema>(data: T) {
  return Type.Object(
    {
      success: Type.Literal(true),
      message: Type.String(),
      data,
      meta: SuccessMeta,
    },
    data.title === undefined ? {} : { title: `${data.title}Envelope` },
  );
}

export const ErrorDetailSchema = Type.Object(
  {
    field: Type.String({ description: 'Path of the offending field, e.g. lines[3].unitPrice' }),
    code: Type.String({
      description: 'What is wrong, e.g. required, invalid_type, invalid_decimal, too_many_decimals, too_large.',
    }),
    message: Type.String(),
    maximum: Type.Optional(
      Type.String({
        pattern: '^-?\\d+(\\.\\d+)?$',
        description:
          "Amount refusals only: the largest amount that would have been accepted (what is due, owed or still creditable, or the largest amount there is), in the currency's digits.",
        examples: ['452.00'],
      }),
    ),
    existingId: Type.Optional(
      Type.String({
        description: 'DUPLICATE_DOCUMENT only: the id of the purchase invoice received first.',
        examples: ['pin_01956b20-4c5d-7e6f-8a9b-0c1d2e3f4a5b'],
      }),
    ),
    severity: Type.Optional(
      Type.String({
        pattern: '^(?:fatal|warning)$',
        description: 'Rule findings only (EINVOICE_INVALID): fatal breaks the document, a warning does not.',
        examples: ['fatal'],
      }),
    ),
    term: Type.Optional(
      Type.String({
        description: 'Rule findings only: the EN 16931 business term or group the rule is about, e.g. BT-106.',
        examples: ['BT-106'],
      }),
    ),
  },
  { title: 'ErrorDetail' },
);

export const ErrorMeta = Type.Object(
  {
    requestId: Type.String({ description: 'Same value as the X-Request-Id response header.' }),
    apiVersion: Type.String({ examples: [API_MAJOR_VERSION] }),
  },
  { title: 'ErrorMeta' },
);

/** Any error answer. Each operation's document names the exact codes it can answer with. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable error code, e.g. VALIDATION_ERROR.' }),
      message: Type.String(),
      details: Type.Optional(Type.Array(ErrorDetailSchema)),
    }),
    meta: ErrorMeta,
  },
  { title: 'ErrorEnvelope' },
);

export interface SuccessBody<T> {
  success: true;
  message: string;
  data: T;
  meta: { requestId: string; requestTime: string; apiVersion: string; timestamp: string };
}

export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
  meta: { requestId: string; apiVersion: string };
}

export function successBody<T>(request: FastifyRequest, message: string, data: T): SuccessBody<T> {
  return {
    success: true,
    message,
    data,
    meta: {
      requestId: request.id,
      requestTime: new Date(request.receivedAt).toISOString(),
      apiVersion: API_MAJOR_VERSION,
      timestamp: new Date().toISOString(),
    },
  };
}

/**
 * The success envelope of a page whose items are already JSON text (see PageBudget), written
 * with the same fields, in the same order, as the schema's serializer writes them.
 */
export function pageEnvelopeJson(
  request: FastifyRequest,
  message: string,
  page: { itemsJson: string[]; nextCursor: string | null },
): string {
  return successEnvelopeJson(
    request,
    message,
    `{"items":[${page.itemsJson.join(',')}],"nextCursor":${JSON.stringify(page.nextCursor)}}`,
  );
}

/** The success envelope around data that is JSON text already. */
export function successEnvelopeJson(request: FastifyRequest, message: string, dataJson: string): string {
  const { meta } = successBody(request, message, null);
  return `{"success":true,"message":${JSON.stringify(message)},"data":${dataJson},"meta":${JSON.stringify(meta)}}`;
}

export function errorBody(requestId: string, code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBody {
  return {
    success: false,
    error: details && details.length > 0 ? { code, message, details } : { code, message },
    meta: { requestId, apiVersion: API_MAJOR_VERSION },
  };
}
