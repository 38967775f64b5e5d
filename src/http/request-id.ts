import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id is decided once, at the edge: the client's X-Request-Id when it is safe to
 * echo and log, otherwise a fresh req_<uuid v4>. Fastify binds it into every log line.
 */
export function requestIdFor(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  if (typeof header === 'string' && CLIENT_REQUEST_ID.test(header)) return header;
  return `req_${randomUUID()}`;
}
