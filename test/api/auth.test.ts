import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSION_NAMES, type Permission } from '../../src/auth/permissions.js';
import type { RegisteredRoute } from '../../src/http/method-not-allowed.js';
import { BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { MODES } from '../helpers/modes.js';
import { cliJson } from '../helpers/servers.js';
import { eventually } from '../helpers/eventually.js';

// One shared suite of authentication checks, run against every route that needs a key.

function concrete(url: string): string {
  return url.replace(/:[A-Za-z]+/g, 'xyz_000');
}

function protectedRoutes(t: TestApp): (RegisteredRoute & { permission: Permission })[] {
  // HEAD routes mirror their GET route (and answer without a body), so the GET route stands for both.
  return t.app.registeredRoutes.flatMap((r) =>
    r.access?.kind === 'key' && r.method !== 'HEAD' ? [{ ...r, permission: r.access.permission }] : [],
  );
}

for (const dialect of DIALECTS)
  for (const mode of MODES) {
    describe(`authentication on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;
      let companyId: string;

      beforeAll(async () => {
        // The walk makes ~9 failed key checks per protected route from one address: above the default
        // AUTH_FAILURE_LIMIT (30) once there are more than three routes, which is not what it tests.
        t = await buildTestApp(dialect, { authFailureLimit: 10_000 });
        companyId = await t.createCompany();
      });
      afterAll(async () => t.close());

      it('declares an access rule on every route and a permission on every protected route', () => {
        const api = t.app.registeredRoutes.filter((r) => r.url.startsWith(BASE_PATH));
        expect(api.length).toBeGreaterThan(0);
        for (const route of api) {
          expect(route.access, `${route.method} ${route.url} declares no access rule`).toBeDefined();
          if (route.access?.kind === 'key') expect(PERMISSION_NAMES).toContain(route.access.permission);
        }
        expect(protectedRoutes(t).map((r) => `${r.method} ${r.url}`)).toContain(`POST ${BASE_PATH}/organization`);
      });

      it('runs the shared checks on every protected route', async () => {
        const routes = protectedRoutes(t);
        for (const route of routes) {
          const url = concrete(route.url);
          const name = `${route.method} ${route.url}`;
          const send = (headers: Record<string, string>) =>
            t.request({
              method: route.method as 'POST',
              url,
              headers,
              ...(route.method === 'GET' ? {} : { payload: { not: 'valid' } }),
            });
          const expect401 = async (headers: Record<string, string>, why: string) => {
            const res = await send(headers);
            expect(res.statusCode, `${name}: ${why}`).toBe(401);
            expect(res.json().error, `${name}: ${why}`).toEqual({
              code: 'INVALID_API_KEY',
              message: 'The API key is missing, invalid, revoked or expired.',
            });
          };

          const holder = await t.createKey(companyId, [route.permission], { mode });
          const wrongSecret =
            `${holder.key.slice(0, -4)}AAAA` === holder.key
              ? `${holder.key.slice(0, -4)}BBBB`
              : `${holder.key.slice(0, -4)}AAAA`;
          const revoked = await t.createKey(companyId, [route.permission], { mode });
          await t.container.apiKeys.revoke(revoked.id);
          const expired = await t.createKey(companyId, [route.permission], { mode });
          await t.storage.db
            .updateTable('api_keys')
            .set({ expires_at: '2020-01-01T00:00:00.000Z' })
            .where('id', '=', expired.id)
            .execute();
          const other = PERMISSION_NAMES.filter((p) => p !== route.permission);
          const lacking = await t.createKey(companyId, other.length > 0 ? other : ['invoice.create'], { mode });

          await expect401({}, 'no key');
          await expect401({ 'x-api-key': 'not-a-key' }, 'malformed key');
          await expect401({ 'x-api-key': `inv_live_${holder.prefix}_short` }, 'truncated key');
          await expect401({ 'x-api-key': 'inv_live_ABCDEFGH_abcdefghijklmnopqrstuvwx' }, 'unknown key');
          await expect401({ 'x-api-key': wrongSecret }, 'right prefix, wrong secret');
          await expect401({ 'x-api-key': revoked.key }, 'revoked key');
          await expect401({ 'x-api-key': expired.key }, 'expired key');
          await expect401({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, 'basic auth');
          await expect401({ 'x-api-key': holder.key, authorization: `Bearer ${lacking.key}` }, 'two different keys');

          const forbidden = await send({ 'x-api-key': lacking.key });
          expect(forbidden.statusCode, `${name}: key without ${route.permission}`).toBe(403);
          expect(forbidden.json().error.code).toBe('FORBIDDEN');

          const validWays: Record<string, string>[] = [
            { 'x-api-key': holder.key },
            { authorization: `Bearer ${holder.key}` },
            { 'x-api-key': holder.key, authorization: `bearer ${holder.key}` },
          ];
          for (const headers of validWays) {
            const res = await send(headers);
            expect([401, 403], `${name}: valid key via ${Object.keys(headers).join('+')}`).not.toContain(
              res.statusCode,
            );
          }
        }
      });

      it('decides 401 and 403 before looking at the body', async () => {
        const lacking = await t.createKey(companyId, ['invoice.create'], { mode });
        const noKey = await t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: '{broken',
          headers: { 'content-type': 'application/json' },
        });
        expect(noKey.statusCode).toBe(401);
        const forbidden = await t.request({
          method: 'POST',
          url: `${BASE_PATH}/organization`,
          payload: 'x'.repeat(10),
          headers: { 'content-type': 'text/csv', 'x-api-key': lacking.key },
        });
        expect(forbidden.statusCode).toBe(403);
      });

      it('records last use without writing on every request', async () => {
        const { key, id } = await t.createKey(companyId, ['organization.create'], { mode });
        const lastUsed = async () =>
          (
            await t.storage.db
              .selectFrom('api_keys')
              .select('last_used_at')
              .where('id', '=', id)
              .executeTakeFirstOrThrow()
          ).last_used_at;
        expect(await lastUsed()).toBeNull();
        await t.get('', key);
        const first = await eventually(async () => (await lastUsed()) ?? false, {
          intervalMs: 20,
          what: 'last_used_at to be written',
        }).catch(() => null);
        expect(first).not.toBeNull();
        for (let i = 0; i < 5; i++) await t.get('', key);
        await t.container.verifier.settled();
        expect(await lastUsed()).toBe(first);
      });

      it('never stores the raw key, only its prefix and SHA-256 digest', async () => {
        const { key, id } = await t.createKey(companyId, ['organization.create'], { mode });
        const row = await t.storage.db
          .selectFrom('api_keys')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(JSON.stringify(row)).not.toContain(key.split('_')[3]);
        expect(row.key_digest).toMatch(/^[0-9a-f]{64}$/);
      });

      it('refuses a key revoked from the CLI in another process within 5 seconds', async () => {
        const { key, id } = await t.createKey(companyId, ['organization.create'], { mode });
        expect((await t.get('', key)).statusCode).toBe(200);
        const revoked = await cliJson<{ status: string }>(['key', 'revoke', id], { DATABASE_URL: t.database.url });
        expect(revoked.status).toBe('revoked');
        // The key cache holds a key for API_KEY_CACHE_TTL_MS (5 s at most): ask until it has let go.
        let status = 200;
        await eventually(async () => (status = (await t.get('', key)).statusCode) !== 200, {
          timeoutMs: 5000,
          intervalMs: 100,
          what: 'the revoked key to be refused',
        }).catch(() => {});
        expect(status).toBe(401);
      });
    });
  }
