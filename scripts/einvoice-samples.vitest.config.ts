import { defineConfig } from 'vitest/config';

// Only for scripts/validate-einvoices.mjs: runs the sample writer, which is not a test.
export default defineConfig({
  test: { include: ['scripts/einvoice-samples.ts'], pool: 'forks', reporters: ['dot'] },
});
