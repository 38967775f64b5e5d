import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// `number` on GET /invoice and GET /credit-note filters by the start of the number, exactly
// (case-sensitive, no wildcard characters), the same on both databases.

const LINES = [{ name: 'Item', quantity: '1', unitPrice: '10', vatRate: '19' }];

for (const dialect of DIALECTS) {
  describe(`the number prefix filter on ${dialect}`, () => {
    let t: TestApp;
    let key: string;
    let companyId: string;
    let buyerId: string;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
      ({ key, companyId } = await t.tenant());
      buyerId = (await t.post('/organization', { name: 'Numbered Buyer', isCustomer: true }, key)).json().data.id;
      for (const issueDate of ['2025-12-30', '2026-01-05', '2026-01-06', '2026-01-07']) {
        const invoice = (await t.post('/invoice', { organizationId: buyerId, issueDate, lines: LINES }, key)).json()
          .data;
        await t.post('/credit-note', { invoiceId: invoice.id, reason: 'Returned', issueDate }, key);
      }
      await t.post(
        '/invoice',
        { organizationId: buyerId, issueDate: '2026-02-01', number: 'SPECIAL_1%', lines: LINES },
        key,
      );
    });
    afterAll(async () => t.close());

    const numbers = async (path: string, number: string, withKey = key) => {
      const res = await t.get(`${path}?number=${encodeURIComponent(number)}`, withKey);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data.items as { number: string }[]).map((item) => item.number).sort();
    };

    it('finds every invoice whose number starts with the prefix', async () => {
      expect(await numbers('/invoice', '2026-0000')).toEqual(['2026-00001', '2026-00002', '2026-00003']);
      expect(await numbers('/invoice', '2026-')).toEqual(['2026-00001', '2026-00002', '2026-00003']);
      expect(await numbers('/invoice', '2025')).toEqual(['2025-00001']);
      expect(await numbers('/invoice', '2026-00002')).toEqual(['2026-00002']);
      expect(await numbers('/invoice', '2026-000021')).toEqual([]);
    });

    it('takes the prefix literally: % and _ are characters, and case counts', async () => {
      expect(await numbers('/invoice', 'SPECIAL_1%')).toEqual(['SPECIAL_1%']);
      expect(await numbers('/invoice', 'SPECIAL_')).toEqual(['SPECIAL_1%']);
      expect(await numbers('/invoice', '2026_')).toEqual([]);
      expect(await numbers('/invoice', '%')).toEqual([]);
      expect(await numbers('/invoice', 'special')).toEqual([]);
    });

    it('finds credit notes by the start of their number', async () => {
      expect(await numbers('/credit-note', 'CN-2026')).toEqual(['CN-2026-00001', 'CN-2026-00002', 'CN-2026-00003']);
      expect(await numbers('/credit-note', 'CN-2025-00001')).toEqual(['CN-2025-00001']);
      expect(await numbers('/credit-note', 'cn-')).toEqual([]);
    });

    it('finds test-mode documents by their TEST- prefix, and live ones never', async () => {
      const testKey = (
        await t.createKey(companyId, ['invoice.create', 'invoice.read', 'organization.create', 'credit-note.read'], {
          mode: 'test',
        })
      ).key;
      const testBuyer = (await t.post('/organization', { name: 'Sandbox Buyer', isCustomer: true }, testKey)).json()
        .data.id;
      await t.post('/invoice', { organizationId: testBuyer, issueDate: '2026-03-01', lines: LINES }, testKey);
      expect(await numbers('/invoice', 'TEST-2026', testKey)).toEqual(['TEST-2026-00001']);
      expect(await numbers('/invoice', '2026', testKey)).toEqual([]);
      expect(await numbers('/invoice', 'TEST-')).toEqual([]);
    });
  });
}
