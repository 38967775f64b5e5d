import { sql, type RawBuilder } from 'kysely';

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `column like pattern`, with the escape character named: SQLite's LIKE has none unless one is
 * named; PostgreSQL's is the same one.
 */
export function like(column: string, pattern: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
}

/** A page of a list shown by page number: how many match, and one page of them. */
export interface CountedPage<T> {
  total: number;
  rows: T[];
}

/** A page window: where it starts and how many it holds, given how many rows match. */
export type PageAt = (total: number) => { offset: number; limit: number };
