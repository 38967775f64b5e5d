import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookAttemptLog } from '../src/panel/webhook-attempts.js';
import { scopeFor } from '../src/services/scope.js';
import { buildTestApp, type TestApp } from './helpers/build.js';
import { DIALECTS } from './helpers/dialects.js';
import { addEndpoint } from './helpers/panel-webhooks.js';
import { startReceiver, type Receiver } from './helpers/webhook-receiver.js';
import { claimInstance, signedInAs, type PanelClient } from './panel-client.js';

// The Webhooks page against real deliveries: a loopback receiver (WEBHOOK_ALLOW_PRIVATE_URLS),
// the app's own delivery worker, and retries in milliseconds, as in webhooks.test.ts.

const RETRY_SCHEDULE_MS = [50, 50];
const SIX_DAYS_MS = 6 * 24 * 60 * 60 * 1000;

for (const dialect of DIALECTS) {
  describe(`panel webhook deliveries on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let companyId: string;
    let apiKey: string;
    const receivers: Receiver[] = [];

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true, webhookRetryScheduleMs: RETRY_SCHEDULE_MS });
      ({ owner, companyId } = await claimInstance(t.app));
      ({ key: apiKey } = await t.createKey(companyId, ['organization.create']));
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

    async function makeEvent(name: string) {
      const res = await t.post('/organization', { name, isCustomer: true }, apiKey);
      expect(res.statusCode).toBe(201);
    }

    /** Reads the endpoint's page until it shows what is expected (deliveries are asynchronous). */
    async function pageShowing(id: string, expected: RegExp, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const page = await owner.get(`/panel/webhooks/${id}`);
        if (expected.test(page.body)) return page;
        if (Date.now() > deadline) throw new Error(`the endpoint page did not show ${expected} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }

    const attemptRows = (body: string) => body.match(/<tr data-attempt-id=/g)?.length ?? 0;

    it('shows a delivered event in the attempts table with HTTP 200, and Resend makes the receiver get the same webhook-id again', async () => {
      const r = await receiver();
      const { id, secret } = await addEndpoint(owner, { url: r.url, description: 'Loopback receiver' });
      await makeEvent('Delivered Buyer');
      await r.waitFor((got) => got.length === 1);
      const first = r.received[0]!;
      // The secret the panel showed is the one that signs.
      expect(() => new Webhook(secret!).verify(first.body, first.headers as Record<string, string>)).not.toThrow();
      const eventId = String(first.headers['webhook-id']);

      const page = await pageShowing(id, /badge-succeeded/);
      expect(attemptRows(page.body)).toBe(1);
      expect(page.body).toContain(`data-event-id="${eventId}"`);
      expect(page.body).toContain('<code>organization.created</code>');
      expect(page.body).toContain('<code>HTTP 200</code>');
      expect(page.body).toMatch(/<td class="num">\d+ ms<\/td>/);
      expect(page.body).toContain(`<input type="hidden" name="eventId" value="${eventId}">`);

      const resent = await owner.post(`/panel/webhooks/${id}/resend`, { eventId });
      expect(resent.statusCode).toBe(303);
      expect(resent.headers.location).toBe(`/panel/webhooks/${id}?done=resent`);
      await r.waitFor((got) => got.length === 2);
      expect(r.received[1]!.headers['webhook-id']).toBe(eventId);
      expect(r.received[1]!.body).toBe(first.body);

      const after = await pageShowing(id, /(<tr data-attempt-id=[\s\S]*){2}/);
      expect(attemptRows(after.body)).toBe(2);
      expect((await owner.get(`/panel/webhooks/${id}?done=resent`)).body).toContain('The event is queued to be sent again');
    });

    it('shows an endpoint disabled for failing as such, on the list and its page, until it is enabled again', async () => {
      const r = await receiver(() => ({ status: 500, body: 'down' }));
      const { id } = await addEndpoint(owner, { url: r.url, description: 'Always failing' });
      await t.storage.db.updateTable('webhook_endpoints').set({ failing_since: new Date(Date.now() - SIX_DAYS_MS).toISOString() }).where('id', '=', id).execute();
      await makeEvent('Failing Buyer');

      const page = await pageShowing(id, /badge-failing/);
      expect(page.body).toContain('<span class="badge badge-failing">Disabled: every delivery failed for 5 days</span>');
      expect(page.body).toContain('<code>HTTP 500</code>');
      expect(page.body).toContain('badge-failed');
      expect(page.body).toContain(`action="/panel/webhooks/${id}/enable"`);
      const list = await owner.get('/panel/webhooks');
      expect(list.body).toMatch(new RegExp(`data-endpoint-id="${id}"[\\s\\S]*?Disabled: every delivery failed for 5 days[\\s\\S]*?</tr>`));

      expect((await owner.post(`/panel/webhooks/${id}/enable`)).statusCode).toBe(303);
      const row = await t.storage.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ enabled: 1, disabled_reason: null, failing_since: null });
      expect((await owner.get(`/panel/webhooks/${id}`)).body).not.toContain('badge-failing');
    });

    it("escapes the receiver's answer in the attempts table", async () => {
      const r = await receiver(() => ({ status: 418, body: '<script>alert("hooked")</script>' }));
      const { id } = await addEndpoint(owner, { url: r.url, events: 'organization.created' });
      await makeEvent('Teapot Buyer');
      const page = await pageShowing(id, /HTTP 418/);
      expect(page.body).not.toContain('<script>alert');
      expect(page.body).toContain('&lt;script&gt;alert(&quot;hooked&quot;)&lt;/script&gt;');
    });

    it("refuses to resend another company's event or to another company's endpoint, and lets no member resend", async () => {
      const r = await receiver();
      const { id } = await addEndpoint(owner, { url: r.url });
      await makeEvent('Own Buyer');
      await r.waitFor((got) => got.length === 1);
      const ownEvent = String(r.received[0]!.headers['webhook-id']);

      const stranger = await t.tenant(['organization.create', 'webhook.manage']);
      const strangerReceiver = await receiver();
      const foreign = await t.container.webhookEndpoints.create(scopeFor(stranger.companyId), { url: strangerReceiver.url, events: ['*'] });
      if (!foreign.ok) throw new Error(foreign.code);
      await t.post('/organization', { name: 'Stranger Buyer', isCustomer: true }, stranger.key);
      await strangerReceiver.waitFor((got) => got.length === 1);
      const foreignEvent = String(strangerReceiver.received[0]!.headers['webhook-id']);

      await owner.get(`/panel/webhooks/${id}`);
      expect((await owner.post(`/panel/webhooks/${id}/resend`, { eventId: foreignEvent })).statusCode).toBe(404);
      expect((await owner.post(`/panel/webhooks/${foreign.value.id}/resend`, { eventId: ownEvent })).statusCode).toBe(404);
      expect((await owner.post(`/panel/webhooks/${foreign.value.id}/resend`, { eventId: foreignEvent })).statusCode).toBe(404);
      const member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      await member.get(`/panel/webhooks/${id}`);
      expect((await member.post(`/panel/webhooks/${id}/resend`, { eventId: ownEvent })).statusCode).toBe(403);

      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.received).toHaveLength(1);
      expect(strangerReceiver.received).toHaveLength(1);
      const deliveries = await t.storage.db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', 'in', [id, foreign.value.id]).execute();
      expect(deliveries).toHaveLength(2);
      // The read side answers nothing for an endpoint id with the wrong company, whatever is stored.
      expect(await new WebhookAttemptLog(t.storage.db).recent(companyId, foreign.value.id)).toEqual([]);
      expect(await new WebhookAttemptLog(t.storage.db).recent(stranger.companyId, foreign.value.id)).toHaveLength(1);
    });
  });
}
