import type { Kysely } from 'kysely';

// Recurring invoices: a template (the body of POST /invoice, as JSON) and a schedule, and one
// row per period a run took. The unique (recurring_invoice_id, period_start) of the runs, written
// in the transaction that creates the run's invoice and its event, is what makes a period
// invoiced exactly once, whichever instance runs the scheduler and wherever one is killed.
// next_run_at is the instant the next occurrence is due (the start of its local day in the
// template's time zone), what the scheduler's query looks for. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('recurring_invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('template', 'text', (c) => c.notNull())
    .addColumn('interval', 'text', (c) => c.notNull())
    .addColumn('every', 'integer', (c) => c.notNull())
    .addColumn('anchor_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text')
    .addColumn('max_runs', 'integer')
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('invoice_status', 'text', (c) => c.notNull())
    .addColumn('send', 'text')
    .addColumn('missed_periods', 'text', (c) => c.notNull())
    .addColumn('invoice_period', 'text', (c) => c.notNull())
    .addColumn('next_index', 'integer', (c) => c.notNull())
    .addColumn('next_run_date', 'text')
    .addColumn('next_run_at', 'text')
    .addColumn('paused_at', 'text')
    .addColumn('ended_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // GET /recurring-invoice pages a company's templates newest first.
  await db.schema
    .createIndex('recurring_invoices_owner_created_idx')
    .on('recurring_invoices')
    .columns(['company_id', 'livemode', 'created_at', 'id'])
    .execute();
  // The scheduler's look: active templates whose next run is due.
  await db.schema
    .createIndex('recurring_invoices_due_idx')
    .on('recurring_invoices')
    .columns(['status', 'next_run_at'])
    .execute();

  await db.schema
    .createTable('recurring_invoice_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('recurring_invoice_id', 'text', (c) => c.notNull().references('recurring_invoices.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('period_index', 'integer', (c) => c.notNull())
    .addColumn('period_start', 'text', (c) => c.notNull())
    .addColumn('period_end', 'text', (c) => c.notNull())
    .addColumn('run_date', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) => c.references('invoices.id'))
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    .addColumn('send', 'text')
    .addColumn('delivery_id', 'text')
    .addColumn('send_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One run per template and period: a second instance's run of the same period is refused here.
    .addUniqueConstraint('recurring_invoice_runs_period_uq', ['recurring_invoice_id', 'period_start'])
    .execute();
}
