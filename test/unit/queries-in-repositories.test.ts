import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The lint rule that keeps every query in a repository (eslint.layers.js), run through the ESLint
// API on source text placed, by its file name, in one folder or another of src/.
const eslint = new ESLint({ cwd: join(import.meta.dirname, '../..') });

async function queryProblems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(import.meta.dirname, '../..', path) });
  return result!.messages
    .filter((message) => message.ruleId === 'layers/queries-in-repositories')
    .map((message) => message.message);
}

const QUERY = `import type { Kysely } from 'kysely';
export async function names(db: Kysely<{ users: { name: string } }>): Promise<string[]> {
  return (await db.selectFrom('users').select('name').execute()).map((row) => row.name);
}
`;

describe('the rule that keeps queries in repositories', () => {
  it('refuses a query builder in the panel, a route, a service and a capability folder', async () => {
    for (const path of [
      'src/panel/fixture.ts',
      'src/routes/fixture.ts',
      'src/services/fixture.ts',
      'src/webhooks/fixture.ts',
    ]) {
      const problems = await queryProblems(path, QUERY);
      expect(problems, path).toEqual([expect.stringContaining('A query (selectFrom) outside a repository')]);
    }
  });

  it('refuses every kind of query: insert, update, delete and a common table expression', async () => {
    const code = `export async function all(db: any): Promise<void> {
  await db.insertInto('t').values({}).execute();
  await db.updateTable('t').set({}).execute();
  await db.deleteFrom('t').execute();
  await db.with('x', (q: any) => q.selectFrom('t')).selectFrom('x').execute();
}
`;
    const problems = await queryProblems('src/services/fixture.ts', code);
    for (const name of ['insertInto', 'updateTable', 'deleteFrom', 'with']) {
      expect(
        problems.some((problem) => problem.includes(`(${name})`)),
        name,
      ).toBe(true);
    }
  });

  it("refuses Kysely's sql tag outside a repository but not a type-only import", async () => {
    expect(
      await queryProblems('src/panel/fixture.ts', `import { sql } from 'kysely';\nexport const now = sql\`now()\`;\n`),
    ).toEqual([expect.stringContaining("Kysely's sql tag outside a repository")]);
    expect(
      await queryProblems(
        'src/panel/fixture.ts',
        `import type { Kysely } from 'kysely';\nexport type Db = Kysely<object>;\n`,
      ),
    ).toEqual([]);
  });

  it('allows queries in src/repositories, in src/db and in a capability folder’s own repository file', async () => {
    for (const path of [
      'src/repositories/fixture-repository.ts',
      'src/db/fixture.ts',
      'src/webhooks/fixture-repository.ts',
    ]) {
      expect(await queryProblems(path, QUERY), path).toEqual([]);
    }
  });

  it('leaves alone what only looks like a query: starting a transaction and Array.prototype.with', async () => {
    const code = `export async function fine(db: any, list: number[]): Promise<number[]> {
  await db.transaction().execute(async () => undefined);
  return list.with(0, 1);
}
`;
    expect(await queryProblems('src/services/fixture.ts', code)).toEqual([]);
  });
});
