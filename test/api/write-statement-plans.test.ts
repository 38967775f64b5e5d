import pgModule from 'pg';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { seedStatements } from '../../bench/seed.mjs';
import { buildTestApp, type TestApp } from '../helpers/build.js';
import { DIALECTS } from '../helpers/dialects.js';

// The statements the service itself sends for a draft, a finalize, an issued create, a payment and
// a credit note, taken from its connections as they go out and planned again, generic (as its
// named statements settle on), on a company that has grown to 10,000 invoices. Each row such a
// write reads or changes in a large table must be found by what names it (its id, its number, its
// invoice), never by the company alone: a plan that walks the company's index would read every
// invoice of a big company, inside the company's counter lock for a numbered write. The plan
// tests in query-plans.test.ts check the statements as written by hand; these are the real ones.

/** Tables that grow with a company's history; a small table (its webhook endpoints) may be scanned. */
const LARGE = new Set(['invoices', 'invoice_lines', 'payments', 'credit_notes', 'credit_note_lines', 'events']);
/** Index conditions on these alone find a company's rows, not one row. */
const COMPANY_COLUMNS = new Set(['company_id', 'livemode']);

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The columns an index condition compares: `((company_id = $1) AND (number = n.number))` → company_id, number. */
const comparedColumns = (cond: string) => [...cond.matchAll(/\(?(?:\w+\.)?(\w+) = /g)].map((m) => m[1]!);

describe.skipIf(!DIALECTS.includes('postgres'))(
  'the plans of the statements the write paths send, on a company grown to 10,000 invoices',
  () => {
    let t: TestApp;
    let key: string;
    let client: pg.Client;
    let sent: MockInstance<pg.Client['query']>;

    beforeAll(async () => {
      // From before the app connects: its connections bind `query` when they connect.
      sent = vi.spyOn(pgModule.Client.prototype, 'query');
      t = await buildTestApp('postgres');
      let companyId: string;
      ({ key, companyId } = await t.tenant());
      client = new pgModule.Client({ connectionString: t.database.url });
      await client.connect();
      // 20,000 invoices, half of them the tenant's, with lines, payments, credit notes and events.
      for (const statement of seedStatements('postgres', companyId, 0, 20_000)) await client.query(statement);
      await client.query('analyze');
    }, 120_000);
    afterAll(async () => {
      await client?.end();
      await t?.close();
      sent?.mockRestore();
    });

    /** The statements the app's connections sent since `from` (a count of calls), with their values. */
    const statementsSince = (from: number) =>
      sent.mock.calls
        .map((call, i) => ({ call, context: sent.mock.contexts[i] }))
        .slice(from)
        .filter(({ context }) => context !== client)
        .map(({ call }) => {
          const [first, second] = call as unknown as [string | { text: string; values?: unknown[] }, unknown[]?];
          return typeof first === 'string'
            ? { text: first, values: second ?? [] }
            : { text: first.text, values: first.values ?? [] };
        })
        .filter(({ text }) => /\b(invoices|invoice_lines|payments|credit_notes|events)\b/.test(text));

    /** A value as SQL text (EXPLAIN EXECUTE takes no bind parameters); arrays as array literals. */
    const literal = (value: unknown): string => {
      if (value === null || value === undefined) return 'null';
      if (typeof value === 'number' || typeof value === 'bigint') return String(value);
      if (typeof value === 'boolean') return value ? 'true' : 'false';
      if (Array.isArray(value))
        return client.escapeLiteral(
          `{${value.map((item) => (item === null ? 'NULL' : `"${String(item).replace(/[\\"]/g, (c) => `\\${c}`)}"`)).join(',')}}`,
        );
      if (typeof value === 'string') return client.escapeLiteral(value);
      throw new Error(`A value the app sent that this test cannot write: ${JSON.stringify(value)}`);
    };

    /** The generic plan of `text`, prepared as the app prepares it, with `values` (EXPLAIN writes no row). */
    const genericPlan = async (text: string, values: unknown[]) => {
      await client.query('deallocate all');
      await client.query('set plan_cache_mode = force_generic_plan');
      await client.query(`prepare q as ${text}`);
      const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `explain (format json) execute q${values.length > 0 ? `(${values.map(literal).join(', ')})` : ''}`,
      );
      return nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
    };

    it('finds each row of a large table that a write path reads or changes by what names it, never by the company alone', async () => {
      const from = sent.mock.calls.length;
      const buyer = await t.post('/organization', { name: 'Plan Buyer', isCustomer: true }, key);
      expect(buyer.statusCode, buyer.body).toBe(201);
      const body = {
        organizationId: buyer.json().data.id,
        lines: [{ name: 'Work', quantity: 2, unitPrice: '100.00', vatRate: '19' }],
      };
      const draft = await t.post('/invoice', { ...body, status: 'draft' }, key);
      expect(draft.statusCode, draft.body).toBe(201);
      const finalized = await t.post(`/invoice/${draft.json().data.id}/finalize`, undefined, key);
      expect(finalized.statusCode, finalized.body).toBe(200);
      const issued = await t.post('/invoice', body, key);
      expect(issued.statusCode, issued.body).toBe(201);
      const id = issued.json().data.id as string;
      const paid = await t.post(
        `/invoice/${id}/payment`,
        { amount: '100.00', date: issued.json().data.issueDate },
        key,
      );
      expect(paid.statusCode, paid.body).toBe(201);
      const credited = await t.post(
        '/credit-note',
        {
          invoiceId: id,
          reason: 'Returned',
          lines: [{ name: 'Work', quantity: 1, unitPrice: '50.00', vatRate: '19' }],
        },
        key,
      );
      expect(credited.statusCode, credited.body).toBe(201);
      const read = await t.get(`/invoice/${id}`, key);
      expect(read.statusCode, read.body).toBe(200);

      const statements = statementsSince(from);
      // The draft, the finalize's claim with its number, the issued create, the payment and the
      // credit note each wrote in a statement of its own that names invoices.
      expect(statements.filter(({ text }) => /^with\b/i.test(text)).length).toBeGreaterThanOrEqual(5);
      const problems: string[] = [];
      for (const { text, values } of statements) {
        for (const node of await genericPlan(text, values)) {
          // Scans only: an INSERT or UPDATE node names its table too, and reads nothing.
          const table = node['Relation Name'];
          if (table === undefined || !LARGE.has(table) || !/Scan$/.test(node['Node Type'])) continue;
          // A bitmap scan's index and condition are on the bitmap index scan below it.
          const index = node['Node Type'] === 'Bitmap Heap Scan' ? (node.Plans ?? [])[0] : node;
          const where = `${node['Node Type']} on ${table}${index?.['Index Name'] ? ` (${index['Index Name']}: ${index['Index Cond']})` : ''} in: ${text.slice(0, 160)}`;
          const cond = index?.['Index Cond'];
          if (cond === undefined || comparedColumns(cond).every((column) => COMPANY_COLUMNS.has(column)))
            problems.push(where);
        }
      }
      expect(problems).toEqual([]);
    }, 60_000);
  },
);
