import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// A list answer never passes RESPONSE_MAX_BYTES: the page ends early with a nextCursor, holds at
// least one item, and paging stays exact (no item repeated or skipped).

const MAX_BYTES = 64 * 1024;

/** An invoice body whose JSON is roughly `lines` × 1.3 KB. */
function invoiceBody(buyerId: string, lines: number, tag: string) {
  return {
    organizationId: buyerId,
    issueDate: '2026-03-01',
    note: tag,
    lines: Array.from({ length: lines }, (_, i) => ({
      name: `${tag} line ${i} `.padEnd(200, 'n'),
      description: 'd'.repeat(1000),
      quantity: '1',
      unitPrice: '1.5',
      vatRate: '19',
    })),
  };
}

for (const dialect of DIALECTS) {
  describe(`bounded list answers on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    const created: string[] = [];

    beforeAll(async () => {
      t = await buildTestApp(dialect, { responseMaxBytes: MAX_BYTES });
      ({ key } = await t.tenant());
      const buyerId = (await t.post('/organization', { name: 'Big Buyer', isCustomer: true }, key)).json().data.id;
      // Small and large invoices mixed; one alone is larger than the whole budget.
      const sizes = [1, 30, 2, 1, 80, 10, 1, 45, 3, 1, 20, 1];
      for (const [i, lines] of sizes.entries()) {
        const res = await t.post('/invoice', invoiceBody(buyerId, lines, `inv${i}`), key);
        expect(res.statusCode, res.body).toBe(201);
        created.push(res.json().data.id);
      }
    });
    afterAll(async () => t.close());

    it('ends each page before the budget, never empty, and pages through every invoice exactly once in order', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await t.get(`/invoice?limit=100${cursor ? `&cursor=${cursor}` : ''}`, key);
        expect(res.statusCode).toBe(200);
        const { items, nextCursor } = res.json().data as {
          items: { id: string; lines: unknown[] }[];
          nextCursor: string | null;
        };
        expect(items.length).toBeGreaterThanOrEqual(1);
        // Over the budget only when the page's one item is larger than the budget by itself.
        if (items.length > 1) expect(Buffer.byteLength(res.body)).toBeLessThanOrEqual(MAX_BYTES);
        else if (Buffer.byteLength(res.body) > MAX_BYTES) expect(items[0]!.lines.length).toBeGreaterThanOrEqual(45);
        seen.push(...items.map((i) => i.id));
        cursor = nextCursor;
        pages += 1;
      } while (cursor !== null && pages < 50);
      expect(seen).toEqual([...created].reverse());
      expect(pages).toBeGreaterThan(3);
    });

    it('keeps small organizations in one page, well within the budget', async () => {
      for (let i = 0; i < 30; i++) await t.post('/organization', { name: `Small ${i}`, isCustomer: true }, key);
      const res = await t.get('/organization?limit=100', key);
      expect(res.json().data.items).toHaveLength(31);
      expect(res.json().data.nextCursor).toBeNull();
    });

    it('ends an organization page early under a tight budget and continues exactly after it', async () => {
      const tight = await buildTestApp(dialect, { responseMaxBytes: 16 * 1024 });
      try {
        const { key: k } = await tight.tenant();
        const names: string[] = [];
        for (let i = 0; i < 60; i++) {
          const res = await tight.post(
            '/organization',
            {
              name: `Org ${String(i).padStart(2, '0')} ${'x'.repeat(150)}`,
              isCustomer: true,
              address: { line1: 'y'.repeat(190) },
            },
            k,
          );
          names.push(res.json().data.name);
        }
        const first = await tight.get('/organization?limit=100', k);
        const page = first.json().data;
        expect(page.items.length).toBeLessThan(60);
        expect(Buffer.byteLength(first.body)).toBeLessThanOrEqual(16 * 1024);
        const second = await tight.get(`/organization?limit=100&cursor=${page.nextCursor}`, k);
        const all = [...page.items, ...second.json().data.items];
        const third = second.json().data.nextCursor
          ? (await tight.get(`/organization?limit=100&cursor=${second.json().data.nextCursor}`, k)).json().data.items
          : [];
        const seen = [...all, ...third].map((o: { name: string }) => o.name);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.slice(0, page.items.length + second.json().data.items.length)).toEqual(
          [...names].reverse().slice(0, page.items.length + second.json().data.items.length),
        );
      } finally {
        await tight.close();
      }
    });
  });
}
