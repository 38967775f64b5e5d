import type { FastifyInstance } from 'fastify';
import { validationError } from '../errors/app-error.js';

// Query strings are decoded strictly: a value whose percent-encoding is not valid UTF-8 is not
// guessed at (kept raw, or turned into U+FFFD) but refused, with a 400 naming the parameter. The
// parser itself must never throw (it runs inside the router), so it marks such values and a
// preValidation hook refuses them, before the schema looks at types.

export class UndecodableValue {
  constructor(readonly raw: string) {}
}

function decode(text: string): string | UndecodableValue {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return new UndecodableValue(text);
  }
}

/** application/x-www-form-urlencoded query text to an object; repeated names give arrays. */
export function parseQueryString(text: string): Record<string, unknown> {
  const result: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (text.length === 0) return result;
  for (const part of text.split('&')) {
    if (part === '') continue;
    const at = part.indexOf('=');
    const name = decode(at === -1 ? part : part.slice(0, at));
    const value = decode(at === -1 ? '' : part.slice(at + 1));
    const key = typeof name === 'string' ? name : name.raw;
    const existing = result[key];
    if (existing === undefined) result[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else result[key] = [existing, value];
  }
  return result;
}

export function registerQueryEncodingCheck(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const query = request.query as Record<string, unknown> | undefined;
    if (!query) return done();
    const fields = Object.entries(query)
      .filter(([, value]) => (Array.isArray(value) ? value : [value]).some((v) => v instanceof UndecodableValue))
      .map(([name]) => name);
    if (fields.length > 0) {
      return done(
        validationError(
          fields.map((field) => ({
            field,
            code: 'invalid_encoding',
            message: 'Must be valid UTF-8 percent-encoding.',
          })),
        ),
      );
    }
    done();
  });
}
