import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Storage } from '../../src/db/database.js';
import { createTestDatabase, type TestDatabase } from '../helpers/dialects.js';

// SQLite plans without statistics: given two indexes it takes the one with more equalities, which
// is not always the one that finds a few rows. The reads an invoice makes on every GET must seek
// by invoice, not read every row of the company; the webhook dispatch must read an endpoint's
// outbox rows from its cursor on, not every row another endpoint still waits for (a row-value
// comparison would be a range from the start). (PostgreSQL plans from statistics.)

describe('the query plans of hot reads on sqlite', () => {
  let database: TestDatabase;
  let storage: Storage;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    storage = database.open();
    await migrateToLatest(storage.db);
  });
  afterAll(async () => {
    await storage.close();
    await database.drop();
  });

  const plan = async (query: string) =>
    (await sql.raw<{ detail: string }>(`explain query plan ${query}`).execute(storage.db)).rows
      .map((row) => row.detail)
      .join('; ');

  it.each([
    [
      'payments',
      "select * from payments where company_id = 'c' and livemode = 1 and invoice_id in ('i', 'j') order by invoice_id, created_at, id",
    ],
    [
      'credit notes',
      "select id, invoice_id from credit_notes where company_id = 'c' and livemode = 1 and invoice_id in ('i', 'j') order by invoice_id, created_at, id",
    ],
  ])('looks up an invoice’s %s by company, mode and invoice in one index seek', async (_name, query) => {
    const detail = await plan(query);
    expect(detail).toMatch(
      /SEARCH \w+ USING (COVERING )?INDEX \w+ \(company_id=\? AND livemode=\? AND invoice_id=\?\)/,
    );
    expect(detail).not.toMatch(/SCAN/);
  });

  it.each([
    [
      'finds whether an endpoint has rows past its cursor',
      "select 1 from webhook_outbox o where o.company_id = 'c' and o.livemode = 1 and o.seq > 42 order by o.seq limit 1",
    ],
    [
      'reads a window after the cursor',
      "select o.event_id, o.type, o.created_at, o.xact, o.seq from webhook_outbox o where o.company_id = 'c' and o.livemode = 1 and o.seq > 42 order by o.seq limit 500",
    ],
  ])('%s in one index range over the outbox, never from its start', async (_name, query) => {
    const detail = await plan(query);
    expect(detail).toMatch(
      /SEARCH o USING (COVERING )?INDEX webhook_outbox_position_idx \(company_id=\? AND livemode=\? AND seq>\?\)/,
    );
    expect(detail).not.toMatch(/SCAN|TEMP B-TREE/);
  });

  const key = (column: string) =>
    `upper(replace(replace(replace(replace("${column}", ' ', ''), '.', ''), '-', ''), '/', ''))`;
  it.each([
    [
      'electronic address',
      'organizations_electronic_address_idx',
      `electronic_address_scheme = '0088' and ${key('electronic_address_id')} = '4000001123452'`,
    ],
    ['VAT id', 'organizations_vat_id_idx', `${key('vat_id')} = 'DE811907980'`],
    [
      'legal registration id',
      'organizations_legal_registration_idx',
      `${key('legal_registration_id')} in ('HRB4711', '0106:HRB4711')`,
    ],
  ])('matches a received document’s seller by its %s as a key in one index seek', async (_name, index, condition) => {
    const detail = await plan(
      `select * from organizations where company_id = 'c' and livemode = 1 and ${condition} order by case when archived_at is null then 0 else 1 end, created_at, id limit 1`,
    );
    expect(detail).toMatch(
      new RegExp(`SEARCH organizations USING INDEX ${index} \\(company_id=\\? AND livemode=\\? AND `),
    );
    expect(detail).not.toMatch(/SCAN/);
  });
});
