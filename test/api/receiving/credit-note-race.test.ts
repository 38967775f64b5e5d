import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, BASE_PATH, type TestApp } from '../../helpers/build.js';
import { DIALECTS } from '../../helpers/dialects.js';
import { receive, supplierDocument } from '../../helpers/purchase-documents.js';

// A supplier's credit note and the invoice it corrects (BT-25) may arrive at the same moment, in
// either order: each round sends both in parallel, and the pair must end linked exactly once,
// with the credit note's payable taken off the invoice once.

const ROUNDS = 10;

for (const dialect of DIALECTS) {
  describe(`a credit note racing its invoice on ${dialect}`, () => {
    let t: TestApp;

    beforeAll(async () => {
      t = await buildTestApp(dialect);
    });
    afterAll(async () => t.close());

    const read = async (key: string, id: string) =>
      (
        await t.request({ method: 'GET', url: `${BASE_PATH}/purchase-invoice/${id}`, headers: { 'x-api-key': key } })
      ).json().data;

    it(`links them exactly once, whichever starts first, in ${ROUNDS} rounds of parallel uploads`, async () => {
      const { key } = await t.tenant();
      for (let round = 0; round < ROUNDS; round++) {
        const number = `R-RACE-${round}`;
        const invoice = () => receive(t, key, supplierDocument({ number, price: '100' }));
        const note = () =>
          receive(t, key, supplierDocument({ number: `CN-RACE-${round}`, corrects: number, price: '50' }));
        const [first, second] = await Promise.all(round % 2 === 0 ? [invoice(), note()] : [note(), invoice()]);
        const [invoiceAnswer, noteAnswer] = round % 2 === 0 ? [first, second] : [second, first];
        expect(invoiceAnswer.statusCode, invoiceAnswer.body).toBe(201);
        expect(noteAnswer.statusCode, noteAnswer.body).toBe(201);
        const invoiceId = invoiceAnswer.json().data.id as string;
        const noteId = noteAnswer.json().data.id as string;
        expect(await read(key, invoiceId), `round ${round}`).toMatchObject({
          amountCredited: '59.50',
          amountDue: '59.50',
          creditNoteIds: [noteId],
        });
        expect(await read(key, noteId), `round ${round}`).toMatchObject({
          correctsNumber: number,
          correctsId: invoiceId,
        });
      }
    });
  });
}
