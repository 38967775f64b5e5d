import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebhookAttemptLog } from '../../src/panel/webhook-attempts.js';
import { scopeFor } from '../../src/db/scope.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { addEndpoint } from '../helpers/panel-webhooks.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { claimInstance, signedInAs, type PanelClient } from '../helpers/panel-client.js';
import { eventually } from '../helpers/eventually.js';

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
      return eventually(
        async () => {
          const page = await owner.get(`/panel/webhooks/${id}`);
          return expected.test(page.body) && page;
        },
        { timeoutMs, intervalMs: 50, what: `the endpoint page to show ${expected}` },
      );
    }

    const attemptRows = (body: string) => body.match(/<tr data-attempt-id=/g)?.length ?? 0;
    /** The log's card of one event. */
    const eventCard = (body: string, eventId: string) =>
      new RegExp(`<article class="delivery-event" data-event-id="${eventId}">[\\s\\S]*?</article>`).exec(body)?.[0] ??
      '';

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
      expect((await owner.get(`/panel/webhooks/${id}?done=resent`)).body).toContain(
        'The event is queued to be sent again',
      );
    });

    it('shows an endpoint disabled for failing as such, on the list and its page, until it is enabled again', async () => {
      const r = await receiver(() => ({ status: 500, body: 'down' }));
      const { id } = await addEndpoint(owner, { url: r.url, description: 'Always failing' });
      await t.storage.db
        .updateTable('webhook_endpoints')
        .set({ failing_since: new Date(Date.now() - SIX_DAYS_MS).toISOString() })
        .where('id', '=', id)
        .execute();
      await makeEvent('Failing Buyer');

      const page = await pageShowing(id, /badge-failing/);
      expect(page.body).toContain(
        '<span class="badge badge-failing">Disabled: every delivery failed for 5 days</span>',
      );
      expect(page.body).toContain('<code>HTTP 500</code>');
      expect(page.body).toContain('badge-failed');
      expect(page.body).toContain(`action="/panel/webhooks/${id}/enable"`);
      const list = await owner.get('/panel/webhooks');
      expect(list.body).toMatch(
        new RegExp(`data-endpoint-id="${id}"[\\s\\S]*?Disabled: every delivery failed for 5 days[\\s\\S]*?</tr>`),
      );

      expect((await owner.post(`/panel/webhooks/${id}/enable`)).statusCode).toBe(303);
      const row = await t.storage.db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ enabled: 1, disabled_reason: null, failing_since: null });
      expect((await owner.get(`/panel/webhooks/${id}`)).body).not.toContain('badge-failing');
    });

    it('groups attempts by event, numbered, with times to the second, the answer of each and the payload as delivered', async () => {
      // Two failures, then success: one event, one delivery, attempts #1 to #3.
      const r = await receiver((index) => (index < 2 ? { status: 503, body: `busy ${index + 1}` } : { status: 204 }));
      const { id } = await addEndpoint(owner, { url: r.url, events: 'organization.created' });
      await makeEvent('Retried Buyer');
      await r.waitFor((got) => got.length === 3);
      const eventId = String(r.received[0]!.headers['webhook-id']);
      const page = await pageShowing(id, /Delivered<\/span> <span>after 3 attempts/);
      const card = eventCard(page.body, eventId);
      expect(card).toContain('<code>organization.created</code>');
      expect([...card.matchAll(/<td class="num">#(\d)<\/td>/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
      expect(card.match(/<tr data-attempt-id=/g)).toHaveLength(3);
      expect(card.match(/<code>HTTP 503<\/code>/g)).toHaveLength(2);
      expect(card).toContain('<code>HTTP 204</code>');
      expect(card).toContain('busy 1');
      expect(card).toContain('busy 2');
      // Retries 50 ms apart are told apart: every attempt's time has its seconds.
      const times = [
        ...card.matchAll(/<tr data-attempt-id=[\s\S]*?<time datetime="([^"]+)" title="[^"]+">([^<]+)<\/time>/g),
      ];
      expect(times).toHaveLength(3);
      for (const [, iso, shown] of times) expect(shown).toBe(iso!.slice(0, 19).replace('T', ' '));
      // The payload is the body the receiver got, indented.
      const payload = /<details class="payload">[\s\S]*?<pre tabindex="0">([\s\S]*?)<\/pre>/.exec(card)![1]!;
      const unescaped = payload
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      expect(JSON.parse(unescaped)).toEqual(JSON.parse(r.received[2]!.body));
      expect(card).toContain(`${Buffer.byteLength(r.received[2]!.body).toLocaleString('en')} bytes, as delivered`);
    });

    it('sends a signed webhook.test event with Send test event, to an endpoint that takes other types, logs it, and keeps it out of GET /event', async () => {
      const r = await receiver();
      const { id, secret } = await addEndpoint(owner, { url: r.url, events: 'invoice.paid' });
      const page = await owner.get(`/panel/webhooks/${id}`);
      expect(page.body).toContain(`action="/panel/webhooks/${id}/test"`);
      const sent = await owner.post(`/panel/webhooks/${id}/test`);
      expect(sent.statusCode).toBe(303);
      expect(sent.headers.location).toBe(`/panel/webhooks/${id}?done=tested`);
      await r.waitFor((got) => got.length === 1);
      const got = r.received[0]!;
      const event = new Webhook(secret!).verify(got.body, got.headers as Record<string, string>) as {
        id: string;
        type: string;
        livemode: boolean;
        data: { object: { endpointId: string } };
      };
      expect(event).toMatchObject({
        type: 'webhook.test',
        livemode: true,
        data: { object: { endpointId: id, url: r.url } },
      });
      expect(got.headers['webhook-id']).toBe(event.id);

      const logged = await pageShowing(id, /Delivered<\/span>/);
      const card = eventCard(logged.body, event.id);
      expect(card).toContain('<code>webhook.test</code>');
      expect(card).toContain('badge-test-event');
      expect(card).toContain('<code>HTTP 200</code>');
      expect((await owner.get(`/panel/webhooks/${id}?done=tested`)).body).toContain('A test event is queued.');

      // Not a change: the events API does not list it or read it.
      const { key } = await t.createKey(companyId, ['event.read']);
      const list = await t.get('/event?limit=100', key);
      expect(list.statusCode).toBe(200);
      expect((list.json().data.items as { id: string }[]).map((e) => e.id)).not.toContain(event.id);
      expect((await t.get(`/event/${event.id}`, key)).statusCode).toBe(404);
    });

    it("refuses a test event to another company's endpoint and to a member", async () => {
      const r = await receiver();
      const { id } = await addEndpoint(owner, { url: r.url });
      const stranger = await t.tenant(['webhook.manage']);
      const foreign = await t.container.webhookEndpoints.create(scopeFor(stranger.companyId), {
        url: r.url,
        events: ['*'],
      });
      if (!foreign.ok) throw new Error(foreign.code);
      await owner.get(`/panel/webhooks/${id}`);
      expect((await owner.post(`/panel/webhooks/${foreign.value.id}/test`)).statusCode).toBe(404);
      const member = await signedInAs(t.app, companyId, 'tester-member@example.com', 'member');
      const page = await member.get(`/panel/webhooks/${id}`);
      expect(page.body).not.toContain('Send test event');
      expect((await member.post(`/panel/webhooks/${id}/test`)).statusCode).toBe(403);
      const made = await t.storage.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', 'in', [id, foreign.value.id])
        .execute();
      expect(made).toEqual([]);
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
      const foreign = await t.container.webhookEndpoints.create(scopeFor(stranger.companyId), {
        url: strangerReceiver.url,
        events: ['*'],
      });
      if (!foreign.ok) throw new Error(foreign.code);
      await t.post('/organization', { name: 'Stranger Buyer', isCustomer: true }, stranger.key);
      await strangerReceiver.waitFor((got) => got.length === 1);
      const foreignEvent = String(strangerReceiver.received[0]!.headers['webhook-id']);

      await owner.get(`/panel/webhooks/${id}`);
      expect((await owner.post(`/panel/webhooks/${id}/resend`, { eventId: foreignEvent })).statusCode).toBe(404);
      expect((await owner.post(`/panel/webhooks/${foreign.value.id}/resend`, { eventId: ownEvent })).statusCode).toBe(
        404,
      );
      expect(
        (await owner.post(`/panel/webhooks/${foreign.value.id}/resend`, { eventId: foreignEvent })).statusCode,
      ).toBe(404);
      const member = await signedInAs(t.app, companyId, 'member@example.com', 'member');
      await member.get(`/panel/webhooks/${id}`);
      expect((await member.post(`/panel/webhooks/${id}/resend`, { eventId: ownEvent })).statusCode).toBe(403);

      // The refused resends made nothing to send: after everything due is sent, still one each.
      await t.container.deliveryWorker.drain();
      expect(r.received).toHaveLength(1);
      expect(strangerReceiver.received).toHaveLength(1);
      const deliveries = await t.storage.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', 'in', [id, foreign.value.id])
        .execute();
      expect(deliveries).toHaveLength(2);
      // The read side answers nothing for an endpoint id with the wrong company, whatever is stored.
      expect(await new WebhookAttemptLog(t.container.deliveries).recent(companyId, foreign.value.id)).toEqual([]);
      expect(
        await new WebhookAttemptLog(t.container.deliveries).recent(stranger.companyId, foreign.value.id),
      ).toHaveLength(1);
    });
  });

  describe(`the delivery log's next retry on ${dialect}`, () => {
    let t: TestApp;
    let owner: PanelClient;
    let r: Receiver;

    beforeAll(async () => {
      // An hour between attempts: the failed first attempt leaves the delivery waiting for its retry.
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true, webhookRetryScheduleMs: [60 * 60 * 1000] });
      ({ owner } = await claimInstance(t.app));
      r = await startReceiver({ answer: () => ({ status: 500, body: 'down for maintenance' }) });
    });
    afterAll(async () => {
      await r.close();
      await t.close();
    });

    it('shows when a pending delivery is tried next, and that a disabled endpoint waits', async () => {
      const { id } = await addEndpoint(owner, { url: r.url });
      expect((await owner.post(`/panel/webhooks/${id}/test`)).statusCode).toBe(303);
      await r.waitFor((got) => got.length === 1);
      const body = await eventually(
        async () => {
          const page = (await owner.get(`/panel/webhooks/${id}`)).body;
          return /Retrying<\/span>/.test(page) && page;
        },
        { timeoutMs: 15_000, intervalMs: 50, what: 'the page to show the retry' },
      );
      const row = await t.storage.db
        .selectFrom('webhook_deliveries')
        .select(['next_attempt_at', 'attempts'])
        .where('endpoint_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.attempts).toBe(1);
      expect(body).toContain(
        `<span class="badge badge-pending">Retrying</span> <span>attempt 2 at <time datetime="${row.next_attempt_at}"`,
      );
      expect(body).toContain('<td class="num">#1</td>');
      expect(body).toContain('down for maintenance');
      expect((await owner.post(`/panel/webhooks/${id}/disable`)).statusCode).toBe(303);
      expect((await owner.get(`/panel/webhooks/${id}`)).body).toContain(
        'attempt 2 is made once the endpoint is enabled',
      );
    });
  });
}
