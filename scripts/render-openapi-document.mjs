// The OpenAPI document without a running server or a real database: the built app (dist/, so
// build first) on an in-memory SQLite database, asked for its document, and closed. Used by
// `npm run generate:client` (examples/client/generate.mjs). It starts the whole app, so it lives
// here, above it, and not in src/openapi/, which the app itself imports.
import { buildApp } from '../dist/app.js';
import { loadConfig } from '../dist/config.js';

/** @returns {Promise<Record<string, unknown>>} */
export async function renderOpenApiDocument() {
  const config = { ...loadConfig({}), databaseUrl: 'sqlite::memory:', logLevel: 'silent', redisUrl: undefined };
  const app = await buildApp({ config });
  try {
    await app.ready();
    return structuredClone(app.swagger());
  } finally {
    await app.close();
  }
}
