import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely';
import type { Database } from './schema.js';

// Kysely builds and compiles a query on every call: on a hot statement that costs as much as the
// statement itself. A prepared query is built and compiled once, with named placeholders, and
// each call only supplies the values. The SQL is the dialect's own (Kysely compiled it), and the
// SQLite driver's statement cache reuses the prepared statement underneath.

const PLACEHOLDER = '\u0000param:';

// On PostgreSQL the server parses and plans every statement it is sent unnamed; a named one is
// parsed once per connection and its plan cached. The SQL of every prepared query is registered
// here, and the PostgreSQL storage sends those (and only those: a bounded set, fixed by the code)
// as named statements.
const hotStatements = new Map<string, string>();
const MAX_HOT_STATEMENTS = 2000;

function registerHot(sql: string): void {
  if (hotStatements.has(sql) || hotStatements.size >= MAX_HOT_STATEMENTS) return;
  hotStatements.set(sql, `hot_${hotStatements.size + 1}`);
}

/** The server-side name of a prepared query's SQL, or undefined for any other statement. */
export function hotStatementName(sql: string): string | undefined {
  return hotStatements.get(sql);
}

export type PreparedQuery<P, R> = (params: P, executor?: Kysely<Database>) => Promise<QueryResult<R>>;

/**
 * `build` receives `param(name)` and must use it for every value of the query; the compiled
 * statement then takes those values by name on each call.
 */
export function prepareQuery<P extends Record<string, unknown>, R = unknown>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, param: <K extends keyof P & string>(name: K) => P[K]) => Compilable<R>,
): PreparedQuery<P, R> {
  const { sql, names } = compileWithNames(db, build);
  registerHot(sql);
  return (params, executor = db) =>
    executor.executeQuery<R>(
      CompiledQuery.raw(
        sql,
        names.map((name) => params[name]),
      ) as CompiledQuery<R>,
    );
}

function compileWithNames<R>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>, param: (name: string) => never) => Compilable<R>,
): { sql: string; names: string[] } {
  const compiled = build(db, (name) => `${PLACEHOLDER}${name}` as never).compile();
  const names = compiled.parameters.map((value) => {
    if (typeof value === 'string' && value.startsWith(PLACEHOLDER)) return value.slice(PLACEHOLDER.length);
    throw new Error(`A prepared query must name every value; found ${JSON.stringify(value)} in: ${compiled.sql}`);
  });
  return { sql: compiled.sql, names };
}

type Table = keyof Database & string;
type Row = Record<string, unknown>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's insert builder types do not survive a generic table.
type InsertBuilder = any;

/**
 * A prepared INSERT of whole rows into `table` (optionally finished with ON CONFLICT or
 * RETURNING). The statement is compiled on the first call for each shape (the row's columns and
 * the number of rows) and reused after.
 */
export function preparedInsert<R = unknown>(
  db: Kysely<Database>,
  table: Table,
  finish: (builder: InsertBuilder) => Compilable<R> = (builder) => builder,
): (rows: readonly object[], executor?: Kysely<Database>) => Promise<QueryResult<R>> {
  const byShape = new Map<string, { sql: string; slots: [number, string][] }>();
  return (rows, executor = db) => {
    const columns = Object.keys(rows[0] ?? {});
    const shape = `${rows.length}:${columns.join(',')}`;
    let prepared = byShape.get(shape);
    if (!prepared) {
      const { sql, names } = compileWithNames<R>(db, (d, param) =>
        finish(
          d
            .insertInto(table)
            .values(rows.map((_, i) => Object.fromEntries(columns.map((c) => [c, param(`${i}:${c}`)]))) as never),
        ),
      );
      // Each placeholder is a (row, column) slot, in the order the SQL takes them.
      const slots = names.map((name): [number, string] => {
        const at = name.indexOf(':');
        return [Number(name.slice(0, at)), name.slice(at + 1)];
      });
      prepared = { sql, slots };
      registerHot(sql);
      if (byShape.size > 1000) byShape.clear();
      byShape.set(shape, prepared);
    }
    const parameters = prepared.slots.map(([i, column]) => (rows[i] as Row)[column]);
    return executor.executeQuery<R>(CompiledQuery.raw(prepared.sql, parameters) as CompiledQuery<R>);
  };
}
