import { defineConfig } from 'vitest/config';

// Only for scripts/validate-einvoices.mjs --api: runs the API sample writer, which is not a test.
export default defineConfig({
  test: { include: ['scripts/einvoice-api-samples.ts'], pool: 'forks', reporters: ['dot'], hookTimeout: 60_000 },
});
