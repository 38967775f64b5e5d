import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../errors/app-error.js';

// Request bodies are JSON, read so that nothing the client wrote is changed silently:
// - A number is kept as a number only when that number prints back as exactly the text the
//   client sent ("19.99" is 19.99). Otherwise (1234567890123.123456, 0.10, 1e2, a 34-digit
//   fraction) the client's own text is kept, as a string: a decimal field then reads it exactly
//   (or refuses it with a field detail), and any other field refuses it as the wrong type. No
//   value is ever rounded by a float on the way in. (JSON.parse's source text: Node 22+.)
// - A charset other than UTF-8 is refused with 415 rather than misread.
// - __proto__ and constructor.prototype keys are refused (400), as Fastify's own parser does.

interface ReviverContext {
  source?: string;
}

function keepExactNumbers(_key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === 'number' && context?.source !== undefined && String(value) !== context.source)
    return context.source;
  return value;
}

const UTF8 = /^utf-?8$/i;

/** The charset parameter of a Content-Type header, lower-cased, or undefined. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match?.[1];
}

function parseError(message: string): Error {
  return Object.assign(new SyntaxError(message), { statusCode: 400 });
}

export function parseJsonBody(text: string): unknown {
  if (text === '' || /^\s*$/.test(text)) {
    throw Object.assign(new Error('empty body'), { code: 'FST_ERR_CTP_EMPTY_JSON_BODY', statusCode: 400 });
  }
  try {
    return secureJson.parse(text, keepExactNumbers as (this: unknown, key: string, value: unknown) => unknown, {
      protoAction: 'error',
      constructorAction: 'error',
    });
  } catch (error) {
    throw parseError(error instanceof Error ? error.message : 'invalid JSON');
  }
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && !UTF8.test(charset)) {
      done(
        new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'The request body must be JSON in UTF-8 (charset=utf-8, or no charset).',
        ),
        undefined,
      );
      return;
    }
    // A POST without a body (void, or finalize without options) may still say it sends JSON.
    if (body === '' && (!request.routeOptions.schema?.body || request.routeOptions.config.optionalBody)) {
      done(null, undefined);
      return;
    }
    try {
      done(null, parseJsonBody(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
