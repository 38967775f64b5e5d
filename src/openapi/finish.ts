import { keptForRepeats, type ErrorCode } from '../errors/codes.js';
import { ErrorEnvelope } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS } from '../idempotency/http.js';
import { BODY_ERRORS, COMMON_ERRORS, KEY_ERRORS, errorSchemaOf } from '../routes/schema-helpers.js';
import { componentRef as ref, errorCodesOf, errorDescription, errorExampleRefs, jsonOf } from './error-responses.js';
import { withHeadOperation } from './head-operations.js';
import { hoistNamedSchemas } from './named-schemas.js';
import { EXAMPLE_REQUEST_ID, operationExtras } from './operations.js';
import { shareErrorResponses } from './shared-responses.js';

// What the route schemas cannot say, added to the generated document in one pass: the headers
// every response carries, the request id parameter, per-status descriptions naming the error
// codes, the examples, 405 and HEAD. Last, every named schema moves into components
// (named-schemas.ts), so that operations refer to Invoice, ErrorEnvelope, … by $ref.

type Json = Record<string, unknown>;

interface MediaType {
  schema?: Json;
  examples?: Record<string, unknown>;
}
interface ResponseObject {
  $ref?: string;
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
type PathItem = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, PathItem>;
  components: Json & { headers?: Json; parameters?: Json; schemas?: Json; responses?: Json; examples?: Json };
  [key: string]: unknown;
}

const HEADERS = {
  'X-Request-Id': {
    description:
      "The request id: the client's X-Request-Id when it is 1-128 characters of [A-Za-z0-9._:-], else req_<uuid>. Same as meta.requestId.",
    schema: { type: 'string', examples: [EXAMPLE_REQUEST_ID] },
  },
  'RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer', examples: [600] } },
  'RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', examples: [599] },
  },
  'RateLimit-Reset': {
    description: 'Seconds until the current window ends.',
    schema: { type: 'integer', examples: [60] },
  },
  'RateLimit-Policy': {
    description: 'The policy: "<limit>;w=<window seconds>".',
    schema: { type: 'string', examples: ['600;w=60'] },
  },
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', examples: [1] } },
  'Idempotent-Replayed': {
    description:
      'Present (true) when this answer is the stored answer of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
  Allow: {
    description: 'The methods this path serves, e.g. "GET, POST".',
    schema: { type: 'string', examples: ['GET, POST'] },
  },
} as const;

const REQUEST_ID_PARAMETER = {
  name: 'X-Request-Id',
  in: 'header',
  required: false,
  description: 'Your id for this request (1-128 characters of [A-Za-z0-9._:-]); otherwise the service makes one.',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
};

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy'];

/** Codes answered before the handler runs, or by the idempotency layer itself: never stored, so never replayed. */
const ANSWERED_OUTSIDE_THE_HANDLER = new Set<ErrorCode>([
  ...KEY_ERRORS,
  ...BODY_ERRORS,
  ...COMMON_ERRORS,
  ...IDEMPOTENCY_ERRORS,
]);

/** Whether an idempotent operation may answer this response as the replay of a stored one. */
function replayable(status: string, codes: ErrorCode[]): boolean {
  if (status.startsWith('2')) return true;
  return codes.some((code) => keptForRepeats(code) && !ANSWERED_OUTSIDE_THE_HANDLER.has(code));
}

const STATUS_TEXT: Record<string, string> = { '200': 'OK', '201': 'Created' };

/** Path item keys that hold operations, in the order the document lists them. */
const OPERATION_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'trace'];

function finishResponse(
  status: string,
  response: ResponseObject,
  idempotent: boolean,
  successExample: unknown,
  examples: Json,
): void {
  const json = response.content?.['application/json'];
  const codes = errorCodesOf(json?.schema);
  const headers: Record<string, unknown> = { 'X-Request-Id': ref('headers', 'X-Request-Id') };
  for (const name of RATE_LIMIT_HEADERS) headers[name] = ref('headers', name);
  if (status === '429' || codes.includes('IDEMPOTENCY_CONFLICT'))
    headers['Retry-After'] = ref('headers', 'Retry-After');
  if (idempotent && replayable(status, codes)) headers['Idempotent-Replayed'] = ref('headers', 'Idempotent-Replayed');
  response.headers = { ...headers, ...(response.headers ?? {}) };

  if (codes.length > 0) {
    response.description = errorDescription(codes);
    if (json) json.examples = errorExampleRefs(codes, examples);
  } else {
    if (!response.description || response.description === 'Default Response')
      response.description = STATUS_TEXT[status] ?? 'Success';
    if (json && successExample !== undefined) json.examples = { example: { value: successExample } };
  }
}

/** The 405 every path answers to the methods it does not serve, described once. */
function methodNotAllowedResponse(examples: Json): ResponseObject {
  const headers: Record<string, unknown> = {
    Allow: ref('headers', 'Allow'),
    'X-Request-Id': ref('headers', 'X-Request-Id'),
  };
  for (const name of RATE_LIMIT_HEADERS) headers[name] = ref('headers', name);
  return {
    description: `Not served on this path with this method; \`Allow\` lists the methods it serves. ${errorDescription(['METHOD_NOT_ALLOWED'])}`,
    headers,
    content: {
      'application/json': {
        schema: jsonOf(errorSchemaOf('METHOD_NOT_ALLOWED')),
        examples: errorExampleRefs(['METHOD_NOT_ALLOWED'], examples),
      },
    },
  };
}

function finishOperation(method: string, path: string, operation: Operation, examples: Json): void {
  const extras = operationExtras(method, path);
  const idempotent = (operation.parameters ?? []).some(
    (p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key',
  );
  operation.parameters = [...(operation.parameters ?? []), ref('parameters', 'RequestId')];
  const body = operation.requestBody?.content?.['application/json'];
  if (body && extras?.requestBody !== undefined) body.examples = { example: { value: extras.requestBody } };
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    finishResponse(status, response, idempotent, extras?.response, examples);
  }
  operation.responses = { ...operation.responses, '405': ref('responses', 'MethodNotAllowed') };
}

export function finishDocument(document: OpenApiDocument): OpenApiDocument {
  const examples: Json = { ...(document.components.examples ?? {}) };
  document.components = {
    ...document.components,
    headers: { ...(document.components.headers ?? {}), ...HEADERS },
    parameters: { ...(document.components.parameters ?? {}), RequestId: REQUEST_ID_PARAMETER },
    responses: { ...(document.components.responses ?? {}), MethodNotAllowed: methodNotAllowedResponse(examples) },
    // Any error answer, for clients that handle errors in one place; each operation names its
    // exact codes with the per-code envelopes (NameConflictError, …).
    schemas: { ...(document.components.schemas ?? {}), ErrorEnvelope: jsonOf(ErrorEnvelope) },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of OPERATION_METHODS) {
      const operation = item[method] as Operation | undefined;
      if (operation) finishOperation(method, path, operation, examples);
    }
  }
  shareErrorResponses(document.paths, document.components);
  for (const [path, item] of Object.entries(document.paths)) {
    const withHead = withHeadOperation(item, document.components.responses as Record<string, Json>);
    const served = OPERATION_METHODS.filter((m) => m in withHead).map((m) => m.toUpperCase());
    document.paths[path] = {
      description: `Serves ${served.join(', ')}. Any other method is answered 405 \`METHOD_NOT_ALLOWED\` with an \`Allow\` header.`,
      ...withHead,
    };
  }
  document.components.examples = examples;
  return hoistNamedSchemas(document);
}
