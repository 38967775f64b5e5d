import { ERRORS, type ErrorCode } from '../errors/codes.js';
import { API_MAJOR_VERSION } from '../http/api-version.js';
import { EXAMPLE_REQUEST_ID, operationExtras } from './operations.js';

// What the route schemas cannot say, added to the generated document in one pass: the headers
// every response carries, the request id parameter, per-status descriptions naming the error
// codes, and the examples.

type Json = Record<string, unknown>;

interface MediaType {
  schema?: Json;
  examples?: Record<string, { summary?: string; value: unknown }>;
}
interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId?: string;
  parameters?: { name?: string; in?: string; $ref?: string }[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, ResponseObject>;
  [key: string]: unknown;
}
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: Json & { headers?: Json; parameters?: Json; schemas?: Json };
  [key: string]: unknown;
}

const HEADERS = {
  'X-Request-Id': {
    description: "The request id: the client's X-Request-Id when it is 1-128 characters of [A-Za-z0-9._:-], else req_<uuid>. Same as meta.requestId.",
    schema: { type: 'string', examples: [EXAMPLE_REQUEST_ID] },
  },
  'RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer', examples: [600] } },
  'RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer', examples: [599] } },
  'RateLimit-Reset': { description: 'Seconds until the current window ends.', schema: { type: 'integer', examples: [60] } },
  'RateLimit-Policy': { description: 'The policy: "<limit>;w=<window seconds>".', schema: { type: 'string', examples: ['600;w=60'] } },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', examples: [1] } },
  'Idempotent-Replayed': {
    description: 'Present (true) when this answer is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const;

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

const STATUS_TEXT: Record<string, string> = { '200': 'OK', '201': 'Created' };

const ref = (kind: string, name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The codes a response schema names in error.code (a const or enum, or a union of them). */
export function errorCodesOf(schema: Json | undefined): ErrorCode[] {
  const error = (schema?.properties as Json | undefined)?.error as Json | undefined;
  const codeSchema = (error?.properties as Json | undefined)?.code as Json | undefined;
  if (!codeSchema) return [];
  const variants = (codeSchema.anyOf as Json[] | undefined) ?? [codeSchema];
  const values = variants.flatMap((v) => [v.const, ...((v.enum as unknown[] | undefined) ?? [])]);
  return values.filter((c): c is ErrorCode => typeof c === 'string' && c in ERRORS);
}

function errorExamples(codes: ErrorCode[]): MediaType['examples'] {
  return Object.fromEntries(
    codes.map((code) => [
      code,
      {
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
      },
    ]),
  );
}

function finishResponse(status: string, response: ResponseObject, idempotent: boolean, successExample: unknown): void {
  const json = response.content?.['application/json'];
  const codes = errorCodesOf(json?.schema);
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'X-Request-Id') };
  for (const name of RATE_LIMIT_HEADERS) headers[name] = ref('headers', name);
  if (status === '429' || codes.includes('IDEMPOTENCY_CONFLICT')) headers['Retry-After'] = ref('headers', 'Retry-After');
  // Stored answers: every status the idempotency layer keeps (success and refusals the handler made).
  const stored = idempotent && !['400', '401', '403', '429'].includes(status) && !status.startsWith('5');
  if (stored) headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
  response.headers = { ...headers, ...(response.headers ?? {}) };

  if (codes.length > 0) {
    response.description = `Error codes: ${codes.map((c) => `\`${c}\` (${ERRORS[c].message})`).join('; ')}`;
    if (json) json.examples = errorExamples(codes);
  } else {
    if (!response.description || response.description === 'Default Response') response.description = STATUS_TEXT[status] ?? 'Success';
    if (json && successExample !== undefined) json.examples = { example: { value: successExample } };
  }
}

export function finishDocument(document: OpenApiDocument): OpenApiDocument {
  document.components = {
    ...document.components,
    headers: { ...(document.components.headers ?? {}), ...HEADERS },
    parameters: {
      ...(document.components.parameters ?? {}),
      RequestId: {
        name: 'X-Request-Id',
        in: 'header',
        required: false,
        description: 'Your id for this request (1-128 characters of [A-Za-z0-9._:-]); otherwise the service makes one.',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
      },
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const extras = operationExtras(method, path);
      const idempotent = (operation.parameters ?? []).some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');
      operation.parameters = [...(operation.parameters ?? []), ref('parameters', 'RequestId')];
      const body = operation.requestBody?.content?.['application/json'];
      if (body && extras?.requestBody !== undefined) body.examples = { example: { value: extras.requestBody } };
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        finishResponse(status, response, idempotent, extras?.response);
      }
    }
  }
  return document;
}
