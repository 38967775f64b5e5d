import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';

/**
 * The OpenAPI document without a running server or a real database: the app is built on an
 * in-memory SQLite database, asked for its document, and closed. Used by `npm run generate:client`.
 */
export async function renderOpenApiDocument(): Promise<Record<string, unknown>> {
  const config = { ...loadConfig({}), databaseUrl: 'sqlite::memory:', logLevel: 'silent' as const, redisUrl: undefined };
  const app = await buildApp({ config });
  try {
    await app.ready();
    return structuredClone(app.swagger()) as unknown as Record<string, unknown>;
  } finally {
    await app.close();
  }
}
