import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { validationError } from '../../errors/app-error.js';
import { Nullable } from '../schema-helpers.js';

// Keyset pagination, newest first, over (created_at, id): a page starts strictly after the last
// row of the previous one, so rows created meanwhile (newer, hence before the cursor) neither
// shift nor repeat the pages still to come. The cursor is opaque to clients.

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export interface Cursor {
  createdAt: string;
  id: string;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const ID = /^[A-Za-z0-9_-]{1,100}$/;

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.createdAt}|${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor, or a 400 VALIDATION_ERROR naming the `cursor` field. */
export function decodeCursor(raw: string): Cursor {
  const text = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
  const [createdAt, id, ...rest] = text.split('|');
  if (createdAt === undefined || id === undefined || rest.length > 0 || !INSTANT.test(createdAt) || !ID.test(id)) {
    throw validationError([{ field: 'cursor', code: 'invalid_cursor', message: 'Must be a nextCursor value this API returned.' }]);
  }
  return { createdAt, id };
}

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Items per page, 1 to 100.' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 400, description: 'The nextCursor of the previous page; absent for the first page.' })),
};

/** A page of `item`s; named `<item's title>Page` when the item is named. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object(
    {
      items: Type.Array(item, { maxItems: MAX_LIMIT, description: 'Newest first.' }),
      nextCursor: Nullable(Type.String({ description: 'Pass as cursor to get the next page; null on the last page.' })),
    },
    item.title === undefined ? {} : { title: `${item.title}Page` },
  );
}

/** A page from `limit + 1` rows: the extra row only says that another page exists. */
export function pageOf<R extends { created_at: string; id: string }>(rows: R[], limit: number): { rows: R[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  const last = page[page.length - 1]!;
  return { rows: page, nextCursor: encodeCursor({ createdAt: last.created_at, id: last.id }) };
}

/**
 * Query strings are text; the app's validator does not coerce types (bodies must be exact), so
 * the integers and booleans a list declares are converted here, before validation. Anything
 * else is left as sent, for the schema to refuse.
 */
export function coerceQuery(schema: TObject) {
  return async (request: FastifyRequest) => {
    const query = request.query as Record<string, unknown>;
    for (const [name, value] of Object.entries(query)) {
      const property = schema.properties[name] as { type?: string } | undefined;
      if (typeof value !== 'string' || !property) continue;
      if (property.type === 'integer' && /^-?\d{1,15}$/.test(value)) query[name] = Number(value);
      else if (property.type === 'boolean' && (value === 'true' || value === 'false')) query[name] = value === 'true';
    }
  };
}
