import type { FastifyInstance } from 'fastify';
import { AppError, validationError, type ErrorDetail } from '../errors/app-error.js';

// PostgreSQL text cannot hold the NUL character (U+0000): a string with one made the insert or
// the lookup fail with a driver error, a 500, while SQLite stored it. Such text is refused at the
// edge instead, the same way on both databases: in a body or query as a 400 naming the field, in
// a path (an id) as 404, since no resource can have that id.

/** The fields (lines[0].name) of strings holding U+0000, walked without recursion. */
export function fieldsWithNul(value: unknown): string[] {
  const fields: string[] = [];
  const pending: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) fields.push(path);
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, path: `${path}[${index}]` }));
    } else if (current !== null && typeof current === 'object') {
      for (const [name, item] of Object.entries(current)) pending.push({ value: item, path: path ? `${path}.${name}` : name });
    }
  }
  return fields.sort();
}

const detail = (field: string): ErrorDetail => ({ field, code: 'invalid_character', message: 'Must not contain the NUL character.' });

/**
 * Refuses text holding U+0000 in the path, query or body of every route that declares a schema
 * for them (the parts it reads). A preHandler, so it runs after authentication and after the
 * route's own validation, whose answers come first.
 */
export function registerTextInputCheck(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    const schema = request.routeOptions.schema ?? {};
    if (schema.params && fieldsWithNul(request.params).length > 0) throw new AppError('NOT_FOUND');
    const fields = [...(schema.querystring ? fieldsWithNul(request.query) : []), ...(schema.body ? fieldsWithNul(request.body) : [])];
    if (fields.length > 0) throw validationError([...new Set(fields)].map((field) => detail(field || 'body')));
  });
}
