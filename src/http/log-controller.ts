import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

// The panel's one-time setup link carries its secret in the query (?token=…); whoever reads the
// log must not be able to claim the instance with it.
const SECRET_QUERY_VALUE = /([?&]token=)[^&#]*/gi;
// A hosted page's address is its token (/hosted/<token>, /hosted/<token>/pdf): whoever reads the
// log must not be able to open the customer's page with it.
const HOSTED_TOKEN = /^(\/hosted\/)[^/?#]+/i;

/** The URL as logged: secrets in the path and query values that are secrets replaced. */
export function loggableUrl(url: string): string {
  return url.replace(HOSTED_TOKEN, '$1[redacted]').replace(SECRET_QUERY_VALUE, '$1[redacted]');
}

/** One access-log line per request, at completion, carrying the request id like every other line. */
export class AccessLogController extends LogController {
  constructor() {
    super({ requestIdLogLabel: 'requestId' });
  }

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      url: loggableUrl(request.url),
      statusCode: reply.statusCode,
      responseTimeMs: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
