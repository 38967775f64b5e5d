import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { runCli } from '../../src/cli/main.js';
import { loadConfig } from '../../src/config.js';
import type { Storage } from '../../src/db/database.js';
import { BASE_PATH } from '../../src/http/api-version.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';

for (const dialect of DIALECTS) {
  describe(`the seller from invoicing company create on ${dialect}`, () => {
    let db: TestDatabase;
    let storage: Storage;
    let app: FastifyInstance;

    async function cli(args: string[]): Promise<Record<string, unknown>> {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runCli([...args, '--json'], {
        stdout: (s) => out.push(s),
        stderr: (s) => err.push(s),
        env: { DATABASE_URL: db.url },
      });
      expect(code, err.join('')).toBe(0);
      return JSON.parse(out.join('')) as Record<string, unknown>;
    }

    beforeAll(async () => {
      db = await createTestDatabase(dialect);
    });
    afterAll(async () => {
      await app?.close();
      await storage?.close();
      await db.drop();
    });

    it('stores --currency, --vat-id and --country and uses them for the default currency and the seller snapshot', async () => {
      const company = await cli([
        'company',
        'create',
        '--name',
        'Nippon Shoji KK',
        '--currency',
        'jpy',
        '--vat-id',
        'T1234567890123',
        '--country',
        'jp',
      ]);
      expect(company).toMatchObject({ currency: 'JPY', vatId: 'T1234567890123', countryCode: 'JP' });
      const key = await cli([
        'key',
        'create',
        '--company',
        String(company.id),
        '--name',
        'erp',
        '--permissions',
        'invoice.create,organization.create',
      ]);

      storage = db.open();
      app = await buildApp({
        config: { ...loadConfig({}), dataEncryptionKeys: [randomBytes(32)], databaseUrl: db.url, logLevel: 'silent' },
        storage,
      });
      const headers = { 'x-api-key': String(key.key) };
      const org = await app.inject({
        method: 'POST',
        url: `${BASE_PATH}/organization`,
        headers,
        payload: { name: 'Buyer', isCustomer: true },
      });
      const res = await app.inject({
        method: 'POST',
        url: `${BASE_PATH}/invoice`,
        headers,
        payload: {
          organizationId: org.json().data.id,
          lines: [{ name: 'Tea', quantity: '3', unitPrice: '333.5', vatRate: '10' }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const data = res.json().data;
      expect(data.currency).toBe('JPY');
      expect(data.seller).toMatchObject({ name: 'Nippon Shoji KK', vatId: 'T1234567890123', countryCode: 'JP' });
      expect(data.totals).toMatchObject({
        lineNetTotal: '1001',
        taxTotal: '100',
        payable: '1101',
        roundingAmount: '0',
      });
    });
  });
}
