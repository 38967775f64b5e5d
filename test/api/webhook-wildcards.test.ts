import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_SELECTORS, EVENT_TYPES, EVENT_WILDCARDS, subscribes } from '../../src/schemas/event-types.js';
import { buildTestApp, BASE_PATH, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';

// Webhook endpoints subscribe to types, to a resource's wildcard (`invoice.*`) or to "*"; an
// unknown type is refused with the list of valid ones. Deliveries follow the wildcard on both
// databases (PostgreSQL decides in SQL whether an event goes to the outbox at all).

describe('event selectors', () => {
  it('are "*", one wildcard per resource and every type', () => {
    expect(EVENT_WILDCARDS).toEqual([
      'organization.*',
      'invoice.*',
      'payment.*',
      'credit-note.*',
      'purchase_invoice.*',
      'quote.*',
      'recurring_invoice.*',
    ]);
    expect(EVENT_SELECTORS).toEqual(['*', ...EVENT_WILDCARDS, ...EVENT_TYPES]);
  });

  it('take the types of their resource only', () => {
    expect(subscribes(['recurring_invoice.*'], 'recurring_invoice.failed')).toBe(true);
    expect(subscribes(['recurring_invoice.*'], 'invoice.created')).toBe(false);
    expect(subscribes(['invoice.*'], 'invoice.refunded')).toBe(true);
    expect(subscribes(['invoice.*'], 'organization.created')).toBe(false);
    expect(subscribes(['credit-note.*'], 'credit-note.created')).toBe(true);
    expect(subscribes(['payment.created'], 'payment.created')).toBe(true);
    expect(subscribes(['*'], 'organization.updated')).toBe(true);
  });
});

for (const dialect of DIALECTS) {
  describe(`webhook wildcards on ${dialect}`, () => {
    let t: TestApp;
    const receivers: Receiver[] = [];

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true, webhookRetryScheduleMs: [50] });
    });
    afterAll(async () => t.close());
    afterEach(async () => {
      await Promise.all(receivers.splice(0).map((r) => r.close()));
    });

    async function company() {
      const { key } = await t.tenant();
      const send = (method: 'POST' | 'PATCH', path: string, body?: unknown) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body === undefined ? {} : { payload: body as object }),
        });
      return { key, send };
    }

    it('refuses an unknown event type with the list of valid ones', async () => {
      const c = await company();
      const res = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/h',
        events: ['invoice.paid', 'invoice.payed'],
      });
      expect(res.statusCode).toBe(400);
      const detail = res.json().error.details[0];
      expect(detail).toMatchObject({ field: 'events[1]', code: 'unknown_event_type' });
      expect(detail.message).toBe(
        `"invoice.payed" is not an event type. Send types (${EVENT_TYPES.join(', ')}), wildcards (organization.*, invoice.*, payment.*, credit-note.*, purchase_invoice.*, quote.*, recurring_invoice.*), or "*" alone.`,
      );
      expect(detail.message).not.toContain('constant');
      const patched = await c.send('POST', '/webhook-endpoint', { url: 'https://127.0.0.1:9/h', events: ['invoice'] });
      expect(patched.json().error.details[0]).toMatchObject({ field: 'events[0]', code: 'unknown_event_type' });
    });

    it('refuses a type beside its own wildcard, and "*" beside anything', async () => {
      const c = await company();
      const covered = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/h',
        events: ['invoice.*', 'invoice.paid'],
      });
      expect(covered.json().error.details).toEqual([
        {
          field: 'events[1]',
          code: 'covered_by_wildcard',
          message: '"invoice.paid" is already taken by "invoice.*": send one of them.',
        },
      ]);
      const star = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/h',
        events: ['*', 'invoice.*'],
      });
      expect(star.json().error.details[0]).toMatchObject({ field: 'events', code: 'wildcard_not_alone' });
    });

    it('keeps wildcards as sent, and takes them in a change too', async () => {
      const c = await company();
      const created = await c.send('POST', '/webhook-endpoint', {
        url: 'https://127.0.0.1:9/h',
        events: ['invoice.*', 'credit-note.created'],
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.events).toEqual(['invoice.*', 'credit-note.created']);
      const patched = await c.send('PATCH', `/webhook-endpoint/${created.json().data.id}`, { events: ['payment.*'] });
      expect(patched.json().data.events).toEqual(['payment.*']);
    });

    it('delivers every event of the resource of a wildcard, and none of another resource', async () => {
      const c = await company();
      const receiver = await startReceiver();
      receivers.push(receiver);
      expect((await c.send('POST', '/webhook-endpoint', { url: receiver.url, events: ['invoice.*'] })).statusCode).toBe(
        201,
      );
      const typesOf = () => receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type);
      const invoiceEvents = () => typesOf().filter((type) => type.startsWith('invoice.')).length;

      const buyer = (await c.send('POST', '/organization', { name: 'Wildcard Buyer', isCustomer: true })).json().data;
      const invoice = (
        await c.send('POST', '/invoice', {
          organizationId: buyer.id,
          lines: [{ name: 'Item', quantity: '1', unitPrice: '10', vatRate: '19' }],
        })
      ).json().data;
      await receiver.waitFor(() => invoiceEvents() === 2);
      await c.send('PATCH', `/organization/${buyer.id}`, { phone: '+49 30 1' });
      await c.send('POST', `/invoice/${invoice.id}/payment`, { amount: '11.90' });
      await receiver.waitFor(() => invoiceEvents() === 3);
      // organization.created/updated and payment.created came before invoice.paid, and were not sent.
      expect(typesOf().sort()).toEqual(['invoice.created', 'invoice.finalized', 'invoice.paid']);
    });
  });
}
