import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';

// Clients generated from the served document must be usable as they come: the programs in
// test/client-programs create an organization and an invoice with a line discount through them
// without a single cast, and tsc (one run, no emit) must accept them. Generation happens offline,
// from node_modules, into a temporary folder inside node_modules/.cache so that the programs
// resolve openapi-fetch like any project would.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROGRAMS = join(ROOT, 'test/client-programs');

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
    skipLibCheck: true,
  },
  include: ['**/*.ts'],
};

describe('clients generated from the served OpenAPI document', () => {
  let t: TestApp;
  let document: Record<string, unknown>;
  let folder: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    document = (await t.request({ method: 'GET', url: `${BASE_PATH}/openapi.json` })).json();
    mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true });
    folder = mkdtempSync(join(ROOT, 'node_modules/.cache/openapi-clients-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    await t.close();
  });

  it('create an organization and an invoice with a line discount, type-checked without a cast', async () => {
    await createClient({
      input: structuredClone(document),
      output: { path: join(folder, 'hey-api') },
      plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
      logs: { level: 'silent' },
    });
    mkdirSync(join(folder, 'openapi-typescript'));
    writeFileSync(
      join(folder, 'openapi-typescript/schema.d.ts'),
      astToString(await openapiTS(structuredClone(document) as never)),
    );
    cpSync(PROGRAMS, folder, { recursive: true, filter: (source) => !source.endsWith('.md') });
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG));

    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', folder], {
      encoding: 'utf8',
    });
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
  }, 120_000);
});
