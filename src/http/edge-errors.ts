import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { errorBody } from './envelope.js';

// Answers that Fastify or Node's HTTP server would write in their own JSON, before any route,
// hook or error handler of ours runs: a URL that is not valid percent-encoding, a path parameter
// longer than the router keeps, headers too large (431), headers or body too slow (408), and
// bytes that are not HTTP. Each is answered here in the error envelope with the headers every
// answer carries, and never echoes what the client sent.

export const EDGE_HEADERS = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
} as const;

/** Fastify's `frameworkErrors`: a bad URL is 400, an over-long path parameter 404 (no such resource). */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const appError =
    error.code === 'FST_ERR_BAD_URL'
      ? new AppError('VALIDATION_ERROR', 'The URL is not valid: it holds a malformed percent-encoding.', {
          details: [{ field: 'url', code: 'invalid_encoding', message: 'Must be valid UTF-8 percent-encoding.' }],
        })
      : new AppError('NOT_FOUND');
  void reply
    .code(appError.status)
    .headers({ ...EDGE_HEADERS, 'x-request-id': request.id, 'content-type': 'application/json; charset=utf-8' })
    .send(JSON.stringify(errorBody(request.id, appError.code, appError.message, appError.details)));
}

function clientErrorCode(error: NodeJS.ErrnoException): ErrorCode {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 'REQUEST_HEADERS_TOO_LARGE';
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 'REQUEST_TIMEOUT';
  return 'MALFORMED_REQUEST';
}

/**
 * Node's `clientError`: the request never became one (no route, no hooks), so the answer is
 * written to the socket directly, with a fresh request id, and the connection is closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const appError = new AppError(clientErrorCode(error));
    const requestId = `req_${randomUUID()}`;
    const body = JSON.stringify(errorBody(requestId, appError.code, appError.message));
    const head = [
      `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status] ?? 'Error'}`,
      'content-type: application/json; charset=utf-8',
      `content-length: ${Buffer.byteLength(body)}`,
      `x-request-id: ${requestId}`,
      ...Object.entries(EDGE_HEADERS).map(([name, value]) => `${name}: ${value}`),
      'connection: close',
    ].join('\r\n');
    socket.write(`${head}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
