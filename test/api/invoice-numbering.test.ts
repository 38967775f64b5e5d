import { scopeFor } from '../../src/db/scope.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceRepository } from '../../src/repositories/invoice-repository.js';
import { DIALECTS } from '../helpers/dialects.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';

type Body = Record<string, unknown>;

const LINES = [{ name: 'Item', quantity: '1', unitPrice: '10', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`invoice numbers on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    /** A fresh company with a key and a buyer, so each test starts its own sequence. */
    async function company() {
      const { companyId, key } = await t.tenant();
      const buyerId = (await t.post('/organization', { name: 'Buyer', isCustomer: true }, key)).json().data
        .id as string;
      const create = (body: Body = {}) =>
        t.post('/invoice', { organizationId: buyerId, issueDate: '2026-06-15', lines: LINES, ...body }, key);
      const numberOf = async (body: Body = {}) => {
        const res = await create(body);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data.number as string;
      };
      return { companyId, key, buyerId, create, numberOf };
    }

    it('numbers per company and per issue year, starting at 00001', async () => {
      const a = await company();
      const b = await company();
      expect(await a.numberOf()).toBe('2026-00001');
      expect(await a.numberOf()).toBe('2026-00002');
      expect(await a.numberOf({ issueDate: '2025-12-31' })).toBe('2025-00001');
      expect(await b.numberOf()).toBe('2026-00001');
      expect(await a.numberOf()).toBe('2026-00003');
    });

    it('does not advance the counter for a client number, and skips a sequence number a client already took', async () => {
      const c = await company();
      expect(await c.numberOf()).toBe('2026-00001');
      expect(await c.numberOf({ number: '2026-00002' })).toBe('2026-00002');
      expect(await c.numberOf({ number: 'CUSTOM-7' })).toBe('CUSTOM-7');
      expect(
        await new InvoiceRepository(t.storage.db, t.storage.dialect).lastNumberValue(scopeFor(c.companyId), 2026),
      ).toBe(1);
      expect(await c.numberOf()).toBe('2026-00003');
      expect(await c.numberOf()).toBe('2026-00004');
    });

    it('takes no number for a refused creation', async () => {
      const c = await company();
      expect(await c.numberOf()).toBe('2026-00001');
      expect((await c.create({ lines: [{ ...LINES[0], unitPrice: '-1' }] })).statusCode).toBe(400);
      expect((await c.create({ organizationId: 'org_missing' })).statusCode).toBe(400);
      expect((await c.create({ number: '2026-00001' })).statusCode).toBe(409);
      expect(await c.numberOf()).toBe('2026-00002');
    });

    it('gives the number back when the transaction that took it rolls back', async () => {
      const c = await company();
      expect(await c.numberOf()).toBe('2026-00001');
      const repository = new InvoiceRepository(t.storage.db, t.storage.dialect);
      const template = await t.storage.db
        .selectFrom('invoices')
        .selectAll()
        .where('company_id', '=', c.companyId)
        .executeTakeFirstOrThrow();
      const { number: _number, ...invoice } = { ...template, id: 'inv_rollback' };
      await expect(
        t.storage.db.transaction().execute(async (trx) => {
          const inserted = await repository.insert(trx, invoice, [], {
            kind: 'sequence',
            key: { companyId: c.companyId, livemode: 1, sequence: 'invoice', year: 2026 },
            format: (y, v) => `${y}-${String(v).padStart(5, '0')}`,
          });
          expect(inserted).toEqual({ ok: true, number: '2026-00002' });
          throw new Error('a failure after the number was taken');
        }),
      ).rejects.toThrow('a failure after the number was taken');
      expect(await repository.lastNumberValue(scopeFor(c.companyId), 2026)).toBe(1);
      expect(await repository.findById(scopeFor(c.companyId), 'inv_rollback')).toBeUndefined();
      expect(await c.numberOf()).toBe('2026-00002');
    });

    it('gives 50 parallel creations in one company 50 distinct consecutive numbers', async () => {
      const c = await company();
      const responses = await Promise.all(Array.from({ length: 50 }, () => c.create()));
      expect(responses.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
      const numbers = responses.map((r) => r.json().data.number as string).sort();
      expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `2026-${String(i + 1).padStart(5, '0')}`));
    });

    it('skips numbers that clients take while sequence numbers are being handed out in parallel', async () => {
      const c = await company();
      const sequence = Array.from({ length: 30 }, () => c.create());
      // Either the client wins its number (and the sequence skips it) or the sequence got there
      // first (and the client hears 409); never both, never a gap.
      const clients = [c.create({ number: '2026-00005' }), c.create({ number: '2026-00010' })];
      const [sequenced, clientResponses] = await Promise.all([Promise.all(sequence), Promise.all(clients)]);
      expect(sequenced.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
      expect(clientResponses.every((r) => r.statusCode === 201 || r.statusCode === 409)).toBe(true);
      const won = clientResponses.filter((r) => r.statusCode === 201);
      const numbers = [...sequenced, ...won].map((r) => r.json().data.number as string).sort();
      expect(numbers).toEqual(
        Array.from({ length: 30 + won.length }, (_, i) => `2026-${String(i + 1).padStart(5, '0')}`),
      );
    });

    it('gives 40 drafts finalized in parallel, while clients take numbers, distinct consecutive numbers, each in its event', async () => {
      const c = await company();
      const drafts = await Promise.all(
        Array.from({ length: 40 }, async () => (await c.create({ status: 'draft' })).json().data.id as string),
      );
      const finalizes = drafts.map((id) => t.post(`/invoice/${id}/finalize`, {}, c.key));
      const clients = [c.create({ number: '2026-00007' }), c.create({ number: '2026-00021' })];
      const [finalized, clientResponses] = await Promise.all([Promise.all(finalizes), Promise.all(clients)]);
      expect(finalized.map((r) => r.statusCode)).toEqual(Array(40).fill(200));
      const won = clientResponses.filter((r) => r.statusCode === 201);
      expect(won.length + clientResponses.filter((r) => r.statusCode === 409).length).toBe(2);
      const numbers = [...finalized, ...won].map((r) => r.json().data.number as string).sort();
      expect(numbers).toEqual(
        Array.from({ length: 40 + won.length }, (_, i) => `2026-${String(i + 1).padStart(5, '0')}`),
      );
      // Each finalize's event carries the answer it gave, number included.
      const events = await t.storage.db
        .selectFrom('events')
        .select(['object'])
        .where('company_id', '=', c.companyId)
        .where('type', '=', 'invoice.finalized')
        .execute();
      const eventNumbers = new Map(events.map((e) => [JSON.parse(e.object).id, JSON.parse(e.object).number]));
      for (const r of finalized) expect(eventNumbers.get(r.json().data.id)).toBe(r.json().data.number);
      for (const r of finalized) expect(r.json().data.status).toBe('issued');
    });

    it('leaves no gap when refused and client-numbered creations run in between', async () => {
      const c = await company();
      const requests: Promise<{ statusCode: number; json(): { data: { number: string } } }>[] = [];
      for (let i = 0; i < 50; i++) {
        requests.push(c.create());
        if (i % 2 === 0) requests.push(c.create({ lines: [{ ...LINES[0], quantity: '0' }] }));
        if (i % 3 === 0) requests.push(c.create({ organizationId: 'org_missing' }));
        if (i % 5 === 0) requests.push(c.create({ number: `CLIENT-${i}` }));
        if (i % 7 === 0) requests.push(c.create({ number: 'CLIENT-0' }));
      }
      const responses = await Promise.all(requests);
      expect(responses.some((r) => r.statusCode >= 500)).toBe(false);
      const numbers = responses
        .filter((r) => r.statusCode === 201)
        .map((r) => r.json().data.number)
        .filter((n) => n.startsWith('2026-'))
        .sort();
      expect(numbers).toEqual(Array.from({ length: 50 }, (_, i) => `2026-${String(i + 1).padStart(5, '0')}`));
      expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(Math.ceil(50 / 7));
      expect(
        await new InvoiceRepository(t.storage.db, t.storage.dialect).lastNumberValue(scopeFor(c.companyId), 2026),
      ).toBe(50);
    });
  });
}
