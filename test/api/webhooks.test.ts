import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_PATH } from '../../src/http/api-version.js';
import { scopeFor } from '../../src/db/scope.js';
import { PER_ENDPOINT_CONCURRENT } from '../../src/webhooks/delivery-worker.js';
import { RESPONSE_EXCERPT_BYTES } from '../../src/webhooks/sender.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

type Body = Record<string, unknown>;

// Deliveries to real HTTP receivers on loopback (WEBHOOK_ALLOW_PRIVATE_URLS=true, as docs/webhooks.md
// says to do for tests), with a retry schedule of milliseconds instead of hours.
const RETRY_SCHEDULE_MS = [50, 50, 50, 50];

for (const dialect of DIALECTS) {
  describe(`webhooks on ${dialect}`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true, webhookRetryScheduleMs: RETRY_SCHEDULE_MS });
    });
    afterAll(async () => t.close());
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });

    async function receiver(answer?: Receiver['answer']): Promise<Receiver> {
      const r = await startReceiver(answer ? { answer } : {});
      receivers.push(r);
      return r;
    }

    async function company() {
      const { companyId, key } = await t.tenant();
      const send = (
        method: 'POST' | 'PATCH' | 'DELETE' | 'GET',
        path: string,
        body?: Body,
        headers: Record<string, string> = {},
      ) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key, ...headers },
          ...(body ? { payload: body } : {}),
        });
      const endpoint = async (url: string, events: string[] = ['*']) => {
        const res = await send('POST', '/webhook-endpoint', { url, events });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as { id: string; secret: string; url: string };
      };
      const organization = async (name: string) =>
        (await send('POST', '/organization', { name, isCustomer: true })).json().data as { id: string };
      return { companyId, key, send, endpoint, organization };
    }

    const attemptsOf = (endpointId: string) =>
      t.storage.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('endpoint_id', '=', endpointId)
        .orderBy('attempted_at')
        .orderBy('id')
        .execute();
    const deliveriesOf = (endpointId: string) =>
      t.storage.db.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).execute();

    it('creates an endpoint with a whsec_ secret shown once, reads, lists, changes and deletes it', async () => {
      const c = await company();
      const created = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/hooks',
        events: ['invoice.paid'],
        description: ' ERP ',
      });
      expect(created.statusCode).toBe(201);
      const endpoint = created.json().data;
      expect(endpoint).toMatchObject({
        url: 'https://127.0.0.1:9/hooks',
        events: ['invoice.paid'],
        description: 'ERP',
        enabled: true,
        disabledReason: null,
      });
      expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(endpoint.secret.slice(6), 'base64')).toHaveLength(32);

      const read = (await c.send('GET', `/webhook-endpoint/${endpoint.id}`)).json().data;
      expect(read).not.toHaveProperty('secret');
      expect(read).toEqual((({ secret: _secret, ...rest }) => rest)(endpoint));
      expect((await c.send('GET', '/webhook-endpoint')).json().data.items.map((e: { id: string }) => e.id)).toEqual([
        endpoint.id,
      ]);

      const patched = await c.send('PATCH', `/webhook-endpoint/${endpoint.id}`, {
        events: ['*'],
        enabled: false,
        description: null,
      });
      expect(patched.json().data).toMatchObject({ events: ['*'], enabled: false, description: null });

      expect((await c.send('DELETE', `/webhook-endpoint/${endpoint.id}`)).json().data).toEqual({
        id: endpoint.id,
        deleted: true,
      });
      expect((await c.send('GET', `/webhook-endpoint/${endpoint.id}`)).statusCode).toBe(404);
      expect((await c.send('DELETE', `/webhook-endpoint/${endpoint.id}`)).statusCode).toBe(404);
    });

    it('never stores a signing secret in clear, also not in the answer kept for an Idempotency-Key', async () => {
      const c = await company();
      const once = { 'idempotency-key': 'endpoint-once' };
      const first = await c.send('POST', '/webhook-endpoint', { url: 'https://127.0.0.1:9/a', events: ['*'] }, once);
      const again = await c.send('POST', '/webhook-endpoint', { url: 'https://127.0.0.1:9/a', events: ['*'] }, once);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
      const rotated = (
        await c.send('POST', `/webhook-endpoint/${first.json().data.id}/rotate-secret`, undefined, {
          'idempotency-key': 'rotate-once',
        })
      ).json().data;

      const secrets = [first.json().data.secret, rotated.secret].map((s: string) => s.slice('whsec_'.length));
      const endpointRows = JSON.stringify(
        await t.storage.db.selectFrom('webhook_endpoints').selectAll().where('company_id', '=', c.companyId).execute(),
      );
      const idempotencyRows = JSON.stringify(
        await t.storage.db
          .selectFrom('idempotency_records')
          .selectAll()
          .where('company_id', '=', c.companyId)
          .execute(),
      );
      for (const secret of secrets) {
        expect(endpointRows).not.toContain(secret);
        expect(idempotencyRows).not.toContain(secret);
      }
      expect(endpointRows).toContain('sealed.v1.');
    });

    it('delivers each event POSTed with Standard Webhooks headers that the standardwebhooks package verifies', async () => {
      const c = await company();
      const r = await receiver();
      const endpoint = await c.endpoint(r.url);
      const buyer = await c.organization('Signed Buyer');
      await r.waitFor((got) => got.length === 1);
      const [delivery] = r.received;
      const verified = new Webhook(endpoint.secret).verify(
        delivery!.body,
        delivery!.headers as Record<string, string>,
      ) as { id: string; type: string; data: { object: { id: string } } };
      expect(verified).toMatchObject({ type: 'organization.created', data: { object: { id: buyer.id } } });
      expect(delivery!.headers['webhook-id']).toBe(verified.id);
      expect(delivery!.headers['content-type']).toBe('application/json');
      expect(delivery!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(delivery!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
      // The body is the event exactly as GET /event/{id} shows it.
      expect(JSON.parse(delivery!.body)).toEqual((await c.send('GET', `/event/${verified.id}`)).json().data);
      // Another secret does not verify it.
      expect(() =>
        new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
          delivery!.body,
          delivery!.headers as Record<string, string>,
        ),
      ).toThrow();
      await eventually(async () => (await attemptsOf(endpoint.id)).length === 1, {
        timeoutMs: 15_000,
        what: 'the success to be recorded',
      });
      const [attempt] = await attemptsOf(endpoint.id);
      expect(attempt).toMatchObject({ succeeded: 1, status_code: 200, response_excerpt: 'ok', error: null });
    });

    it('delivers only the event types an endpoint asked for, and nothing of another company', async () => {
      const c = await company();
      const other = await company();
      const paidOnly = await receiver();
      const everything = await receiver();
      await c.endpoint(paidOnly.url, ['invoice.paid']);
      await other.endpoint(everything.url);
      const buyer = await c.organization('Filter Buyer');
      const invoice = (
        await c.send('POST', '/invoice', {
          organizationId: buyer.id,
          lines: [{ name: 'A', quantity: '1', unitPrice: '10', vatRate: '0', vatCategory: 'Z' }],
        })
      ).json().data;
      await c.send('POST', `/invoice/${invoice.id}/payment`, { amount: invoice.amountDue });
      await paidOnly.waitFor((got) => got.length === 1);
      // Everything due is sent: what has not arrived now will not.
      await t.container.deliveryWorker.drain();
      expect(paidOnly.received.map((d) => JSON.parse(d.body).type)).toEqual(['invoice.paid']);
      expect(everything.received).toEqual([]);
    });

    it('retries a failing receiver on the schedule and records one success after three failures', async () => {
      const c = await company();
      const r = await receiver((index) => (index < 3 ? { status: 503, body: 'busy' } : { status: 204 }));
      const endpoint = await c.endpoint(r.url);
      await c.organization('Retry Buyer');
      await r.waitFor((got) => got.length === 4);
      expect(new Set(r.received.map((d) => d.headers['webhook-id'])).size).toBe(1);
      await eventually(async () => (await attemptsOf(endpoint.id)).length === 4, {
        timeoutMs: 15_000,
        what: 'four attempts',
      });
      const attempts = await attemptsOf(endpoint.id);
      expect(attempts.map((a) => [a.status_code, a.succeeded])).toEqual([
        [503, 0],
        [503, 0],
        [503, 0],
        [204, 1],
      ]);
      expect(attempts[0]).toMatchObject({ response_excerpt: 'busy', error: 'answered 503' });
      const [delivery] = await deliveriesOf(endpoint.id);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 4, lease_owner: null });
      expect(
        (
          await t.storage.db
            .selectFrom('webhook_endpoints')
            .select('failing_since')
            .where('id', '=', endpoint.id)
            .executeTakeFirstOrThrow()
        ).failing_since,
      ).toBeNull();
    });

    it('marks a delivery failed once the schedule is spent, keeping only the first kilobyte of each answer', async () => {
      const c = await company();
      const r = await receiver(() => ({ status: 500, body: 'x'.repeat(10_000) }));
      const endpoint = await c.endpoint(r.url);
      await c.organization('Failing Buyer');
      await eventually(async () => (await deliveriesOf(endpoint.id))[0]?.status === 'failed', {
        timeoutMs: 15_000,
        what: 'the delivery to fail',
      });
      const attempts = await attemptsOf(endpoint.id);
      expect(attempts).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
      for (const attempt of attempts)
        expect(attempt.response_excerpt!.length).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
      expect(r.received).toHaveLength(RETRY_SCHEDULE_MS.length + 1);
    });

    it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
      const c = await company();
      const r = await receiver();
      const endpoint = await c.endpoint(r.url);
      const rotated = await c.send('POST', `/webhook-endpoint/${endpoint.id}/rotate-secret`);
      expect(rotated.statusCode).toBe(200);
      const newSecret = rotated.json().data.secret as string;
      expect(newSecret).not.toBe(endpoint.secret);
      await c.organization('Rotation Buyer');
      await r.waitFor((got) => got.length === 1);
      const during = r.received[0]!;
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [endpoint.secret, newSecret])
        expect(() => new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).not.toThrow();

      // The overlap ends: only the new secret signs.
      await t.storage.db
        .updateTable('webhook_endpoints')
        .set({ previous_secret_expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('id', '=', endpoint.id)
        .execute();
      await c.organization('After Overlap');
      await r.waitFor((got) => got.length === 2);
      const after = r.received[1]!;
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(() => new Webhook(newSecret).verify(after.body, after.headers as Record<string, string>)).not.toThrow();
      expect(() => new Webhook(endpoint.secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
    });

    it('disables an endpoint whose deliveries have all failed for five days, and a PATCH enables it again', async () => {
      const c = await company();
      const r = await receiver(() => ({ status: 410 }));
      const endpoint = await c.endpoint(r.url);
      const sixDaysAgo = new Date(Date.now() - 6 * 24 * 60 * 60 * 1000).toISOString();
      await t.storage.db
        .updateTable('webhook_endpoints')
        .set({ failing_since: sixDaysAgo })
        .where('id', '=', endpoint.id)
        .execute();
      await c.organization('Gone Receiver');
      await eventually(
        async () => (await c.send('GET', `/webhook-endpoint/${endpoint.id}`)).json().data.enabled === false,
        { timeoutMs: 15_000, what: 'the endpoint to be disabled' },
      );
      expect((await c.send('GET', `/webhook-endpoint/${endpoint.id}`)).json().data.disabledReason).toBe('failing');
      // Disabled: new events make no deliveries for it.
      const before = r.received.length;
      await c.organization('While Disabled');
      await t.container.deliveryWorker.drain();
      expect((await deliveriesOf(endpoint.id)).length).toBe(1);

      const enabled = (await c.send('PATCH', `/webhook-endpoint/${endpoint.id}`, { enabled: true })).json().data;
      expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
      r.answer = () => ({ status: 200 });
      await c.organization('After Enabling');
      await r.waitFor((got) => got.length > before);
    });

    it('does not slow the API while the receiver hangs: requests answer, deliveries to it stay bounded', async () => {
      const c = await company();
      const r = await receiver(() => 'hang');
      await c.endpoint(r.url);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          c.send('POST', '/organization', { name: `Hanging ${i}`, isCustomer: true }),
        ),
      );
      expect(answers.every((a) => a.statusCode === 201)).toBe(true);
      await r.waitFor((got) => got.length === PER_ENDPOINT_CONCURRENT);
      // Every request was answered while deliveries hang, and no more than its share of slots went to it.
      const more = await Promise.all(
        Array.from({ length: 20 }, (_, i) => c.send('GET', `/organization/${answers[i]!.json().data.id}`)),
      );
      expect(more.every((a) => a.statusCode === 200)).toBe(true);
      expect(r.open).toBe(PER_ENDPOINT_CONCURRENT);
      expect(r.maxOpen).toBe(PER_ENDPOINT_CONCURRENT);
      // The worker's count is over every endpoint: a delivery of an earlier test may still be
      // finishing, so it is waited for; this endpoint's own bound is the receiver's count above.
      await eventually(() => t.container.deliveryWorker.activeCount === PER_ENDPOINT_CONCURRENT, {
        what: 'only the hanging deliveries to be active',
      });
      expect(r.open).toBe(PER_ENDPOINT_CONCURRENT);
    });

    it('keeps delivering to other endpoints while one hangs', async () => {
      const c = await company();
      const stuck = await receiver(() => 'hang');
      const healthy = await receiver();
      await c.endpoint(stuck.url);
      await c.endpoint(healthy.url);
      for (let i = 0; i < 12; i++) await c.organization(`Shared ${i}`);
      await healthy.waitFor((got) => got.length === 12);
      expect(stuck.maxOpen).toBeLessThanOrEqual(PER_ENDPOINT_CONCURRENT);
    });

    it("resends one event as a new delivery with the same webhook-id, only for the company's own event and endpoint", async () => {
      const c = await company();
      const r = await receiver();
      const endpoint = await c.endpoint(r.url);
      await c.organization('Resent Buyer');
      await r.waitFor((got) => got.length === 1);
      const eventId = String(r.received[0]!.headers['webhook-id']);
      const resent = await t.container.webhookEndpoints.resend(scopeFor(c.companyId), endpoint.id, eventId);
      expect(resent.ok).toBe(true);
      await r.waitFor((got) => got.length === 2);
      expect(r.received[1]!.headers['webhook-id']).toBe(eventId);
      expect(r.received[1]!.body).toBe(r.received[0]!.body);
      const stranger = await company();
      expect(await t.container.webhookEndpoints.resend(scopeFor(stranger.companyId), endpoint.id, eventId)).toEqual({
        ok: false,
        code: 'NOT_FOUND',
      });
    });

    it("needs webhook.manage, and hides other companies' endpoints", async () => {
      const c = await company();
      const endpoint = await c.endpoint('https://127.0.0.1:9/x');
      const { key } = await t.tenant(['event.read']);
      expect((await t.get('/webhook-endpoint', key)).statusCode).toBe(403);
      const stranger = await company();
      expect((await stranger.send('GET', `/webhook-endpoint/${endpoint.id}`)).statusCode).toBe(404);
      expect((await stranger.send('PATCH', `/webhook-endpoint/${endpoint.id}`, { enabled: false })).statusCode).toBe(
        404,
      );
      expect((await stranger.send('POST', `/webhook-endpoint/${endpoint.id}/rotate-secret`)).statusCode).toBe(404);
      expect((await stranger.send('DELETE', `/webhook-endpoint/${endpoint.id}`)).statusCode).toBe(404);
      expect((await stranger.send('GET', '/webhook-endpoint')).json().data.items).toEqual([]);
    });

    it('refuses a 21st endpoint, "*" beside other types, and unknown event types', async () => {
      const c = await company();
      for (let i = 0; i < 20; i++) await c.endpoint(`https://127.0.0.1:9/${i}`);
      const over = await c.send('POST', '/webhook-endpoint', { url: 'https://127.0.0.1:9/21', events: ['*'] });
      expect(over.statusCode).toBe(409);
      expect(over.json().error.code).toBe('WEBHOOK_ENDPOINT_LIMIT');
      const mixed = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/m',
        events: ['*', 'invoice.paid'],
      });
      expect(mixed.statusCode).toBe(400);
      expect(mixed.json().error.details[0].field).toBe('events');
      const unknown = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/u',
        events: ['invoice.exploded'],
      });
      expect(unknown.statusCode).toBe(400);
    });
  });
}
