import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldEvents } from '../src/events/event-purge.js';
import { EVENT_RETENTION_MS } from '../src/events/event-types.js';
import { scopeFor } from '../src/services/scope.js';
import { resetTestData } from '../src/services/test-data.js';
import { DeliveryRepository } from '../src/webhooks/delivery-repository.js';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from './helpers/build.js';
import { DIALECTS } from './helpers/dialects.js';

type Body = Record<string, unknown>;

// The outbox between a change and its webhook deliveries: a change writes its event and, when an
// enabled endpoint takes it, one outbox row, in its own transaction; a dispatch turns outbox rows
// into delivery rows and deletes them. The delivery worker is stopped here, so that each test
// dispatches by hand and sees exactly what a dispatch does; webhooks.test.ts covers the worker
// doing it on its own, and webhook-processes.test.ts a SIGKILL in between.

for (const dialect of DIALECTS) {
  describe(`the webhook outbox on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect, { webhookAllowPrivateUrls: true });
      await t.container.deliveryWorker.stop();
    });
    afterAll(async () => t.close());

    async function company(mode: 'live' | 'test' = 'live') {
      const companyId = await t.createCompany(`Outbox ${Math.random().toString(36).slice(2, 8)}`);
      const { key } = await t.createKey(companyId, ALL_PERMISSIONS, { mode });
      const send = (method: 'POST' | 'PATCH', path: string, body: Body) => t.request({ method, url: `${BASE_PATH}${path}`, headers: { 'x-api-key': key }, payload: body });
      const endpoint = async (events: string[], enabled = true) => {
        const res = await send('POST', '/webhook-endpoint', { url: 'http://127.0.0.1:9/never-sent', events });
        expect(res.statusCode, res.body).toBe(201);
        const id = res.json().data.id as string;
        if (!enabled) expect((await send('PATCH', `/webhook-endpoint/${id}`, { enabled: false })).statusCode).toBe(200);
        return id;
      };
      const organization = async (name: string) => {
        const res = await send('POST', '/organization', { name, isCustomer: true });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data.id as string;
      };
      const eventIds = async () =>
        (await t.storage.db.selectFrom('events').select('id').where('company_id', '=', companyId).orderBy('id').execute()).map((row) => row.id);
      return { companyId, endpoint, organization, eventIds };
    }

    const outboxOf = async (eventIds: string[]) =>
      eventIds.length === 0 ? [] : (await t.storage.db.selectFrom('webhook_outbox').select('event_id').where('event_id', 'in', eventIds).orderBy('event_id').execute()).map((row) => row.event_id);
    const deliveriesOf = (companyId: string) =>
      t.storage.db.selectFrom('webhook_deliveries').select(['id', 'event_id', 'endpoint_id', 'status']).where('company_id', '=', companyId).orderBy('event_id').orderBy('endpoint_id').execute();
    async function drain(repository: DeliveryRepository, batch: number): Promise<number> {
      let taken = 0;
      for (;;) {
        const done = await repository.dispatch(batch);
        if (done.taken === 0) return taken;
        taken += done.taken;
      }
    }

    it('writes an outbox row with each event an enabled endpoint takes, and none for events no endpoint takes', async () => {
      const quiet = await company();
      await quiet.endpoint(['invoice.paid']);
      await quiet.endpoint(['*'], false);
      await quiet.organization('Nobody Listens');
      const [unheard] = await quiet.eventIds();
      expect(unheard).toBeDefined();
      expect(await outboxOf([unheard!])).toEqual([]);

      const heard = await company();
      await heard.endpoint(['organization.created']);
      await heard.organization('Someone Listens');
      expect(await outboxOf(await heard.eventIds())).toEqual(await heard.eventIds());
    });

    it('rolls the outbox row back with its change: a transaction that fails leaves neither event nor outbox row', async () => {
      const c = await company();
      await c.endpoint(['*']);
      let eventId = '';
      await expect(
        t.storage.db.transaction().execute(async (trx) => {
          expect((await t.container.organizations.create(scopeFor(c.companyId), { name: 'Rolled Back', isCustomer: true }, new Date(), trx)).ok).toBe(true);
          eventId = (await trx.selectFrom('events').select('id').where('company_id', '=', c.companyId).executeTakeFirstOrThrow()).id;
          expect(await trx.selectFrom('webhook_outbox').select('event_id').where('event_id', '=', eventId).execute()).toHaveLength(1);
          throw new Error('forced rollback');
        }),
      ).rejects.toThrow('forced rollback');
      expect(eventId).toMatch(/^evt_/);
      expect(await c.eventIds()).toEqual([]);
      expect(await outboxOf([eventId])).toEqual([]);
    });

    it('dispatches one delivery per endpoint that takes the event, and two racing dispatches take each outbox row once', async () => {
      await drain(t.container.deliveries, 500);
      const c = await company();
      const everything = await c.endpoint(['*']);
      const created = await c.endpoint(['organization.created']);
      await c.endpoint(['invoice.paid']);
      await c.endpoint(['*'], false);
      for (let i = 0; i < 30; i++) await c.organization(`Racer ${i}`);
      const events = await c.eventIds();
      expect(events).toHaveLength(30);
      expect(await outboxOf(events)).toEqual(events);

      // Two repositories, two connections on PostgreSQL: small batches make them meet.
      const taken = await Promise.all([drain(new DeliveryRepository(t.storage.db, dialect), 7), drain(new DeliveryRepository(t.storage.db, dialect), 7)]);
      expect(taken[0] + taken[1]).toBe(30);
      expect(await outboxOf(events)).toEqual([]);
      const deliveries = await deliveriesOf(c.companyId);
      const expected = events.flatMap((eventId) => [everything, created].sort().map((endpointId) => ({ eventId, endpointId })));
      expect(deliveries.map((d) => ({ eventId: d.event_id, endpointId: d.endpoint_id }))).toEqual(expected);
      for (const d of deliveries) expect(d).toMatchObject({ id: expect.stringMatching(/^whd_/), status: 'pending' });
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(deliveries.length);
    });

    it('gives an event only to endpoints that existed when it happened', async () => {
      const c = await company();
      const early = await c.endpoint(['*']);
      await c.organization('Before The Second Endpoint');
      await new Promise((resolve) => setTimeout(resolve, 5));
      await c.endpoint(['*']);
      await drain(t.container.deliveries, 500);
      expect((await deliveriesOf(c.companyId)).map((d) => d.endpoint_id)).toEqual([early]);
    });

    it('drops outbox rows whose events are gone: a test-data reset and the purge take them along', async () => {
      const sandbox = await company('test');
      await sandbox.endpoint(['*']);
      await sandbox.organization('Sandbox Buyer');
      const testEvents = await sandbox.eventIds();
      expect(await outboxOf(testEvents)).toEqual(testEvents);
      await resetTestData(t.storage.db, sandbox.companyId);
      expect(await outboxOf(testEvents)).toEqual([]);

      const old = await company();
      await old.endpoint(['*']);
      await old.organization('Long Ago');
      const oldEvents = await old.eventIds();
      await t.storage.db.updateTable('events').set({ created_at: new Date(Date.now() - EVENT_RETENTION_MS - 60_000).toISOString() }).where('id', 'in', oldEvents).execute();
      await purgeOldEvents(t.storage.db);
      expect(await outboxOf(oldEvents)).toEqual([]);

      // An outbox row left behind anyway (its event deleted by hand) is taken and makes nothing.
      await drain(t.container.deliveries, 500);
      const [endpoint] = await t.storage.db.selectFrom('webhook_endpoints').select(['company_id', 'livemode']).where('company_id', '=', old.companyId).execute();
      await t.storage.db
        .insertInto('webhook_outbox')
        .values({ event_id: 'evt_00000000-0000-7000-8000-000000000000', company_id: endpoint!.company_id, livemode: endpoint!.livemode, type: 'organization.created', created_at: new Date().toISOString() })
        .execute();
      expect(await t.container.deliveries.dispatch(500)).toEqual({ taken: 1, made: 0 });
      expect(await outboxOf(['evt_00000000-0000-7000-8000-000000000000'])).toEqual([]);
    });
  });
}
