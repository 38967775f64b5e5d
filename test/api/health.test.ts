import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

for (const dialect of DIALECTS) {
  describe(`health check on ${dialect}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    it('answers 200 without a key, at the base address with or without a trailing slash', async () => {
      for (const url of ['/api/v1.0.0/public', '/api/v1.0.0/public/']) {
        const res = await t.request({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({ status: 'ok', version: 'v1.0.0' });
      }
    });

    it('names the company, key prefix and permissions of a valid key, never the secret', async () => {
      const companyId = await t.createCompany();
      const { key, prefix } = await t.createKey(companyId, ['organization.create', 'invoice.create']);
      const res = await t.get('', key);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({
        status: 'ok',
        version: 'v1.0.0',
        companyId,
        keyPrefix: prefix,
        livemode: true,
        permissions: ['invoice.create', 'organization.create'],
      });
      expect(res.body).not.toContain(key.split('_')[3]);
    });

    it('answers 401 to an invalid key', async () => {
      const res = await t.get('', 'inv_live_AAAAAAAA_bbbbbbbbbbbbbbbbbbbbbbbb');
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('INVALID_API_KEY');
    });
  });
}

describe('health check without a database', () => {
  it('answers 503 SERVICE_UNAVAILABLE when the database cannot be reached', async () => {
    const t = await buildTestApp('sqlite');
    await t.storage.close();
    const res = await t.get('');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    await t.app.close();
    await t.database.drop();
  });
});

describe('health pings', () => {
  it('share one database round trip among concurrent checks and start a new one after it', async () => {
    const { sharedPing } = await import('../../src/routes/health.js');
    let pings = 0;
    let finish!: () => void;
    const storage = {
      ping: () => {
        pings += 1;
        return new Promise<void>((resolve) => (finish = resolve));
      },
    } as unknown as import('../../src/db/database.js').Storage;
    const ping = sharedPing(storage);
    const first = [ping(), ping(), ping()];
    expect(pings).toBe(1);
    finish();
    await Promise.all(first);
    const next = ping();
    expect(pings).toBe(2);
    finish();
    await next;
  });
});
