import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStatements } from '../../bench/seed.mjs';
import { migrateToLatest, type Storage } from '../../src/db/database.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../helpers/dialects.js';

// SQLite plans without statistics: given two indexes it takes the one with more equalities, which
// is not always the one that finds a few rows. The reads an invoice makes on every GET must seek
// by invoice, not read every row of the company; the webhook dispatch must read an endpoint's
// outbox rows from its cursor on, not every row another endpoint still waits for (a row-value
// comparison would be a range from the start). PostgreSQL plans from statistics: its plans are
// checked on a database grown as the bench grows it (bench/seed.mjs) and analysed.

/**
 * What finalize, a payment and a credit note read and change of an invoice, as their repositories
 * write it: each must reach its rows through an index on each key named (an index on the company
 * alone would read every row of a big one). Parameters are `$n`, which SQLite takes too.
 */
const WRITE_PATH_STATEMENTS: { what: string; keys: string[]; statement: string; params: unknown[] }[] = [
  {
    what: 'reads an invoice by owner and id',
    keys: ['id'],
    statement: 'select * from invoices where company_id = $1 and livemode = $2 and id = $3',
    params: ['c', 1, 'i'],
  },
  {
    what: 'reads an invoice’s lines',
    keys: ['invoice_id'],
    statement: 'select * from invoice_lines where company_id = $1 and invoice_id = $2 order by position',
    params: ['c', 'i'],
  },
  {
    what: 'reads the buyer',
    keys: ['id'],
    statement: 'select * from organizations where company_id = $1 and livemode = $2 and id = $3',
    params: ['c', 1, 'o'],
  },
  {
    what: 'claims a draft to finalize it',
    keys: ['id'],
    statement:
      "update invoices set status = 'issued', version = $4 where company_id = $1 and livemode = $2 and id = $3 and status = 'draft' and version = $5",
    params: ['c', 1, 'i', 2, 1],
  },
  {
    what: 'writes the number taken unless an invoice of the company has it',
    keys: ['id', 'number'],
    statement:
      'update invoices set number = $3 where company_id = $1 and id = $2 and not exists (select taken.id from invoices as taken where taken.company_id = $1 and taken.livemode = $4 and taken.number = $3)',
    params: ['c', 'i', '2026-00001', 1],
  },
  {
    what: 'settles a payment or a credit note (compare-and-set)',
    keys: ['id'],
    statement:
      'update invoices set amount_paid = $4, updated_at = $5 where company_id = $1 and livemode = $2 and id = $3 and status = $6 and amount_paid = $7 and amount_credited = $8 and amount_refunded = $9',
    params: ['c', 1, 'i', '1', 't', 'issued', '0', '0', '0'],
  },
  {
    what: 'reads the invoice’s payments to answer with it',
    keys: ['invoice_id'],
    statement:
      'select * from payments where company_id = $1 and livemode = $2 and invoice_id in ($3) order by invoice_id, created_at, id',
    params: ['c', 1, 'i'],
  },
  {
    what: 'reads the invoice’s credit notes to answer with it',
    keys: ['invoice_id'],
    statement:
      'select id, invoice_id from credit_notes where company_id = $1 and livemode = $2 and invoice_id in ($3) order by invoice_id, created_at, id',
    params: ['c', 1, 'i'],
  },
];

describe('the query plans of hot reads and writes on sqlite', () => {
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

  it.each(WRITE_PATH_STATEMENTS.map((s) => [s.what, s] as const))(
    '%s in index seeks on its keys',
    async (_what, { keys, statement }) => {
      const detail = await plan(statement);
      const seeks = [...detail.matchAll(/SEARCH \w+ USING (?:COVERING )?INDEX \w+ \(([^)]*)\)/g)].map((m) => m[1]);
      for (const key of keys) expect(seeks, detail).toContainEqual(expect.stringMatching(new RegExp(`\\b${key}=\\?`)));
      expect(detail).not.toMatch(/SCAN/);
    },
  );

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

describe.skipIf(!DIALECTS.includes('postgres'))(
  'the query plans of the write paths on a grown postgres database',
  () => {
    // 20,000 seeded invoices (half of them one company's), 60,000 lines, payments, credit notes and
    // events, analysed; the plans are the generic ones the service's prepared statements settle on.
    const COMPANY = 'cmp_plans';
    let database: TestDatabase;
    let client: pg.Client;
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const storage = database.open();
      await migrateToLatest(storage.db);
      await storage.close();
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client.query(
        `insert into companies (id, name, currency, created_at) values ('${COMPANY}', 'Plans GmbH', 'EUR', '2026-01-01T00:00:00.000Z')`,
      );
      for (const statement of seedStatements('postgres', COMPANY, 0, 20_000)) await client.query(statement);
      await client.query('analyze');
      await client.query('set plan_cache_mode = force_generic_plan');
    });
    afterAll(async () => {
      await client?.end();
      await database?.drop();
    });

    interface PlanNode {
      'Node Type': string;
      'Relation Name'?: string;
      'Index Name'?: string;
      'Index Cond'?: string;
      Plans?: PlanNode[];
    }
    const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

    it.each(WRITE_PATH_STATEMENTS.map((s) => [s.what, s] as const))(
      '%s through an index on its keys',
      async (_what, { keys, statement, params }) => {
        await client.query('deallocate all');
        await client.query(`prepare q as ${statement}`);
        // EXPLAIN EXECUTE takes no bind parameters: the values are written in (the plan is the generic one regardless).
        const values = params.map((v) => (typeof v === 'number' ? String(v) : `'${String(v)}'`)).join(', ');
        const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `explain (format json) execute q(${values})`,
        );
        const nodes = nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
        const shown = JSON.stringify(nodes.map((n) => [n['Node Type'], n['Index Name'], n['Index Cond']]));
        expect(
          nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
          shown,
        ).toEqual([]);
        for (const key of keys)
          expect(
            nodes.some((n) => /Index/.test(n['Node Type']) && new RegExp(`\\b${key} = `).test(n['Index Cond'] ?? '')),
            `${key}: ${shown}`,
          ).toBe(true);
      },
    );
  },
);
