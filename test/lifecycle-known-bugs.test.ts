import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/build.js';
import { DIALECTS } from './helpers/dialects.js';

// KNOWN BUGS: minimal examples of what test/lifecycle-properties.test.ts found, each failing
// today. They are skipped unless KNOWN_BUGS=1, so that CI stays green until the service is
// fixed; whoever fixes one removes it from here and the matching guard from the property.
//
//   KNOWN_BUGS=1 CI=true npx vitest run test/lifecycle-known-bugs.test.ts test/lifecycle-properties.test.ts

const KNOWN_BUGS = process.env.KNOWN_BUGS === '1';

for (const dialect of DIALECTS) {
  describe.skipIf(!KNOWN_BUGS)(`known lifecycle bugs on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    // Contract: an issued invoice without payments is voided. With a payable of 0 the service
    // asks for a credit note of 0, its own "credit an amount above zero" check refuses it, and
    // SettlementService.void throws that refusal as an Error: 500. The same happens when lines
    // with negative quantities make the payable negative (amountDue below 0, nothing paid).
    it('voids an issued invoice that has nothing due and nothing paid instead of answering 500', async () => {
      const { key } = await t.tenant();
      const buyer = (await t.post('/organization', { name: 'Free Sample Buyer', isCustomer: true }, key)).json().data;
      const issued = await t.post('/invoice', { organizationId: buyer.id, lines: [{ name: 'Free sample', quantity: '1', unitPrice: '0', vatRate: '19' }] }, key);
      expect(issued.json().data).toMatchObject({ status: 'issued', amountDue: '0.00', amountPaid: '0.00' });

      const voided = await t.post(`/invoice/${issued.json().data.id}/void`, undefined, key);
      expect(voided.statusCode, voided.body).toBe(200);
      expect(voided.json().data).toMatchObject({ status: 'void', amountDue: '0.00', amountPaid: '0.00' });
    });
  });
}
