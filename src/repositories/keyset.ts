import { sql, type ExpressionBuilder, type RawBuilder } from 'kysely';

// Keyset pagination, newest first, over (created_at, id): a page starts strictly after the last
// row of the previous one (src/routes/reading/pagination.ts makes and reads the opaque cursor).

export interface Cursor {
  createdAt: string;
  id: string;
}

/** Rows strictly after the cursor, newest first: older, or as old with a smaller id. */
export function afterCursor(after: Cursor) {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any table with created_at and id
  return (eb: ExpressionBuilder<any, any>) =>
    eb.or([
      eb('created_at', '<', after.createdAt),
      eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
    ]);
}

/**
 * A document number that starts with `prefix`, exactly and case-sensitively, the same on both
 * databases: the number's first characters (as many as the prefix has, counted by the database)
 * equal it. LIKE would need escaping and is case-insensitive on SQLite only.
 */
export function numberStartsWith(prefix: string): RawBuilder<boolean> {
  return sql<boolean>`substr(number, 1, length(cast(${prefix} as text))) = cast(${prefix} as text)`;
}
