import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { validationError } from '../../errors/app-error.js';
import { Nullable } from '../../schemas/nullable.js';
import type { Cursor } from '../../repositories/keyset.js';

// Keyset pagination, newest first, over (created_at, id): a page starts strictly after the last
// row of the previous one, so rows created meanwhile (newer, hence before the cursor) neither
// shift nor repeat the pages still to come. The cursor is opaque to clients.

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export type { Cursor };

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
    throw validationError([
      { field: 'cursor', code: 'invalid_cursor', message: 'Must be a nextCursor value this API returned.' },
    ]);
  }
  return { createdAt, id };
}

/**
 * A cursor into a list kept in order inside one resource (a received document's unmapped
 * values): the number of items passed. Opaque to clients as every cursor.
 */
export function encodePositionCursor(passed: number): string {
  return Buffer.from(`at|${passed}`, 'utf8').toString('base64url');
}

/** The items a position cursor passed, or a 400 VALIDATION_ERROR naming the `cursor` field. */
export function decodePositionCursor(raw: string): number {
  const text = /^[A-Za-z0-9_-]+$/.test(raw) ? Buffer.from(raw, 'base64url').toString('utf8') : '';
  const match = /^at\|([1-9]\d{0,8})$/.exec(text);
  if (!match)
    throw validationError([
      { field: 'cursor', code: 'invalid_cursor', message: 'Must be a nextCursor value this API returned.' },
    ]);
  return Number(match[1]);
}

export const PageQuery = {
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: 'Items per page, 1 to 100.' }),
  ),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 400,
      description: 'The nextCursor of the previous page; absent for the first page.',
    }),
  ),
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

/**
 * What the envelope around a page's items may take at most: success, message, meta and a
 * nextCursor (at most 400 characters) fit well within it.
 */
export const ENVELOPE_ALLOWANCE_BYTES = 2048;

/** A page as JSON text: its items serialized once, measured, and sent as they are. */
export interface SerializedPage {
  itemsJson: string[];
  nextCursor: string | null;
}

/**
 * A page's items within a byte budget (RESPONSE_MAX_BYTES): an item is taken while the answer
 * stays within the budget, and the first item always is, so a page is never empty while items
 * remain. Each item is serialized once: the text measured is the text sent.
 */
export class PageBudget<T> {
  readonly itemsJson: string[] = [];
  private used = ENVELOPE_ALLOWANCE_BYTES;
  /** True once an item was refused: the page ends before it. */
  full = false;

  constructor(private readonly maxBytes: number) {}

  /** Bytes left before the budget. */
  get remaining(): number {
    return Math.max(0, this.maxBytes - this.used);
  }

  get count(): number {
    return this.itemsJson.length;
  }

  /** The average size of the items taken so far (1 when none was). */
  get averageItemBytes(): number {
    return this.count === 0 ? 1 : Math.max(1, (this.used - ENVELOPE_ALLOWANCE_BYTES) / this.count);
  }

  offer(item: T): boolean {
    if (this.full) return false;
    return this.offerJson(JSON.stringify(item));
  }

  /** An item that is JSON text already (a stored event): taken as it is. */
  offerJson(json: string): boolean {
    if (this.full) return false;
    const size = Buffer.byteLength(json) + 1;
    if (this.count > 0 && this.used + size > this.maxBytes) {
      this.full = true;
      return false;
    }
    this.itemsJson.push(json);
    this.used += size;
    return true;
  }
}

/**
 * The cursor after a page that took `taken` of `rows` (fetched with `limit + 1`): another page
 * exists when the budget ended the page early or an extra row was fetched.
 */
export function cursorAfter<R extends { created_at: string; id: string }>(
  rows: R[],
  taken: number,
  limit: number,
): string | null {
  if (taken === 0 || (taken === rows.length && rows.length <= limit)) return null;
  const last = rows[taken - 1]!;
  return encodeCursor({ createdAt: last.created_at, id: last.id });
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

/** The `number` filter of the invoice and credit-note lists. */
export const NumberPrefixQuery = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description:
      'Only documents whose number starts with this (case-sensitive): 2026-00001 finds that one; 2026- every one of 2026; TEST- in test mode.',
    examples: ['2026-0004'],
  }),
);
