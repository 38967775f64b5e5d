import type { Kysely } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type { Database, RecurringInvoiceRunsTable, RecurringInvoicesTable } from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';
import { afterCursor } from '../repositories/keyset.js';

// The queries of recurring invoices and their runs, every one scoped by company and mode but the
// scheduler's look for due templates, which spans companies. A run is claimed in its own
// transaction: the template row is read with the dialect's lock that skips rows another instance
// holds (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: its one writer already takes turns), and the
// run row's unique (template, period) refuses a second run of a period whatever happened before.

export type RecurringRow = RecurringInvoicesTable;
export type RunRow = RecurringInvoiceRunsTable;

export interface RecurringPageCursor {
  createdAt: string;
  id: string;
}

/** How many runs a read shows, newest first. */
export const RUNS_SHOWN = 100;

export class RecurringRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async insert(t: Kysely<Database>, row: RecurringRow): Promise<void> {
    await t.insertInto('recurring_invoices').values(row).execute();
  }

  async findById(owner: Owner, id: string, trx: Kysely<Database> = this.db): Promise<RecurringRow | undefined> {
    return trx
      .selectFrom('recurring_invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The runs of these templates, newest first, at most `perTemplate` each. */
  async runsOf(
    companyId: string,
    ids: string[],
    perTemplate: number,
    trx: Kysely<Database> = this.db,
  ): Promise<Map<string, RunRow[]>> {
    const byTemplate = new Map<string, RunRow[]>();
    if (ids.length === 0) return byTemplate;
    const rows = await trx
      .selectFrom('recurring_invoice_runs')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('recurring_invoice_id', 'in', ids)
      .orderBy('recurring_invoice_id')
      .orderBy('period_index', 'desc')
      .execute();
    for (const row of rows) {
      const runs = byTemplate.get(row.recurring_invoice_id) ?? [];
      if (runs.length < perTemplate) runs.push(row);
      byTemplate.set(row.recurring_invoice_id, runs);
    }
    return byTemplate;
  }

  /** Up to `limit + 1` templates, newest first, strictly after `after`. */
  async page(
    owner: Owner,
    filter: { status?: RecurringRow['status']; organizationId?: string },
    page: { limit: number; after?: RecurringPageCursor },
  ): Promise<RecurringRow[]> {
    let query = this.db
      .selectFrom('recurring_invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    const after = page.after;
    if (after) query = query.where(afterCursor(after));
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }

  async count(owner: Owner): Promise<number> {
    const row = await this.db
      .selectFrom('recurring_invoices')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A page of templates by position (the panel's numbered pages), newest first. */
  async pageAt(owner: Owner, offset: number, limit: number): Promise<RecurringRow[]> {
    return this.db
      .selectFrom('recurring_invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** Changes a template unless it has ended; false when it has (or is not there). */
  async update(
    t: Kysely<Database>,
    owner: Owner,
    id: string,
    fields: Partial<Omit<RecurringRow, 'id' | 'company_id' | 'livemode' | 'created_at'>>,
  ): Promise<boolean> {
    const result = await t
      .updateTable('recurring_invoices')
      .set(fields)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '<>', 'ended')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The ids of active templates (of every company, or of one) whose next run is due at `at`, oldest due first. */
  async dueIds(at: string, limit: number, companyId?: string): Promise<string[]> {
    let query = this.db
      .selectFrom('recurring_invoices')
      .select('id')
      .where('status', '=', 'active')
      .where('next_run_at', '<=', at);
    if (companyId !== undefined) query = query.where('company_id', '=', companyId);
    const rows = await query.orderBy('next_run_at').orderBy('id').limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /**
   * The template, locked for this run in `t` while it is active and due at `at`; undefined when
   * it is not, or when another instance holds it (PostgreSQL skips a locked row at once).
   */
  async claimDue(t: Kysely<Database>, id: string, at: string): Promise<RecurringRow | undefined> {
    return this.dialect
      .lockSkippingLocked(
        t
          .selectFrom('recurring_invoices')
          .selectAll()
          .where('id', '=', id)
          .where('status', '=', 'active')
          .where('next_run_at', '<=', at),
      )
      .executeTakeFirst();
  }

  /** Whether the template has a run for the period starting `periodStart` already. */
  async hasRun(t: Kysely<Database>, id: string, periodStart: string): Promise<boolean> {
    const row = await t
      .selectFrom('recurring_invoice_runs')
      .select('id')
      .where('recurring_invoice_id', '=', id)
      .where('period_start', '=', periodStart)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The run row; a second one for the same template and period throws a unique violation. */
  async insertRun(t: Kysely<Database>, row: RunRow): Promise<void> {
    await t.insertInto('recurring_invoice_runs').values(row).execute();
  }

  /** Runs whose invoice is to be sent and whose message is not queued yet (one killed between the two). */
  async unsentRuns(limit: number, companyId?: string): Promise<RunRow[]> {
    let query = this.db.selectFrom('recurring_invoice_runs').selectAll();
    if (companyId !== undefined) query = query.where('company_id', '=', companyId);
    return query
      .where('send', 'is not', null)
      .where('delivery_id', 'is', null)
      .where('send_error', 'is', null)
      .orderBy('created_at')
      .limit(limit)
      .execute();
  }

  /** Records the message a run's invoice was sent with, or why it could not be; false when another did first. */
  async markSent(
    t: Kysely<Database>,
    runId: string,
    outcome: { delivery_id: string | null; send_error: string | null },
  ): Promise<boolean> {
    const result = await t
      .updateTable('recurring_invoice_runs')
      .set(outcome)
      .where('id', '=', runId)
      .where('delivery_id', 'is', null)
      .where('send_error', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
