import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';

// Answer serializers are compiled on a route's first answer (src/http/schema-compilers.ts), no
// longer at start-up. compileAllSchemas does what start-up did, so a schema that cannot compile
// still fails here, not at a customer's first call of a rarely used route.
describe('answer serializers compiled on first use', () => {
  let fresh: TestApp;
  let used: TestApp;

  beforeAll(async () => {
    [fresh, used] = await Promise.all([buildTestApp('sqlite'), buildTestApp('sqlite')]);
  });
  afterAll(async () => Promise.all([fresh.close(), used.close()]));

  it('compiles every route’s answer serializers without an error when asked to, and only once', () => {
    // Well over a hundred routes answer with at least one schema each.
    expect(fresh.app.compileAllSchemas()).toBeGreaterThan(200);
    expect(fresh.app.compileAllSchemas()).toBe(0);
  });

  it('compiles a route’s serializer at its first answer, and answers the same with it again', async () => {
    const { key } = await used.tenant();
    const first = await used.get('/', key);
    const second = await used.get('/', key);
    expect(first.statusCode).toBe(200);
    expect(second.json().data).toEqual(first.json().data);
    // What the answers compiled is not left for compileAllSchemas.
    const untouched = await buildTestApp('sqlite');
    try {
      expect(used.app.compileAllSchemas()).toBeLessThan(untouched.app.compileAllSchemas());
    } finally {
      await untouched.close();
    }
  });
});
