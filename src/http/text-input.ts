import type { FastifyInstance } from 'fastify';
import { AppError, validationError, type ErrorDetail } from '../errors/app-error.js';

// Text is stored exactly as sent, or refused — never changed on the way:
// - PostgreSQL text cannot hold the NUL character (U+0000): a string with one made the insert or
//   the lookup fail with a driver error, a 500, while SQLite stored it.
// - A lone UTF-16 surrogate ("\ud800" in JSON) is no character at all: both databases store text
//   as UTF-8, which cannot encode it, and it read back as U+FFFD (one on PostgreSQL, three on
//   SQLite).
// Such text is refused at the edge, the same way on both databases: in a body or query as a 400
// naming the field, in a path (an id) as 404, since no resource can have that id.

/** Whether the string can be stored and read back unchanged. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** The fields (lines[0].name) of strings that cannot be stored unchanged, walked without recursion. */
export function unstorableFields(value: unknown): string[] {
  const fields: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (!isStorableText(current)) fields.push(path);
    } else if (ArrayBuffer.isView(current)) {
      // Bytes (a received document's raw body) are stored as bytes, not text: nothing to check, nothing to walk.
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]` }));
    } else if (current !== null && typeof current === 'object') {
      for (const [name, item] of Object.entries(current))
        pending.push({ value: item, path: path ? `${path}.${name}` : name });
    }
  }
  return fields.sort();
}

const detail = (field: string): ErrorDetail => ({
  field,
  code: 'invalid_character',
  message: 'Must not contain the NUL character or an unpaired UTF-16 surrogate.',
});

/**
 * Refuses text that cannot be stored unchanged in the path, query or body of every route that declares a schema
 * for them (the parts it reads). A preHandler, so it runs after authentication and after the
 * route's own validation, whose answers come first.
 */
export function registerTextInputCheck(app: FastifyInstance): void {
  // A callback hook, not an async one: it never waits, and a promise per request is measurable.
  app.addHook('preHandler', (request, _reply, done) => {
    const schema = request.routeOptions.schema ?? {};
    if (schema.params && unstorableFields(request.params).length > 0) return done(new AppError('NOT_FOUND'));
    const fields = [
      ...(schema.querystring ? unstorableFields(request.query) : []),
      ...(schema.body ? unstorableFields(request.body) : []),
    ];
    if (fields.length > 0) return done(validationError([...new Set(fields)].map((field) => detail(field || 'body'))));
    done();
  });
}
