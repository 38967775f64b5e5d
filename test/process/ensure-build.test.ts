import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { staleReason } from '../../scripts/ensure-build.mjs';

// `npm start` runs scripts/ensure-build.mjs: it must rebuild when a source is newer than its
// output, and only then, so that a start after `npm ci` does not compile again.

describe('the start-up build check', () => {
  let root: string;
  const at = (path: string, seconds: number) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  };
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'invoicing-ensure-build-'));
    at('src/server.ts', 1000);
    at('src/routes/health.ts', 1000);
    at('tsconfig.json', 900);
    at('dist/server.js', 2000);
    at('dist/routes/health.js', 2000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds a build that is newer than every source fresh', () => {
    expect(staleReason(root)).toBeNull();
  });

  it('rebuilds when a source changed after its output was written', () => {
    at('src/routes/health.ts', 3000);
    expect(staleReason(root)).toBe('src/routes/health.ts changed after it was built');
  });

  it('rebuilds when a source has no output yet, or nothing was built', () => {
    at('src/routes/new-route.ts', 1000);
    expect(staleReason(root)).toBe('dist/routes/new-route.js does not exist');
    rmSync(join(root, 'dist'), { recursive: true });
    expect(staleReason(root)).toBe('dist/server.js does not exist');
  });

  it('rebuilds when the TypeScript configuration changed after the build', () => {
    at('tsconfig.json', 2500);
    expect(staleReason(root)).toBe('tsconfig.json changed after the build');
  });

  it('finds the build of this clone fresh, as `npm start` will', () => {
    expect(staleReason()).toBeNull();
  });
});
