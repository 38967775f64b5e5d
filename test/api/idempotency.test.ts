import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { canonicalJson, requestDigest } from '../../src/idempotency/canonical-json.js';
import type { IdempotencyService } from '../../src/idempotency/idempotency-service.js';
import { idempotencyPurge } from '../../src/idempotency/purge.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { MODES, numberPrefix } from '../helpers/modes.js';

const ORGANIZATION_OPERATION = `POST ${BASE_PATH}/organization`;
let keys = 0;
const newKey = () => `test-key-${process.pid}-${Date.now()}-${keys++}`;

describe('canonical JSON', () => {
  it('sorts keys recursively and keeps array order, so key order does not change the digest', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { y: 1, x: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,{"x":2,"y":1}]},"b":1}',
    );
    expect(requestDigest('POST /x', { a: 1, b: 2 })).toBe(requestDigest('POST /x', { b: 2, a: 1 }));
    expect(requestDigest('POST /x', { a: 1 })).not.toBe(requestDigest('POST /y', { a: 1 }));
    expect(requestDigest('POST /x', [1, 2])).not.toBe(requestDigest('POST /x', [2, 1]));
  });
});

describe('the purge timer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('purges expired records on every tick and stops when the app closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const purgeExpired = vi.fn(async () => 0);
    const app = Fastify({ logger: false });
    await app.register(idempotencyPurge, {
      idempotency: { purgeExpired } as unknown as IdempotencyService,
      intervalMs: 1000,
    });
    await app.ready();
    vi.advanceTimersByTime(3000);
    expect(purgeExpired).toHaveBeenCalledTimes(3);
    await app.close();
    vi.advanceTimersByTime(3000);
    expect(purgeExpired).toHaveBeenCalledTimes(3);
  });
});

for (const dialect of DIALECTS)
  for (const mode of MODES) {
    describe(`Idempotency-Key on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;
      let key: string;
      let companyId: string;

      beforeAll(async () => {
        t = await buildTestApp(dialect);
        ({ key, companyId } = await t.tenant(['organization.create', 'invoice.create', 'organization.read'], { mode }));
      });
      afterAll(async () => t.close());
      afterEach(() => {
        vi.restoreAllMocks();
      });

      const organizationsNamed = async (name: string) =>
        (await t.storage.db.selectFrom('organizations').select('id').where('name', '=', name).execute()).length;
      const record = async (idempotencyKey: string, company = companyId) =>
        t.storage.db
          .selectFrom('idempotency_records')
          .selectAll()
          .where('company_id', '=', company)
          .where('idempotency_key', '=', idempotencyKey)
          .executeTakeFirst();
      const postOrganization = (body: unknown, idempotencyKey: string, as = key) =>
        t.post('/organization', body, as, { 'idempotency-key': idempotencyKey });
      const buyer = async () =>
        (await t.post('/organization', { name: `Buyer ${newKey()}`, isCustomer: true }, key)).json().data.id as string;

      it('replays the stored answer to a repeat with the same key and body, with a fresh request id, and creates nothing', async () => {
        const idempotencyKey = newKey();
        const first = await postOrganization({ name: 'Replay GmbH', isCustomer: true, vatId: 'DE1' }, idempotencyKey);
        expect(first.statusCode).toBe(201);
        expect(first.headers['idempotent-replayed']).toBeUndefined();

        const repeat = await t.post('/organization', { vatId: 'DE1', isCustomer: true, name: 'Replay GmbH' }, key, {
          'idempotency-key': idempotencyKey,
          'x-request-id': 'client-retry-1',
        });
        expect(repeat.statusCode).toBe(201);
        expect(repeat.headers['idempotent-replayed']).toBe('true');
        expect(repeat.headers['x-request-id']).toBe('client-retry-1');
        expect(repeat.json().meta.requestId).toBe('client-retry-1');
        expect(repeat.json().data).toEqual(first.json().data);
        expect(repeat.json().message).toBe(first.json().message);
        expect(await organizationsNamed('Replay GmbH')).toBe(1);
        expect((await record(idempotencyKey))?.state).toBe('done');
      });

      it('replays an invoice with its number, taking no new number from the sequence', async () => {
        const organizationId = await buyer();
        const body = {
          organizationId,
          issueDate: '2026-05-04',
          lines: [{ name: 'Work', quantity: '2', unitPrice: '50', vatRate: '19' }],
        };
        const idempotencyKey = newKey();
        const first = await t.post('/invoice', body, key, { 'idempotency-key': idempotencyKey });
        expect(first.statusCode, first.body).toBe(201);
        const repeat = await t.post('/invoice', body, key, { 'idempotency-key': idempotencyKey });
        expect(repeat.statusCode).toBe(201);
        expect(repeat.headers['idempotent-replayed']).toBe('true');
        expect(repeat.json().data).toEqual(first.json().data);
        const count = await t.storage.db
          .selectFrom('invoices')
          .select('id')
          .where('organization_id', '=', organizationId)
          .execute();
        expect(count).toHaveLength(1);
        const next = await t.post('/invoice', body, key);
        const [year, counter] = (first.json().data.number as string).slice(numberPrefix(mode).length).split('-');
        expect(next.json().data.number).toBe(
          `${numberPrefix(mode)}${year}-${String(Number(counter) + 1).padStart(5, '0')}`,
        );
      });

      it('answers 422 IDEMPOTENCY_KEY_REUSED to the same key with another body or on another endpoint, creating nothing', async () => {
        const idempotencyKey = newKey();
        expect((await postOrganization({ name: 'Reuse One', isCustomer: true }, idempotencyKey)).statusCode).toBe(201);
        const other = await postOrganization({ name: 'Reuse Two', isCustomer: true }, idempotencyKey);
        expect(other.statusCode).toBe(422);
        expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
        expect(other.headers['idempotent-replayed']).toBeUndefined();
        expect(await organizationsNamed('Reuse Two')).toBe(0);

        const invoice = await t.post(
          '/invoice',
          { organizationId: await buyer(), lines: [{ name: 'x', quantity: 1, unitPrice: 1, vatRate: 0 }] },
          key,
          {
            'idempotency-key': idempotencyKey,
          },
        );
        expect(invoice.statusCode).toBe(422);
        expect(invoice.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
      });

      it('scopes keys to the company: the same key in another company is another request', async () => {
        const idempotencyKey = newKey();
        const other = await t.tenant(['organization.create'], { mode });
        expect((await postOrganization({ name: 'Scoped Ltd', isCustomer: true }, idempotencyKey)).statusCode).toBe(201);
        const theirs = await postOrganization({ name: 'Scoped Ltd', isCustomer: true }, idempotencyKey, other.key);
        expect(theirs.statusCode).toBe(201);
        expect(theirs.headers['idempotent-replayed']).toBeUndefined();
        expect(await organizationsNamed('Scoped Ltd')).toBe(2);
      });

      it('creates exactly one resource when the same request is sent many times at once', async () => {
        const idempotencyKey = newKey();
        const body = { name: 'Concurrent Co', isSupplier: true };
        const answers = await Promise.all(Array.from({ length: 12 }, () => postOrganization(body, idempotencyKey)));
        const created = answers.filter((a) => a.statusCode === 201);
        const originals = created.filter((a) => a.headers['idempotent-replayed'] === undefined);
        expect(originals).toHaveLength(1);
        for (const answer of answers) {
          expect([201, 409], answer.body).toContain(answer.statusCode);
          if (answer.statusCode === 201) expect(answer.json().data).toEqual(originals[0]!.json().data);
          if (answer.statusCode === 409) {
            expect(answer.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
            expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
          }
        }
        expect(await organizationsNamed('Concurrent Co')).toBe(1);
        // Once the first has finished, a retry gets its answer.
        const later = await postOrganization(body, idempotencyKey);
        expect(later.statusCode).toBe(201);
        expect(later.headers['idempotent-replayed']).toBe('true');
      });

      it('answers 409 IDEMPOTENCY_CONFLICT with Retry-After while the first request still runs, and 422 to another body', async () => {
        const idempotencyKey = newKey();
        const body = { name: 'Still Running', isCustomer: true };
        const now = new Date().toISOString();
        await t.storage.db
          .insertInto('idempotency_records')
          .values({
            company_id: companyId,
            livemode: mode === 'live' ? 1 : 0,
            idempotency_key: idempotencyKey,
            request_digest: requestDigest(ORGANIZATION_OPERATION, body),
            state: 'running',
            owner_token: 'another-instance',
            locked_at: now,
            status_code: null,
            response_body: null,
            created_at: now,
            expires_at: new Date(Date.now() + 86_400_000).toISOString(),
          })
          .execute();
        const repeat = await postOrganization(body, idempotencyKey);
        expect(repeat.statusCode).toBe(409);
        expect(repeat.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
        expect(repeat.headers['retry-after']).toBe('1');
        expect((await postOrganization({ ...body, isSupplier: true }, idempotencyKey)).statusCode).toBe(422);
        expect(await organizationsNamed('Still Running')).toBe(0);
      });

      it('takes over a marker left by a crashed request once it is a minute old', async () => {
        const idempotencyKey = newKey();
        const body = { name: 'Crashed Before', isCustomer: true };
        const twoMinutesAgo = new Date(Date.now() - 120_000).toISOString();
        await t.storage.db
          .insertInto('idempotency_records')
          .values({
            company_id: companyId,
            livemode: mode === 'live' ? 1 : 0,
            idempotency_key: idempotencyKey,
            request_digest: requestDigest(ORGANIZATION_OPERATION, body),
            state: 'running',
            owner_token: 'a-dead-process',
            locked_at: twoMinutesAgo,
            status_code: null,
            response_body: null,
            created_at: twoMinutesAgo,
            expires_at: new Date(Date.now() + 86_000_000).toISOString(),
          })
          .execute();
        const retry = await postOrganization(body, idempotencyKey);
        expect(retry.statusCode).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
        expect(await organizationsNamed('Crashed Before')).toBe(1);
        expect((await record(idempotencyKey))?.state).toBe('done');
      });

      it('stores a refusal the request itself decided (409 NAME_CONFLICT) and replays it', async () => {
        expect((await t.post('/organization', { name: 'Taken Name', isCustomer: true }, key)).statusCode).toBe(201);
        const idempotencyKey = newKey();
        const first = await postOrganization({ name: 'taken name', isCustomer: true }, idempotencyKey);
        expect(first.statusCode).toBe(409);
        expect(first.json().error.code).toBe('NAME_CONFLICT');
        expect(first.json().meta.requestId).toBe(first.headers['x-request-id']);
        const repeat = await postOrganization({ name: 'taken name', isCustomer: true }, idempotencyKey);
        expect(repeat.statusCode).toBe(409);
        expect(repeat.headers['idempotent-replayed']).toBe('true');
        expect(repeat.json().error).toEqual(first.json().error);
        expect(repeat.json().meta.requestId).toBe(repeat.headers['x-request-id']);
        expect(repeat.json().meta.requestId).not.toBe(first.json().meta.requestId);
      });

      it('does not store 400, 401 or 403 answers, so a corrected retry with the same key runs', async () => {
        const idempotencyKey = newKey();
        // 400 decided by the schema and by the service (ORGANIZATION_NOT_FOUND runs inside the work).
        expect((await postOrganization({ name: 'Fixed Later', isCustomer: 'yes' }, idempotencyKey)).statusCode).toBe(
          400,
        );
        const invoiceKey = newKey();
        const lines = [{ name: 'Work', quantity: '1', unitPrice: '10', vatRate: '19' }];
        const missingBuyer = await t.post('/invoice', { organizationId: 'org_missing', lines }, key, {
          'idempotency-key': invoiceKey,
        });
        expect(missingBuyer.statusCode).toBe(400);
        expect(missingBuyer.json().error.code).toBe('ORGANIZATION_NOT_FOUND');
        expect(await record(invoiceKey)).toBeUndefined();
        const corrected = await t.post('/invoice', { organizationId: await buyer(), lines }, key, {
          'idempotency-key': invoiceKey,
        });
        expect(corrected.statusCode).toBe(201);
        expect(corrected.headers['idempotent-replayed']).toBeUndefined();

        // 401 and 403 are decided before anything runs.
        const { key: readOnly } = await t.tenant(['organization.read'], { mode });
        expect(
          (
            await postOrganization(
              { name: 'Fixed Later', isCustomer: true },
              idempotencyKey,
              'inv_live_AAAAAAAA_bbbbbbbbbbbbbbbbbbbbbbbb',
            )
          ).statusCode,
        ).toBe(401);
        expect(
          (await postOrganization({ name: 'Fixed Later', isCustomer: true }, idempotencyKey, readOnly)).statusCode,
        ).toBe(403);
        expect(await record(idempotencyKey)).toBeUndefined();
        const fixed = await postOrganization({ name: 'Fixed Later', isCustomer: true }, idempotencyKey);
        expect(fixed.statusCode).toBe(201);
        expect(fixed.headers['idempotent-replayed']).toBeUndefined();
      });

      it('rolls back a request that fails with 500 after creating its resource, stores nothing, and lets the retry run', async () => {
        const idempotencyKey = newKey();
        const body = { name: 'Failed Midway', isCustomer: true };
        const organizations = t.container.organizations;
        const original = organizations.create.bind(organizations);
        vi.spyOn(organizations, 'create').mockImplementationOnce(async (...args) => {
          const result = await original(...args);
          expect(result.ok).toBe(true);
          throw new Error('the process failed after the insert');
        });
        const failed = await postOrganization(body, idempotencyKey);
        expect(failed.statusCode).toBe(500);
        expect(failed.json().error.code).toBe('INTERNAL_SERVER_ERROR');
        expect(await organizationsNamed('Failed Midway')).toBe(0);
        expect(await record(idempotencyKey)).toBeUndefined();

        const retry = await postOrganization(body, idempotencyKey);
        expect(retry.statusCode).toBe(201);
        expect(retry.headers['idempotent-replayed']).toBeUndefined();
        expect(await organizationsNamed('Failed Midway')).toBe(1);
      });

      it('refuses an Idempotency-Key that is empty, too long or not printable ASCII with 400 VALIDATION_ERROR', async () => {
        for (const bad of ['', 'k'.repeat(256), 'tab\there']) {
          const res = await postOrganization({ name: 'Bad Key', isCustomer: true }, bad);
          expect(res.statusCode, JSON.stringify(bad)).toBe(400);
          expect(res.json().error.code).toBe('VALIDATION_ERROR');
          expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain('idempotency-key');
        }
        expect(await organizationsNamed('Bad Key')).toBe(0);
        const longest = await postOrganization({ name: 'Good Key', isCustomer: true }, `${'k'.repeat(250)} ~!@#`);
        expect(longest.statusCode).toBe(201);
      });

      it('forgets a record after 24 hours: an expired key runs as new, and the purge deletes expired records', async () => {
        const idempotencyKey = newKey();
        expect((await postOrganization({ name: 'Yesterday One', isCustomer: true }, idempotencyKey)).statusCode).toBe(
          201,
        );
        const kept = newKey();
        expect((await postOrganization({ name: 'Today One', isCustomer: true }, kept)).statusCode).toBe(201);
        const record24h = await record(idempotencyKey);
        expect(Date.parse(record24h!.expires_at) - Date.parse(record24h!.created_at)).toBe(24 * 60 * 60 * 1000);

        const past = new Date(Date.now() - 1000).toISOString();
        await t.storage.db
          .updateTable('idempotency_records')
          .set({ expires_at: past })
          .where('idempotency_key', '=', idempotencyKey)
          .execute();
        const reused = await postOrganization({ name: 'Yesterday Two', isCustomer: true }, idempotencyKey);
        expect(reused.statusCode).toBe(201);
        expect(reused.headers['idempotent-replayed']).toBeUndefined();

        await t.storage.db
          .updateTable('idempotency_records')
          .set({ expires_at: past })
          .where('idempotency_key', '=', idempotencyKey)
          .execute();
        expect(await t.container.idempotency.purgeExpired()).toBeGreaterThanOrEqual(1);
        expect(await record(idempotencyKey)).toBeUndefined();
        expect(await record(kept)).toBeDefined();
      });
    });

    describe(`Idempotency-Key and rate limits on ${dialect} with ${mode} keys`, () => {
      let t: TestApp;
      beforeAll(async () => {
        t = await buildTestApp(dialect, { rateLimitMax: 2 });
      });
      afterAll(async () => t.close());

      it('does not store a 429: nothing is recorded for its key, so a retry after the window runs afresh', async () => {
        const { key, companyId } = await t.tenant(['organization.create'], { mode });
        const idempotencyKey = newKey();
        expect((await t.get('', key)).statusCode).toBe(200);
        expect((await t.get('', key)).statusCode).toBe(200);
        const limited = await t.post('/organization', { name: 'Limited', isCustomer: true }, key, {
          'idempotency-key': idempotencyKey,
        });
        expect(limited.statusCode).toBe(429);
        const stored = await t.storage.db
          .selectFrom('idempotency_records')
          .selectAll()
          .where('company_id', '=', companyId)
          .execute();
        expect(stored).toEqual([]);
      });
    });
  }
