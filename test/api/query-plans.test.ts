import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedStatements } from '../../bench/seed.mjs';
import { migrateToLatest, type Storage } from '../../src/db/database.js';
import { InvoiceRepository } from '../../src/repositories/invoice-repository.js';
import { CreditNoteRepository } from '../../src/repositories/credit-note-repository.js';
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

/**
 * The reminder pass's batch, as its repository writes it (issued invoices due by a date, after the
 * last id of the batch before, by id): run every minute, it must walk an index in id order from
 * that id and stop after the batch, not walk the primary key and filter or sort every open invoice.
 */
const REMINDER_CANDIDATES = {
  statement: "select id from invoices where status = 'issued' and due_date <= $1 and id > $2 order by id limit $3",
  // Due by 30 days from today, as a pass asks; the first batch of 200.
  params: [new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), '', 200] as const,
};

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

  it('reads an invoice with what its answer shows in index seeks on every table, in one statement', async () => {
    // The statement as the repository sends it, caught before it reaches the database.
    let statement = '';
    const catcher = {
      executeQuery: async (query: { sql: string }) => {
        statement = query.sql;
        return { rows: [] };
      },
    } as unknown as Parameters<InvoiceRepository['findWithAnswerRows']>[2];
    await new InvoiceRepository(storage.db, storage.dialect).findWithAnswerRows(
      { companyId: 'c', livemode: true },
      'i',
      catcher,
    );
    let n = 0;
    const detail = await plan(statement.replace(/\?/g, () => `'p${n++}'`));
    const searched = [...detail.matchAll(/SEARCH (\w+) USING (?:COVERING )?INDEX/g)].map((m) => m[1]);
    // The invoice, its lines, payments, credit notes, messages, hosted link and reminders.
    expect(searched.sort(), detail).toEqual(['c', 'e', 'h', 'i', 'l', 'p', 'r']);
    // Only `d`, the at most 50 messages already sought, is read whole.
    expect(detail.match(/SCAN \w+/g), detail).toEqual(['SCAN d']);
  });

  it('reads a credit note with its lines, messages and hosted link in index seeks on every table, in one statement', async () => {
    let statement = '';
    const catcher = {
      executeQuery: async (query: { sql: string }) => {
        statement = query.sql;
        return { rows: [] };
      },
    } as unknown as Parameters<CreditNoteRepository['findWithAnswerRows']>[2];
    await new CreditNoteRepository(storage.db, storage.dialect).findWithAnswerRows(
      { companyId: 'c', livemode: true },
      'cn',
      catcher,
    );
    let n = 0;
    const detail = await plan(statement.replace(/\?/g, () => `'p${n++}'`));
    const searched = [...detail.matchAll(/SEARCH (\w+) USING (?:COVERING )?INDEX/g)].map((m) => m[1]);
    // The credit note, its lines, messages and hosted link.
    expect(searched.sort(), detail).toEqual(['c', 'e', 'h', 'l']);
    expect(detail.match(/SCAN \w+/g), detail).toEqual(['SCAN d']);
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

  it('walks the reminder pass’s candidates in one index range in id order, with no sort', async () => {
    const detail = await plan(REMINDER_CANDIDATES.statement);
    expect(detail).toMatch(/SEARCH invoices USING (COVERING )?INDEX invoices_issued_idx \(status=\? AND id>\?\)/);
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
  'the query plans of the write paths and the reminder pass on a grown postgres database',
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
      'Actual Rows'?: number;
      'Rows Removed by Filter'?: number;
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

    // The pass's query goes as an unnamed statement, planned with its values each time; as a named
    // prepared statement it would settle on the generic plan. Both must walk the index.
    it.each(['force_custom_plan', 'force_generic_plan'])(
      'walks the reminder pass’s candidates by an index in id order and reads only the batch it returns (%s)',
      async (mode) => {
        const [dueBy, afterId, limit] = REMINDER_CANDIDATES.params;
        await client.query('deallocate all');
        await client.query(`set plan_cache_mode = ${mode}`);
        let plan: PlanNode;
        try {
          await client.query(`prepare q as ${REMINDER_CANDIDATES.statement}`);
          const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            `explain (analyze, format json) execute q('${dueBy}', '${afterId}', ${limit})`,
          );
          plan = rows[0]!['QUERY PLAN'][0].Plan;
        } finally {
          await client.query('set plan_cache_mode = force_generic_plan');
        }
        const nodes = nodesOf(plan);
        const shown = JSON.stringify(
          nodes.map((n) => [
            n['Node Type'],
            n['Index Name'],
            n['Index Cond'],
            n['Actual Rows'],
            n['Rows Removed by Filter'],
          ]),
        );
        expect(
          nodes.filter((n) => ['Seq Scan', 'Bitmap Heap Scan', 'Sort'].includes(n['Node Type'])),
          shown,
        ).toEqual([]);
        const scans = nodes.filter((n) => n['Relation Name'] === 'invoices');
        expect(scans, shown).toHaveLength(1);
        expect([scans[0]!['Index Name'], scans[0]!['Index Cond']], shown).toEqual([
          'invoices_issued_idx',
          expect.stringMatching(/^\(+id > /),
        ]);
        // The seeded book has 400 issued invoices, all due: a batch reads its 200 and stops.
        expect([scans[0]!['Actual Rows'], scans[0]!['Rows Removed by Filter'] ?? 0], shown).toEqual([limit, 0]);
      },
    );
  },
);
