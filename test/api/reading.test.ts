import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '../../src/auth/permissions.js';
import { scopeFor } from '../../src/db/scope.js';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

const READ_AND_WRITE: Permission[] = ['organization.create', 'organization.read', 'invoice.create', 'invoice.read'];

interface Created {
  id: string;
  createdAt: string;
}

/** Newest first as the lists order: by creation instant, then by id for rows of the same instant. */
function newestFirst(rows: Created[]): string[] {
  return [...rows]
    .sort((x, y) => (x.createdAt === y.createdAt ? (x.id < y.id ? 1 : -1) : x.createdAt < y.createdAt ? 1 : -1))
    .map((r) => r.id);
}

function invoiceBody(organizationId: string, extra: Record<string, unknown> = {}) {
  return {
    organizationId,
    issueDate: '2026-03-02',
    lines: [
      { name: 'Consulting', quantity: '3', unitPrice: '19.99', vatRate: '19' },
      { name: 'Book', quantity: 1, unitPrice: '12.50', vatRate: '7', discountPercent: '10' },
    ],
    ...extra,
  };
}

for (const dialect of DIALECTS) {
  describe(`reading back on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let otherKey: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key } = await t.tenant(READ_AND_WRITE));
      ({ key: otherKey } = await t.tenant(READ_AND_WRITE));
    });
    afterAll(async () => t.close());

    const createOrganization = async (
      name: string,
      flags: { isCustomer?: boolean; isSupplier?: boolean } = { isCustomer: true },
      as = key,
    ) => {
      const res = await t.post('/organization', { name, ...flags }, as);
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; name: string; createdAt: string };
    };
    const list = async (path: string, as = key) => {
      const res = await t.get(path, as);
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { items: { id: string; name: string; number?: string }[]; nextCursor: string | null };
    };

    it('reads an organization back exactly as POST /organization returned it', async () => {
      const created = await t.post(
        '/organization',
        {
          name: 'Read Back GmbH',
          isCustomer: true,
          vatId: 'DE811907980',
          address: { city: 'Berlin', countryCode: 'DE' },
        },
        key,
      );
      const read = await t.get(`/organization/${created.json().data.id}`, key);
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toEqual(created.json().data);
      expect(read.json().meta.requestId).toBe(read.headers['x-request-id']);
    });

    it('reads an invoice back with the same lines, totals and snapshots POST /invoice returned', async () => {
      const buyer = await createOrganization('Invoice Reader AG');
      const created = await t.post(
        '/invoice',
        invoiceBody(buyer.id, { note: 'Thank you', purchaseOrderReference: 'PO-1' }),
        key,
      );
      expect(created.statusCode, created.body).toBe(201);
      // A later change of the buyer does not alter the issued invoice.
      await t.storage.db.updateTable('organizations').set({ name: 'Renamed AG' }).where('id', '=', buyer.id).execute();
      const read = await t.get(`/invoice/${created.json().data.id}`, key);
      expect(read.statusCode).toBe(200);
      expect(read.json().data).toEqual(created.json().data);
      expect(read.json().data.buyer.name).toBe('Invoice Reader AG');
      const listed = await list(`/invoice?number=${encodeURIComponent(created.json().data.number)}`);
      // A list shows each invoice as a read does, but for the messages it was sent with, its reminders.
      const {
        deliveries: _sent,
        hostedUrl: _page,
        viewedAt: _viewed,
        reminders: _reminded,
        ...listedAs
      } = created.json().data;
      expect(listed.items).toEqual([listedAs]);
    });

    it('answers 404 NOT_FOUND alike for an id of another company and for an id that does not exist, on every {id} route', async () => {
      const theirs = await createOrganization('Their Organization', { isCustomer: true }, otherKey);
      const theirInvoice = await t.post('/invoice', invoiceBody(theirs.id), otherKey);
      expect(theirInvoice.statusCode).toBe(201);
      const cases: [string, string][] = [
        ['/organization', theirs.id],
        ['/invoice', theirInvoice.json().data.id],
      ];
      for (const [path, foreignId] of cases) {
        const foreign = await t.get(`${path}/${foreignId}`, key);
        const missing = await t.get(`${path}/${foreignId.slice(0, 4)}00000000-0000-7000-8000-000000000000`, key);
        const nonsense = await t.get(`${path}/not-an-id`, key);
        for (const res of [foreign, missing, nonsense]) {
          expect(res.statusCode, path).toBe(404);
          expect(res.json().error.code).toBe('NOT_FOUND');
        }
        expect(foreign.json().error).toEqual(missing.json().error);
        // The owner reads it.
        expect((await t.get(`${path}/${foreignId}`, otherKey)).statusCode).toBe(200);
      }
    });

    it('requires organization.read and invoice.read: a key that may only create gets 403', async () => {
      const { key: createOnly } = await t.tenant(['organization.create', 'invoice.create']);
      const { key: organizationsOnly } = await t.tenant(['organization.read']);
      for (const path of ['/organization', '/organization/org_x', '/invoice', '/invoice/inv_x']) {
        const res = await t.get(path, createOnly);
        expect(res.statusCode, path).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
        expect((await t.get(path)).statusCode, path).toBe(401);
      }
      expect((await t.get('/organization', organizationsOnly)).statusCode).toBe(200);
      expect((await t.get('/invoice', organizationsOnly)).statusCode).toBe(403);
    });

    it('lists newest first, 20 by default, with a cursor to the next page and null on the last', async () => {
      const { key: fresh } = await t.tenant(READ_AND_WRITE);
      const created: Created[] = [];
      for (let i = 0; i < 23; i++)
        created.push(await createOrganization(`Listed ${String(i).padStart(2, '0')}`, { isCustomer: true }, fresh));
      const order = newestFirst(created);
      const first = await list('/organization', fresh);
      expect(first.items.map((o) => o.id)).toEqual(order.slice(0, 20));
      expect(first.nextCursor).toEqual(expect.any(String));
      const second = await list(`/organization?cursor=${first.nextCursor}`, fresh);
      expect(second.items.map((o) => o.id)).toEqual(order.slice(20));
      expect(second.nextCursor).toBeNull();
      const exact = await list('/organization?limit=23', fresh);
      expect(exact.items).toHaveLength(23);
      expect(exact.nextCursor).toBeNull();
    });

    it('pages without repeating or skipping a row while new rows arrive between pages', async () => {
      const { key: fresh, companyId } = await t.tenant(READ_AND_WRITE);
      const before: string[] = [];
      for (let i = 0; i < 17; i++)
        before.push((await createOrganization(`Existing ${i}`, { isCustomer: true }, fresh)).id);
      // Some rows share one creation instant: the id breaks the tie.
      const instant = new Date();
      for (let i = 0; i < 4; i++) {
        const result = await t.container.organizations.create(
          scopeFor(companyId),
          { name: `Same instant ${i}`, isCustomer: true },
          instant,
        );
        if (result.ok) before.push(result.value.id);
      }
      expect(before).toHaveLength(21);

      const seen: string[] = [];
      let cursor: string | null = null;
      let arrivals = 0;
      do {
        const page = await list(`/organization?limit=4${cursor ? `&cursor=${cursor}` : ''}`, fresh);
        seen.push(...page.items.map((o) => o.id));
        cursor = page.nextCursor;
        // New rows arrive between every two pages.
        await createOrganization(`Arrived ${arrivals++}`, { isSupplier: true }, fresh);
        await createOrganization(`Arrived ${arrivals++}`, { isSupplier: true }, fresh);
      } while (cursor !== null);

      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.sort()).toEqual([...before].sort());
      // The newest rows are on a fresh first page.
      const fresh1 = await list('/organization?limit=2', fresh);
      expect(fresh1.items.map((o) => o.name).sort()).toEqual([`Arrived ${arrivals - 2}`, `Arrived ${arrivals - 1}`]);
    });

    it('filters organizations by name prefix, case-insensitively and literally, and by the type flags', async () => {
      const { key: fresh } = await t.tenant(READ_AND_WRITE);
      await createOrganization('Straße Holz GmbH', { isCustomer: true }, fresh);
      await createOrganization('STRASSENBAU AG', { isSupplier: true }, fresh);
      await createOrganization('100% Pure Ltd', { isCustomer: true, isSupplier: true }, fresh);
      await createOrganization('100 Percent Ltd', { isSupplier: true }, fresh);
      await createOrganization('a_b Corp', { isCustomer: true }, fresh);
      await createOrganization('axb Corp', { isCustomer: true }, fresh);
      const names = async (query: string) =>
        (await list(`/organization?${query}`, fresh)).items.map((o) => o.name).sort();

      expect(await names('name=stras')).toEqual(['STRASSENBAU AG', 'Straße Holz GmbH']);
      expect(await names('name=100%25')).toEqual(['100% Pure Ltd']);
      expect(await names('name=a_')).toEqual(['a_b Corp']);
      expect(await names('isCustomer=true&isSupplier=true')).toEqual(['100% Pure Ltd']);
      expect(await names('isSupplier=false')).toEqual(['Straße Holz GmbH', 'a_b Corp', 'axb Corp']);
      expect(await names('name=100&isCustomer=false')).toEqual(['100 Percent Ltd']);
      expect(await names('name=nobody')).toEqual([]);
    });

    it('filters invoices by buyer, number and issue date range, and pages them', async () => {
      const { key: fresh } = await t.tenant(READ_AND_WRITE);
      const a = await createOrganization('Buyer A', { isCustomer: true }, fresh);
      const b = await createOrganization('Buyer B', { isCustomer: true }, fresh);
      const make = async (buyer: string, issueDate: string, number?: string) => {
        const res = await t.post('/invoice', invoiceBody(buyer, { issueDate, ...(number ? { number } : {}) }), fresh);
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data as { id: string; number: string; createdAt: string };
      };
      const jan = await make(a.id, '2026-01-15');
      const feb = await make(b.id, '2026-02-10');
      const mar = await make(a.id, '2026-03-05', 'CUSTOM-7');
      const apr = await make(b.id, '2026-04-01');
      const ids = async (query: string) => (await list(`/invoice?${query}`, fresh)).items.map((i) => i.id);

      expect(await ids('')).toEqual(newestFirst([jan, feb, mar, apr]));
      expect(await ids(`organizationId=${a.id}`)).toEqual(newestFirst([jan, mar]));
      expect(await ids('number=CUSTOM-7')).toEqual([mar.id]);
      expect(await ids('issueDateFrom=2026-02-10&issueDateTo=2026-03-05')).toEqual(newestFirst([feb, mar]));
      expect(await ids('issueDateFrom=2026-03-06')).toEqual([apr.id]);
      expect(await ids(`organizationId=${b.id}&issueDateTo=2026-03-31`)).toEqual([feb.id]);

      const order = newestFirst([jan, feb, mar, apr]);
      const first = await list('/invoice?limit=3', fresh);
      expect(first.items.map((i) => i.id)).toEqual(order.slice(0, 3));
      const second = await list(`/invoice?limit=3&cursor=${first.nextCursor}`, fresh);
      expect(second.items.map((i) => i.id)).toEqual(order.slice(3));
      expect(second.nextCursor).toBeNull();
      // Another company's invoices are not listed.
      expect((await list(`/invoice?organizationId=${a.id}`)).items).toEqual([]);
    });

    it('refuses a bad cursor, limit, filter or unknown parameter with 400 VALIDATION_ERROR naming the field', async () => {
      const cases: [string, string][] = [
        ['/organization?cursor=not-a-cursor', 'cursor'],
        [`/organization?cursor=${Buffer.from('yesterday|org_1').toString('base64url')}`, 'cursor'],
        ['/invoice?cursor=%2F%2F%2F', 'cursor'],
        ['/organization?limit=0', 'limit'],
        ['/organization?limit=101', 'limit'],
        ['/invoice?limit=ten', 'limit'],
        ['/organization?isCustomer=yes', 'isCustomer'],
        ['/invoice?issueDateFrom=2026-13-01', 'issueDateFrom'],
        ['/organization?sort=name', 'sort'],
      ];
      for (const [path, field] of cases) {
        const res = await t.get(path, key);
        expect(res.statusCode, path).toBe(400);
        expect(res.json().error.code, path).toBe('VALIDATION_ERROR');
        expect(
          res.json().error.details.map((d: { field: string }) => d.field),
          path,
        ).toContain(field);
      }
    });
  });
}
