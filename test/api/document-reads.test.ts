import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';
import { lockingClients, statementsBlockedBy } from '../helpers/pg-waits.js';

// An e-invoice's XML is read like any GET and only then takes its turn to be rendered (two at a
// time per process): a read that waits on the database holds no rendering turn. On PostgreSQL a
// client that locks the credit note lines makes credit notes' reads wait, and an invoice's XML
// must still be made meanwhile.

const LINES = [{ name: 'Consulting', quantity: '2', unitPrice: '50', vatRate: '19' }];

describe.skipIf(!DIALECTS.includes('postgres'))('reading an e-invoice on PostgreSQL', () => {
  let t: TestApp;
  let key: string;
  let client: pg.Client;
  let observer: pg.Client;

  beforeAll(async () => {
    t = await buildTestApp('postgres');
    ({ key } = await t.tenant());
    ({ client, observer } = await lockingClients(t.database.url));
  });
  afterAll(async () => {
    await Promise.all([client?.end(), observer?.end()]);
    await t?.close();
  });

  it("makes an invoice's UBL while more credit notes than the rendering turns wait on the database for their reads", async () => {
    const buyerId = (await t.post('/organization', { name: 'Gate Buyer', isCustomer: true }, key)).json().data.id;
    const invoice = (await t.post('/invoice', { organizationId: buyerId, lines: LINES }, key)).json().data;
    const notes = [];
    for (const amount of ['1.19', '2.38', '3.57']) {
      const note = await t.post(
        '/credit-note',
        {
          invoiceId: invoice.id,
          reason: 'Partial',
          lines: [{ name: 'Discount', quantity: '1', unitPrice: amount, vatRate: '19' }],
        },
        key,
      );
      expect(note.statusCode, note.body).toBe(201);
      notes.push(note.json().data);
    }

    await client.query('begin');
    await client.query('lock table credit_note_lines in access exclusive mode');
    const clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const waitingNotes = notes.map((note) => t.get(`/credit-note/${note.id}/ubl`, key));
    try {
      await statementsBlockedBy(observer, clientPid, notes.length, "the credit notes' reads to wait for the lock");
      // The seller has no e-invoicing profile, so the answer names what is missing: it was rendered
      // and checked, which is the turn the credit notes would hold if their reads had taken it.
      const ubl = await t.get(`/invoice/${invoice.id}/ubl`, key);
      expect(ubl.statusCode, ubl.body).toBe(422);
      expect(ubl.json().error.code).toBe('EINVOICE_INCOMPLETE');
    } finally {
      await client.query('rollback');
    }
    for (const answer of await Promise.all(waitingNotes)) expect(answer.statusCode, answer.body).toBe(422);
  });
});
