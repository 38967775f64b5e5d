import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { KeyMode } from '../../src/auth/api-key.js';
import { PERMISSION_NAMES, type Permission } from '../../src/auth/permissions.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Container } from '../../src/container.js';
import type { DialectName } from '../../src/db/dialect.js';
import type { Storage } from '../../src/db/database.js';
import { BASE_PATH } from '../../src/http/api-version.js';
import type { Resolve } from '../../src/webhooks/url-safety.js';
import type { DocumentReader } from '../../src/documents/read/read-pool.js';
import type { RateLimitStore } from '../../src/rate-limit/store.js';
import { createTestDatabase, type TestDatabase } from './dialects.js';
import { addContractCheck } from './openapi-contract.js';

export { BASE_PATH };

export interface TestApp {
  app: FastifyInstance;
  container: Container;
  storage: Storage;
  database: TestDatabase;
  config: Config;
  /** A new company; each call makes another tenant. */
  createCompany(name?: string, currency?: string): Promise<string>;
  /** A new key of the company with the given permissions; returns the full key. */
  createKey(
    companyId: string,
    permissions: Permission[],
    options?: { expiresAt?: string; mode?: KeyMode },
  ): Promise<{ key: string; id: string; prefix: string }>;
  /** A company with one key holding every given permission (a live key unless `mode` says test). */
  tenant(permissions?: Permission[], options?: { mode?: KeyMode }): Promise<{ companyId: string; key: string }>;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  post(path: string, body: unknown, key?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  get(path: string, key?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const ALL_PERMISSIONS: Permission[] = PERMISSION_NAMES;

/**
 * Builds the very app the server runs, on a fresh database of the given dialect, with a silent
 * logger unless a stream is given. Close it after the test.
 */
export async function buildTestApp(
  dialect: DialectName,
  overrides: Partial<Config> = {},
  options: {
    logStream?: NodeJS.WritableStream;
    resolve?: Resolve;
    database?: TestDatabase;
    reader?: DocumentReader;
    rateLimitStore?: RateLimitStore;
  } = {},
): Promise<TestApp> {
  // A database given is another app's, opened again as after a restart; it stays when this app closes.
  const database = options.database ?? (await createTestDatabase(dialect));
  const config: Config = {
    ...loadConfig({}),
    // SQLite makes its key file beside the test database; PostgreSQL needs the key given.
    ...(dialect === 'postgres' ? { dataEncryptionKeys: [randomBytes(32)] } : {}),
    databaseUrl: database.url,
    logLevel: options.logStream ? 'info' : 'silent',
    // No reminder pass of its own: a test runs the passes it means (container.reminderScheduler.run).
    reminderIntervalSeconds: 0,
    ...overrides,
  };
  const storage = database.open({ busyTimeoutMs: config.databaseBusyTimeoutMs });
  const app = await buildApp({
    config,
    storage,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.reader ? { reader: options.reader } : {}),
    ...(options.rateLimitStore ? { rateLimitStore: options.rateLimitStore } : {}),
  });
  // Every response under the base path is checked against the OpenAPI document (one hook for the suite).
  const contract = addContractCheck(app);
  await app.ready();
  const container = app.container;

  const createCompany = async (name = 'Test GmbH', currency = 'EUR') => {
    const result = await container.companies.create({ name, currency, vatId: 'DE123456789', countryCode: 'DE' });
    if (!result.ok) throw new Error(result.problems[0]!.message);
    return result.value.id;
  };
  const createKey: TestApp['createKey'] = async (companyId, permissions, keyOptions = {}) => {
    const result = await container.apiKeys.create({
      companyId,
      name: 'test key',
      permissions,
      expiresAt: keyOptions.expiresAt ?? null,
      mode: keyOptions.mode ?? 'live',
    });
    if (!result.ok) throw new Error(result.detail);
    return { key: result.value.key, id: result.value.id, prefix: result.value.prefix };
  };
  const request = async (opts: InjectOptions) => {
    const response = await app.inject(opts);
    contract.assertClean();
    return response;
  };
  const auth = (key?: string): Record<string, string> => (key ? { 'x-api-key': key } : {});

  return {
    app,
    container,
    storage,
    database,
    config,
    createCompany,
    createKey,
    async tenant(permissions = ALL_PERMISSIONS, tenantOptions = {}) {
      const companyId = await createCompany(`Tenant ${Math.random().toString(36).slice(2, 8)}`);
      const { key } = await createKey(companyId, permissions, tenantOptions);
      return { companyId, key };
    },
    request,
    post: (path, body, key, headers = {}) =>
      request({
        method: 'POST',
        url: `${BASE_PATH}${path}`,
        payload: body as InjectOptions['payload'],
        headers: { ...auth(key), ...headers },
      }),
    get: (path, key, headers = {}) =>
      request({ method: 'GET', url: `${BASE_PATH}${path}`, headers: { ...auth(key), ...headers } }),
    async close() {
      await app.close();
      await storage.close();
      if (!options.database) await database.drop();
      contract.assertClean();
    },
  };
}
