import { defineConfig } from 'vitest/config';
import { requireSupportedRuntime } from './src/runtime.js';

// `npx vitest` without `npm test` meets the same check: an old Node stops with one line.
requireSupportedRuntime();

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // Servers and CLIs the tests start on PostgreSQL need a data key, as in production.
    env: { DATA_ENCRYPTION_KEY: 'dGVzdC1vbmx5LWRhdGEta2V5LW5ldmVyLWluLXByb2Q=' },
  },
});
