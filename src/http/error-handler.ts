import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, validationError, type ErrorDetail } from '../errors/app-error.js';
import { ERRORS } from '../errors/codes.js';
import { isUnavailable } from '../db/dialect.js';
import { SERVED_VERSIONS } from './api-version.js';
import { errorBody } from './envelope.js';

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** "/lines/3/unitPrice" -> "lines[3].unitPrice" */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

function detailOf(error: AjvError, root: string): ErrorDetail {
  const params = error.params;
  switch (error.keyword) {
    case 'required':
      return {
        field: fieldPath(error.instancePath, String(params.missingProperty)) || root,
        code: 'required',
        message: 'This field is required.',
      };
    case 'additionalProperties':
      return {
        field: fieldPath(error.instancePath, String(params.additionalProperty)),
        code: 'unknown_field',
        message: 'This field is not allowed.',
      };
    default:
      return {
        field: fieldPath(error.instancePath) || root,
        code:
          error.keyword === 'type'
            ? 'invalid_type'
            : `invalid_${error.keyword}`.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
        message: error.message ? `Must ${error.message.replace(/^must /, '')}.` : 'This value is not valid.',
      };
  }
}

/** Schema validation failures of Fastify, as field details. One detail per field and problem. */
export function detailsFromValidation(errors: AjvError[], context: string | undefined): ErrorDetail[] {
  const root = context ?? 'body';
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    // A nullable field reports "must be null" beside the real problem; it adds nothing.
    if (error.keyword === 'type' && error.params.type === 'null') continue;
    const detail = detailOf(error, root);
    const key = `${detail.field}|${detail.code}`;
    if (!seen.has(key)) {
      seen.add(key);
      details.push(detail);
    }
  }
  return details;
}

/** Any thrown thing, as the AppError the client will see. Unknown errors become a bare 500. */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as Partial<FastifyError> & { validation?: AjvError[]; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    return validationError(detailsFromValidation(fastifyError.validation, fastifyError.validationContext));
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('INVALID_JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('VALIDATION_ERROR', 'The Content-Length header does not match the body.');
  }
  if (error instanceof SyntaxError && fastifyError.statusCode === 400) {
    return new AppError('INVALID_JSON');
  }
  // A dependency that cannot serve right now (down, restarting, locked by another process):
  // the request may succeed when retried, which Retry-After says.
  if (isUnavailable(error))
    return new AppError('SERVICE_UNAVAILABLE', undefined, {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 404) return new AppError('NOT_FOUND');
    if (status === 405) return new AppError('METHOD_NOT_ALLOWED');
    if (status === 413) return new AppError('PAYLOAD_TOO_LARGE');
    if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE');
    return new AppError('VALIDATION_ERROR', ERRORS.VALIDATION_ERROR.message);
  }
  return new AppError('INTERNAL_SERVER_ERROR');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send(errorBody(request.id, error.code, error.message, error.details));
}

const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

const VERSIONED_PATH = /^\/api\/([^/]+)\/public(?:\/|$|\?)/;

/**
 * Any error as the envelope answer, logged by its kind. `reword` lets a group of routes say more
 * than the default message of a code (what media types they take, their size limit).
 */
export function answerError(
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
  reword: (error: AppError) => AppError = (e) => e,
): FastifyReply {
  const appError = reword(toAppError(error));
  if (appError.code === 'SERVICE_UNAVAILABLE') {
    request.log.warn({ err: error }, 'dependency unavailable');
  } else if (appError.status >= 500) {
    // The full error (stack, driver text) goes to the log only, tied to the request id.
    request.log.error({ err: error }, 'request failed');
  }
  return sendError(request, reply, appError);
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => answerError(error, request, reply));

  app.setNotFoundHandler((request, reply) => {
    const version = VERSIONED_PATH.exec(request.url)?.[1];
    if (version !== undefined && !(SERVED_VERSIONS as readonly string[]).includes(version)) {
      return sendError(
        request,
        reply,
        new AppError(
          'NOT_FOUND',
          `API version ${version} is not served. Served versions: ${SERVED_VERSIONS.join(', ')}.`,
        ),
      );
    }
    return sendError(
      request,
      reply,
      new AppError('NOT_FOUND', `No resource at ${request.method} ${(request.url.split('?')[0] ?? '').slice(0, 200)}.`),
    );
  });
}
