import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeOldEvents } from '../../src/events/event-purge.js';
import { EVENT_RETENTION_MS } from '../../src/schemas/event-types.js';
import { BASE_PATH } from '../../src/http/api-version.js';
import { scopeFor } from '../../src/db/scope.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

type Body = Record<string, unknown>;
interface EventAnswer {
  id: string;
  type: string;
  createdAt: string;
  requestId: string | null;
  data: { object: Record<string, unknown> };
}

const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`events on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    async function company() {
      const { companyId, key } = await t.tenant();
      const send = (
        method: 'POST' | 'PATCH' | 'DELETE',
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
      /** Every event of the company, oldest first. */
      const events = async (query = ''): Promise<EventAnswer[]> => {
        const all: EventAnswer[] = [];
        let cursor: string | null = null;
        do {
          const res = await t.get(`/event?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`, key);
          expect(res.statusCode, res.body).toBe(200);
          all.push(...res.json().data.items);
          cursor = res.json().data.nextCursor;
        } while (cursor);
        return all.reverse();
      };
      return { companyId, key, send, events };
    }

    it('writes one event per change, with the object as the API answered it and the request id', async () => {
      const c = await company();
      const created = await c.send(
        'POST',
        '/organization',
        { name: 'Event Buyer', isCustomer: true },
        { 'x-request-id': 'trace-org-1' },
      );
      const buyer = created.json().data;
      await c.send('PATCH', `/organization/${buyer.id}`, { phone: '+49 30 1' });
      const draft = (
        await c.send('POST', '/invoice', { organizationId: buyer.id, status: 'draft', lines: LINES })
      ).json().data;
      const patched = (await c.send('PATCH', `/invoice/${draft.id}`, { note: 'Thanks' })).json().data;
      const finalized = (await c.send('POST', `/invoice/${draft.id}/finalize`)).json().data;
      const paid = (await c.send('POST', `/invoice/${draft.id}/payment`, { amount: finalized.amountDue })).json().data;
      const other = (
        await c.send('POST', '/invoice', { organizationId: buyer.id, status: 'draft', lines: LINES })
      ).json().data;
      await c.send('DELETE', `/invoice/${other.id}`);
      const issued = (await c.send('POST', '/invoice', { organizationId: buyer.id, lines: LINES })).json().data;
      const partial = (
        await c.send('POST', '/credit-note', {
          invoiceId: issued.id,
          reason: 'Half',
          lines: [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }],
        })
      ).json().data;
      const voided = (await c.send('POST', `/invoice/${issued.id}/void`)).json().data;

      const events = await c.events();
      expect(events.map((e) => e.type)).toEqual([
        'organization.created',
        'organization.updated',
        'invoice.created',
        'invoice.updated',
        'invoice.finalized',
        'payment.created',
        'invoice.paid',
        'invoice.created',
        'invoice.deleted',
        'invoice.created',
        'invoice.finalized',
        'credit-note.created',
        'credit-note.created',
        'invoice.voided',
      ]);
      expect(events[0]).toMatchObject({ requestId: 'trace-org-1', data: { object: buyer } });
      expect(events[0]!.id).toMatch(/^evt_/);
      expect(events[1]!.data.object).toMatchObject({ id: buyer.id, phone: '+49 30 1' });
      expect(events[3]!.data.object).toEqual(patched);
      expect(events[4]!.data.object).toEqual(finalized);
      expect(events[5]!.data.object).toEqual({ ...paid.payments[0], invoiceId: draft.id });
      expect(events[6]!.data.object).toEqual(paid);
      expect(events[8]!.data.object).toMatchObject({ id: other.id, status: 'draft' });
      expect(events[10]!.data.object).toEqual(issued);
      expect(events[11]!.data.object).toEqual(partial);
      expect(events[12]!.data.object).toMatchObject({ id: voided.creditNoteIds[1], invoiceId: issued.id });
      expect(events[13]!.data.object).toEqual(voided);
      // Each event names the request that made the change, and no two share an id.
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      expect(events.every((e) => typeof e.requestId === 'string')).toBe(true);
    });

    it('writes invoice.paid and invoice.voided when credit notes settle an invoice', async () => {
      const c = await company();
      const buyer = (await c.send('POST', '/organization', { name: 'Credit Buyer', isCustomer: true })).json().data;
      const half = (await c.send('POST', '/invoice', { organizationId: buyer.id, lines: LINES })).json().data;
      await c.send('POST', `/invoice/${half.id}/payment`, { amount: '59.50' });
      await c.send('POST', '/credit-note', {
        invoiceId: half.id,
        reason: 'The rest',
        lines: [{ name: 'Consulting', quantity: '1', unitPrice: '50', vatRate: '19' }],
      });
      const whole = (await c.send('POST', '/invoice', { organizationId: buyer.id, lines: LINES })).json().data;
      await c.send('POST', '/credit-note', { invoiceId: whole.id, reason: 'All of it' });

      const types = (await c.events('&type=invoice.*')).map((e) => `${e.type} ${(e.data.object as { id: string }).id}`);
      expect(types).toEqual([
        `invoice.created ${half.id}`,
        `invoice.finalized ${half.id}`,
        `invoice.paid ${half.id}`,
        `invoice.created ${whole.id}`,
        `invoice.finalized ${whole.id}`,
        `invoice.voided ${whole.id}`,
      ]);
    });

    it('writes no event for a refused change, and none for an idempotent replay', async () => {
      const c = await company();
      const buyer = (await c.send('POST', '/organization', { name: 'Refused Buyer', isCustomer: true })).json().data;
      expect((await c.send('POST', '/organization', { name: 'Refused Buyer', isCustomer: true })).statusCode).toBe(409);
      const issued = (await c.send('POST', '/invoice', { organizationId: buyer.id, lines: LINES })).json().data;
      expect((await c.send('POST', `/invoice/${issued.id}/payment`, { amount: '1000' })).statusCode).toBe(409);
      expect((await c.send('PATCH', `/invoice/${issued.id}`, { note: 'no' })).statusCode).toBe(409);
      expect((await c.send('DELETE', `/invoice/${issued.id}`)).statusCode).toBe(409);
      const once = { 'idempotency-key': 'pay-once' };
      expect((await c.send('POST', `/invoice/${issued.id}/payment`, { amount: '1' }, once)).statusCode).toBe(201);
      expect((await c.send('POST', `/invoice/${issued.id}/payment`, { amount: '1' }, once)).statusCode).toBe(201);
      expect((await c.events()).map((e) => e.type)).toEqual([
        'organization.created',
        'invoice.created',
        'invoice.finalized',
        'payment.created',
      ]);
    });

    it('rolls the event back with the change: a transaction that fails leaves neither', async () => {
      const c = await company();
      const db = t.container.storage.db;
      const scope = scopeFor(c.companyId);
      await expect(
        db.transaction().execute(async (trx) => {
          const result = await t.container.organizations.create(
            scope,
            { name: 'Rolled Back', isCustomer: true },
            new Date(),
            trx,
          );
          expect(result.ok).toBe(true);
          expect(
            await trx.selectFrom('events').select('id').where('company_id', '=', c.companyId).execute(),
          ).toHaveLength(1);
          throw new Error('forced rollback');
        }),
      ).rejects.toThrow('forced rollback');
      expect(
        await db.selectFrom('organizations').select('id').where('company_id', '=', c.companyId).execute(),
      ).toHaveLength(0);
      expect(await c.events()).toEqual([]);

      const buyer = (await c.send('POST', '/organization', { name: 'Kept', isCustomer: true })).json().data;
      await expect(
        db.transaction().execute(async (trx) => {
          const result = await t.container.invoices.create(
            scope,
            { organizationId: buyer.id, lines: LINES },
            new Date(),
            trx,
          );
          expect(result.ok).toBe(true);
          throw new Error('forced rollback');
        }),
      ).rejects.toThrow('forced rollback');
      expect(await db.selectFrom('invoices').select('id').where('company_id', '=', c.companyId).execute()).toHaveLength(
        0,
      );
      expect((await c.events()).map((e) => e.type)).toEqual(['organization.created']);
    });

    it('writes exactly one event per change when changes race: ten finalizes, one event', async () => {
      const c = await company();
      const buyer = (await c.send('POST', '/organization', { name: 'Race Buyer', isCustomer: true })).json().data;
      const draft = (
        await c.send('POST', '/invoice', { organizationId: buyer.id, status: 'draft', lines: LINES })
      ).json().data;
      const answers = await Promise.all(
        Array.from({ length: 10 }, () => c.send('POST', `/invoice/${draft.id}/finalize`)),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      expect((await c.events('&type=invoice.finalized')).map((e) => e.type)).toEqual(['invoice.finalized']);
    });

    it('reads one event by id, filters by type and createdAfter, pages with a cursor, and hides other companies', async () => {
      const c = await company();
      for (let i = 0; i < 5; i++) await c.send('POST', '/organization', { name: `Paged ${i}`, isCustomer: true });
      const all = await c.events();
      expect(all).toHaveLength(5);

      const first = await t.get('/event?limit=2', c.key);
      expect(first.json().data.items.map((e: EventAnswer) => e.id)).toEqual([all[4]!.id, all[3]!.id]);
      const second = await t.get(`/event?limit=2&cursor=${first.json().data.nextCursor}`, c.key);
      expect(second.json().data.items.map((e: EventAnswer) => e.id)).toEqual([all[2]!.id, all[1]!.id]);

      const one = await t.get(`/event/${all[0]!.id}`, c.key);
      expect(one.statusCode).toBe(200);
      expect(one.json().data).toEqual(all[0]);

      const after = await t.get(`/event?createdAfter=${encodeURIComponent(all[2]!.createdAt)}`, c.key);
      expect(after.json().data.items.every((e: EventAnswer) => e.createdAt > all[2]!.createdAt)).toBe(true);
      expect((await t.get('/event?type=invoice.created', c.key)).json().data.items).toEqual([]);
      expect((await t.get('/event?type=organization.created', c.key)).json().data.items).toHaveLength(5);

      const stranger = await company();
      expect((await t.get(`/event/${all[0]!.id}`, stranger.key)).statusCode).toBe(404);
      expect(await stranger.events()).toEqual([]);
    });

    it('refuses an unknown type, a malformed createdAfter and a foreign cursor with 400 naming the field', async () => {
      const c = await company();
      for (const [query, field] of [
        ['type=invoice.exploded', 'type'],
        ['type=nothing.*', 'type'],
        ['createdAfter=yesterday', 'createdAfter'],
        ['cursor=not-a-cursor!', 'cursor'],
      ] as const) {
        const res = await t.get(`/event?${query}`, c.key);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      }
    });

    it('needs event.read: a key without it gets 403', async () => {
      const { key } = await t.tenant(['organization.read']);
      const res = await t.get('/event', key);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    });

    it('purges events older than 30 days, keeping newer ones', async () => {
      const c = await company();
      await c.send('POST', '/organization', { name: 'Old News', isCustomer: true });
      await c.send('POST', '/organization', { name: 'Fresh News', isCustomer: true });
      const [old, fresh] = await c.events();
      const db = t.container.storage.db;
      const longAgo = new Date(Date.now() - EVENT_RETENTION_MS - 60_000).toISOString();
      await db.updateTable('events').set({ created_at: longAgo }).where('id', '=', old!.id).execute();
      await purgeOldEvents(t.container.eventRepository);
      expect((await c.events()).map((e) => e.id)).toEqual([fresh!.id]);
    });
  });
}
