import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldEvents } from '../../src/events/event-purge.js';
import { EVENT_RETENTION_MS } from '../../src/schemas/event-types.js';
import { scopeFor } from '../../src/db/scope.js';
import { resetTestData } from '../../src/services/test-data.js';
import { FRESH_PER_ENDPOINT, Outbox, readWindow, type OutboxRow } from '../../src/webhooks/outbox-repository.js';
import { ALL_PERMISSIONS, BASE_PATH, buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { eventually } from '../helpers/eventually.js';

type Body = Record<string, unknown>;

// The outbox between a change and its webhook deliveries: a change writes its event and, when an
// enabled endpoint takes it, one outbox row, in its own transaction; each endpoint keeps a cursor
// over the outbox and is given events, as delivery rows, while it has room; a row is deleted once
// every enabled endpoint passed it. The delivery worker is stopped here, so that each test
// dispatches by hand and sees exactly what a dispatch does; webhooks.test.ts covers the worker
// doing it on its own, and webhook-processes.test.ts a SIGKILL in between.

describe('reading a window of the outbox for one endpoint', () => {
  const row = (seq: number, type: string, createdAt = '2026-06-01T00:00:00.000Z'): OutboxRow => ({
    event_id: `evt_${seq}`,
    type,
    created_at: createdAt,
    xact: 0,
    seq,
  });

  it('takes the events of the types it subscribes to and moves past the ones it does not take', () => {
    const window = [
      row(1, 'invoice.paid'),
      row(2, 'organization.created'),
      row(3, 'invoice.paid'),
      row(4, 'organization.updated'),
    ];
    expect(readWindow({ events: ['invoice.paid'], createdAt: '2026-01-01T00:00:00.000Z', room: 10 }, window)).toEqual({
      eventIds: ['evt_1', 'evt_3'],
      to: { xact: 0, seq: 4 },
    });
  });

  it('stops at the first event it has no room for, so that event is read again next time', () => {
    const window = [
      row(1, 'invoice.paid'),
      row(2, 'organization.created'),
      row(3, 'invoice.paid'),
      row(4, 'invoice.paid'),
    ];
    expect(readWindow({ events: ['*'], createdAt: '2026-01-01T00:00:00.000Z', room: 2 }, window)).toEqual({
      eventIds: ['evt_1', 'evt_2'],
      to: { xact: 0, seq: 2 },
    });
    expect(readWindow({ events: ['invoice.paid'], createdAt: '2026-01-01T00:00:00.000Z', room: 1 }, window)).toEqual({
      eventIds: ['evt_1'],
      to: { xact: 0, seq: 2 },
    });
  });

  it('with no room takes nothing but still moves past events it would not take', () => {
    const window = [row(1, 'organization.created'), row(2, 'invoice.paid'), row(3, 'organization.created')];
    expect(readWindow({ events: ['invoice.paid'], createdAt: '2026-01-01T00:00:00.000Z', room: 0 }, window)).toEqual({
      eventIds: [],
      to: { xact: 0, seq: 1 },
    });
    expect(
      readWindow({ events: ['invoice.paid'], createdAt: '2026-01-01T00:00:00.000Z', room: 0 }, [
        row(1, 'invoice.paid'),
      ]),
    ).toEqual({ eventIds: [], to: null });
  });

  it('does not take events from before the endpoint was created', () => {
    const window = [
      row(1, 'invoice.paid', '2026-05-31T23:59:59.999Z'),
      row(2, 'invoice.paid', '2026-06-01T00:00:00.000Z'),
    ];
    expect(readWindow({ events: ['*'], createdAt: '2026-06-01T00:00:00.000Z', room: 5 }, window)).toEqual({
      eventIds: ['evt_2'],
      to: { xact: 0, seq: 2 },
    });
  });
});

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
      const send = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: Body) =>
        t.request({
          method,
          url: `${BASE_PATH}${path}`,
          headers: { 'x-api-key': key },
          ...(body ? { payload: body } : {}),
        });
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
        (
          await t.storage.db
            .selectFrom('events')
            .select('id')
            .where('company_id', '=', companyId)
            .orderBy('id')
            .execute()
        ).map((row) => row.id);
      return { companyId, send, endpoint, organization, eventIds };
    }

    const outboxOf = async (eventIds: string[]) =>
      eventIds.length === 0
        ? []
        : (
            await t.storage.db
              .selectFrom('webhook_outbox')
              .select('event_id')
              .where('event_id', 'in', eventIds)
              .orderBy('event_id')
              .execute()
          ).map((row) => row.event_id);
    const deliveriesOf = (companyId: string) =>
      t.storage.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'event_id', 'endpoint_id', 'status'])
        .where('company_id', '=', companyId)
        .orderBy('event_id')
        .orderBy('endpoint_id')
        .execute();
    /**
     * On PostgreSQL a round passes only outbox rows older than every transaction still running on
     * the whole cluster (pg_snapshot_xmin): on a busy machine another test's transaction holds that
     * horizon back for a while. Waits until every transaction that had begun by now has ended.
     */
    async function pastOlderTransactions(): Promise<void> {
      if (dialect !== 'postgres') return;
      const [{ now }] = (await sql<{ now: string }>`select pg_current_xact_id()::text as now`.execute(t.storage.db))
        .rows as [{ now: string }];
      await eventually(
        async () => {
          const { rows } = await sql<{
            xmin: string;
          }>`select pg_snapshot_xmin(pg_current_snapshot())::text as xmin`.execute(t.storage.db);
          return BigInt(rows[0]!.xmin) > BigInt(now);
        },
        { timeoutMs: 20_000, what: 'the transactions running on the PostgreSQL cluster to end' },
      );
    }

    /**
     * Dispatches until no endpoint has more to read, then cleans up; answers the deliveries made.
     * First waits for the transactions running elsewhere to end, unless `holding` says a
     * transaction of the test itself is open.
     */
    async function drain(outbox: Outbox, options: { holding?: boolean } = {}): Promise<number> {
      if (!options.holding) await pastOlderTransactions();
      let made = 0;
      for (;;) {
        const round = await outbox.dispatch();
        made += round.made;
        if (!round.more && round.moved === 0) break;
      }
      await outbox.cleanUp();
      return made;
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
          expect(
            (
              await t.container.organizations.create(
                scopeFor(c.companyId),
                { name: 'Rolled Back', isCustomer: true },
                new Date(),
                trx,
              )
            ).ok,
          ).toBe(true);
          eventId = (
            await trx.selectFrom('events').select('id').where('company_id', '=', c.companyId).executeTakeFirstOrThrow()
          ).id;
          expect(
            await trx.selectFrom('webhook_outbox').select('event_id').where('event_id', '=', eventId).execute(),
          ).toHaveLength(1);
          throw new Error('forced rollback');
        }),
      ).rejects.toThrow('forced rollback');
      expect(eventId).toMatch(/^evt_/);
      expect(await c.eventIds()).toEqual([]);
      expect(await outboxOf([eventId])).toEqual([]);
    });

    it('gives each event to every endpoint that takes it, once, with two dispatchers racing, and then deletes the rows all have passed', async () => {
      await drain(t.container.outbox);
      const c = await company();
      const everything = await c.endpoint(['*']);
      const created = await c.endpoint(['organization.created']);
      await c.endpoint(['invoice.paid']);
      await c.endpoint(['*'], false);
      for (let i = 0; i < 30; i++) await c.organization(`Racer ${i}`);
      const events = await c.eventIds();
      expect(events).toHaveLength(30);
      expect(await outboxOf(events)).toEqual(events);

      // Two outboxes, two connections on PostgreSQL.
      await Promise.all([
        drain(new Outbox(t.storage.db, t.storage.dialect)),
        drain(new Outbox(t.storage.db, t.storage.dialect)),
      ]);
      const deliveries = await deliveriesOf(c.companyId);
      const expected = events.flatMap((eventId) =>
        [everything, created].sort().map((endpointId) => ({ eventId, endpointId })),
      );
      expect(deliveries.map((d) => ({ eventId: d.event_id, endpointId: d.endpoint_id }))).toEqual(expected);
      for (const d of deliveries) expect(d).toMatchObject({ id: expect.stringMatching(/^whd_/), status: 'pending' });
      expect(new Set(deliveries.map((d) => d.id)).size).toBe(deliveries.length);
      expect(await outboxOf(events)).toEqual([]);
    });

    it('gives an event only to endpoints that existed when it happened', async () => {
      const c = await company();
      const early = await c.endpoint(['*']);
      await c.organization('Before The Second Endpoint');
      // The second endpoint is made on a later millisecond than the event.
      const eventMadeBy = Date.now();
      await eventually(() => Date.now() > eventMadeBy, { intervalMs: 1, what: 'the clock to move on' });
      await c.endpoint(['*']);
      await drain(t.container.outbox);
      expect((await deliveriesOf(c.companyId)).map((d) => d.endpoint_id)).toEqual([early]);
    });

    it('gives an endpoint whose deliveries wait only as many more as it has room for, keeps the rest in order, and does not hold back another endpoint', async () => {
      const c = await company();
      const stuck = await c.endpoint(['*']);
      const quick = await c.endpoint(['*']);
      const extra = 25;
      for (let i = 0; i < FRESH_PER_ENDPOINT + extra; i++) await c.organization(`Backlog ${i}`);
      const events = await c.eventIds();
      const of = async (endpointId: string) =>
        (await deliveriesOf(c.companyId)).filter((d) => d.endpoint_id === endpointId).map((d) => d.event_id);
      await drain(t.container.outbox);
      expect(await of(quick)).toEqual(events.slice(0, FRESH_PER_ENDPOINT));
      // The quick endpoint answers its deliveries and is given the rest; the stuck one keeps the
      // oldest FRESH_PER_ENDPOINT, and the rest wait for it in the outbox, in order.
      await t.storage.db
        .updateTable('webhook_deliveries')
        .set({ status: 'succeeded', attempts: 1 })
        .where('endpoint_id', '=', quick)
        .execute();
      await drain(t.container.outbox);
      expect(await of(quick)).toEqual(events);
      expect(await of(stuck)).toEqual(events.slice(0, FRESH_PER_ENDPOINT));
      expect(await outboxOf(events)).toEqual(events.slice(FRESH_PER_ENDPOINT));

      // Ten of its deliveries are attempted (and wait for a retry): it is given the next ten.
      const attempted = (
        await t.storage.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('endpoint_id', '=', stuck)
          .orderBy('event_id')
          .limit(10)
          .execute()
      ).map((d) => d.id);
      await t.storage.db.updateTable('webhook_deliveries').set({ attempts: 1 }).where('id', 'in', attempted).execute();
      await drain(t.container.outbox);
      expect(await of(stuck)).toEqual(events.slice(0, FRESH_PER_ENDPOINT + 10));
      expect(await outboxOf(events)).toEqual(events.slice(FRESH_PER_ENDPOINT + 10));

      // Disabled, it holds nothing back: the outbox rows go, and enabled again it starts from now.
      await c.send('PATCH', `/webhook-endpoint/${stuck}`, { enabled: false });
      await drain(t.container.outbox);
      expect(await outboxOf(events)).toEqual([]);
      await c.send('PATCH', `/webhook-endpoint/${stuck}`, { enabled: true });
      await t.storage.db
        .updateTable('webhook_deliveries')
        .set({ attempts: 1 })
        .where('endpoint_id', '=', stuck)
        .execute();
      await c.organization('After Enabling Again');
      await drain(t.container.outbox);
      const after = (await c.eventIds()).at(-1)!;
      expect(await of(stuck)).toEqual([...events.slice(0, FRESH_PER_ENDPOINT + 10), after]);
      expect(await outboxOf([after])).toEqual([]);
    });

    it('drops the outbox rows of a company and mode whose endpoints are all disabled or deleted', async () => {
      const c = await company();
      const only = await c.endpoint(['*']);
      await c.organization('Heard Then Not');
      expect(await outboxOf(await c.eventIds())).toHaveLength(1);
      await c.send('PATCH', `/webhook-endpoint/${only}`, { enabled: false });
      await t.container.outbox.cleanUp();
      expect(await outboxOf(await c.eventIds())).toEqual([]);

      const d = await company();
      const gone = await d.endpoint(['*']);
      await d.organization('Heard Then Deleted');
      expect(await outboxOf(await d.eventIds())).toHaveLength(1);
      expect((await d.send('DELETE', `/webhook-endpoint/${gone}`)).statusCode).toBe(200);
      expect(await outboxOf(await d.eventIds())).toEqual([]);
    });

    it('drops outbox rows whose events are gone: a test-data reset and the purge take them along', async () => {
      const sandbox = await company('test');
      await sandbox.endpoint(['*']);
      await sandbox.organization('Sandbox Buyer');
      const testEvents = await sandbox.eventIds();
      expect(await outboxOf(testEvents)).toEqual(testEvents);
      await resetTestData(t.container.repositories.testData, sandbox.companyId);
      expect(await outboxOf(testEvents)).toEqual([]);

      const old = await company();
      await old.endpoint(['*']);
      await old.organization('Long Ago');
      const oldEvents = await old.eventIds();
      await t.storage.db
        .updateTable('events')
        .set({ created_at: new Date(Date.now() - EVENT_RETENTION_MS - 60_000).toISOString() })
        .where('id', 'in', oldEvents)
        .execute();
      await purgeOldEvents(t.container.eventRepository);
      expect(await outboxOf(oldEvents)).toEqual([]);

      // An outbox row left behind anyway (its event deleted by hand) is passed and makes nothing.
      await drain(t.container.outbox);
      const orphan = 'evt_00000000-0000-7000-8000-000000000000';
      await t.storage.db
        .insertInto('webhook_outbox')
        .values({
          event_id: orphan,
          company_id: old.companyId,
          livemode: 1,
          type: 'organization.created',
          created_at: new Date().toISOString(),
        })
        .execute();
      expect(await drain(t.container.outbox)).toBe(0);
      expect(await outboxOf([orphan])).toEqual([]);
    });

    it('records nothing, and raises nothing, for an attempt whose endpoint was deleted while it was in flight', async () => {
      const c = await company();
      const endpoint = await c.endpoint(['*']);
      await c.organization('Sent Then Deleted');
      await drain(t.container.outbox);
      const leased = await t.container.deliveries.lease({
        owner: 'outbox-test',
        now: new Date(),
        leaseMs: 60_000,
        limit: 1000,
        perEndpoint: 4,
        busyEndpoints: [],
      });
      const job = leased.find((j) => j.endpointId === endpoint);
      expect(job).toBeDefined();
      await t.container.deliveries.release(
        leased.filter((j) => j !== job).map((j) => j.id),
        'outbox-test',
      );
      expect((await c.send('DELETE', `/webhook-endpoint/${endpoint}`)).statusCode).toBe(200);
      const attempt = {
        attemptedAt: new Date().toISOString(),
        durationMs: 5,
        statusCode: 200,
        succeeded: true,
        excerpt: null,
        error: null,
      };
      expect(await t.container.deliveries.recordAttempt(job!, 'outbox-test', attempt, null, new Date(0))).toEqual({
        disabled: false,
      });
      expect(
        await t.storage.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', job!.id).execute(),
      ).toEqual([]);
    });

    if (dialect === 'postgres') {
      it('never passes a change still committing: an event committed after an older open transaction waits for it, and neither is lost', async () => {
        await drain(t.container.outbox);
        const c = await company();
        const endpoint = await c.endpoint(['*']);
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        let opened!: () => void;
        const open = new Promise<void>((resolve) => (opened = resolve));
        // The slow change: its transaction id and outbox row come first, its commit last.
        const slow = t.storage.db.transaction().execute(async (trx) => {
          expect(
            (
              await t.container.organizations.create(
                scopeFor(c.companyId),
                { name: 'Slow To Commit', isCustomer: true },
                new Date(),
                trx,
              )
            ).ok,
          ).toBe(true);
          opened();
          await gate;
        });
        await open;
        await c.organization('Quick To Commit');
        const [quickEvent] = await c.eventIds();
        await drain(t.container.outbox, { holding: true });
        expect((await deliveriesOf(c.companyId)).map((d) => d.event_id)).toEqual([]);
        expect(await outboxOf([quickEvent!])).toEqual([quickEvent]);
        release();
        await slow;
        await drain(t.container.outbox);
        const events = await c.eventIds();
        expect(events).toHaveLength(2);
        expect((await deliveriesOf(c.companyId)).map((d) => [d.event_id, d.endpoint_id])).toEqual(
          events.map((e) => [e, endpoint]),
        );
        const cursor = await t.storage.db
          .selectFrom('webhook_outbox_cursors')
          .select(sql<string>`xact::text`.as('xact'))
          .where('endpoint_id', '=', endpoint)
          .executeTakeFirstOrThrow();
        expect(cursor.xact).not.toBe('0');
      });
    }
  });
}
