import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { requireSupportedRuntime } from './src/runtime.js';

// `npx vitest` without `npm test` meets the same check: an old Node stops with one line.
requireSupportedRuntime();

// The suite in four tiers (test/README.md), each a vitest project that runs alone with
// `npm run test:<tier>`. Groups run one after the other: first the in-process tiers on every core,
// then the tiers that start servers, clusters, CLIs and Chromium, one file per two cores (one file
// at a time on a two-core machine), so that a file and the processes it starts have two cores
// instead of starving beside other files.
const IN_PROCESS = 0;
const OUT_OF_PROCESS = 1;
const OUT_OF_PROCESS_WORKERS = Math.max(1, Math.floor(availableParallelism() / 2));

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // Servers and CLIs the tests start on PostgreSQL need a data key, as in production.
    env: { DATA_ENCRYPTION_KEY: 'dGVzdC1vbmx5LWRhdGEta2V5LW5ldmVyLWluLXByb2Q=' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Short, but with room for the property tests (8 s alone) on a loaded two-core machine.
          testTimeout: 20_000,
          hookTimeout: 20_000,
          sequence: { groupOrder: IN_PROCESS },
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/api/**/*.test.ts'],
          sequence: { groupOrder: IN_PROCESS },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/process/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: OUT_OF_PROCESS_WORKERS,
          sequence: { groupOrder: OUT_OF_PROCESS },
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: OUT_OF_PROCESS_WORKERS,
          sequence: { groupOrder: OUT_OF_PROCESS },
        },
      },
    ],
  },
});
