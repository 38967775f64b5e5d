import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import { receive, supplierDocument } from '../../helpers/purchase-documents.js';

// What a received document holds that the model has no field for is kept, but read apart: the
// purchase invoice says how many, and GET /purchase-invoice/{id}/unmapped pages through them in
// document order, so one read never grows with them.

const EXTRA = 250;

/** A supplier's invoice with `count` elements that UBL and EN 16931 do not know, right after the currency. */
function withUnknownElements(count: number): string {
  const xml = supplierDocument({ number: 'R-UNMAPPED' });
  const extras = Array.from(
    { length: count },
    (_, i) => `<cbc:Note-Unknown-${i % 3}>value ${i + 1}</cbc:Note-Unknown-${i % 3}>`,
  ).join('');
  return xml.replace('</cbc:DocumentCurrencyCode>', `</cbc:DocumentCurrencyCode>${extras}`);
}

for (const dialect of DIALECTS) {
  describe(`unmapped values of a received document on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const get = (key: string, path: string) =>
      t.request({ method: 'GET', url: `${BASE_PATH}${path}`, headers: { 'x-api-key': key } });

    it('answers how many there are in the read, and pages through all of them in document order with a cursor', async () => {
      const { key } = await t.tenant();
      const res = await receive(t, key, withUnknownElements(EXTRA));
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().data.id as string;
      const read = (await get(key, `/purchase-invoice/${id}`)).json().data;
      expect(read.unmapped).toBeUndefined();
      expect(read.unmappedCount).toBe(EXTRA);

      const seen: { n: number; path: string; value: string }[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await get(key, `/purchase-invoice/${id}/unmapped?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
        expect(page.statusCode, page.body).toBe(200);
        const data = page.json().data as { items: typeof seen; nextCursor: string | null };
        expect(data.items.length).toBeLessThanOrEqual(100);
        seen.push(...data.items);
        cursor = data.nextCursor;
        pages++;
      } while (cursor !== null);
      expect(pages).toBe(3);
      expect(seen.map((e) => e.n)).toEqual(Array.from({ length: EXTRA }, (_, i) => i + 1));
      expect(seen[0]).toEqual({
        n: 1,
        path: expect.stringMatching(/^\/Invoice\[1\]\/cbc:Note-Unknown-0\[1\]$/),
        value: 'value 1',
      });
      expect(seen.at(-1)).toMatchObject({ value: `value ${EXTRA}` });
    });

    it('answers an empty page for a document without any, 404 for another company and 400 for a made-up cursor', async () => {
      const { key } = await t.tenant();
      const res = await receive(t, key, supplierDocument({ number: 'R-CLEAN' }));
      const id = res.json().data.id as string;
      expect(res.json().data.unmappedCount).toBe(0);
      const page = await get(key, `/purchase-invoice/${id}/unmapped`);
      expect(page.json().data).toEqual({ items: [], nextCursor: null });
      const other = await t.tenant();
      expect((await get(other.key, `/purchase-invoice/${id}/unmapped`)).statusCode).toBe(404);
      const bad = await get(key, `/purchase-invoice/${id}/unmapped?cursor=bm90LWEtY3Vyc29y`);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.details[0]).toMatchObject({ field: 'cursor', code: 'invalid_cursor' });
    });
  });
}
