import type { Kysely } from 'kysely';

// Reminders (dunning). A company's policy is one row (its levels as JSON); without one the
// default applies. invoice_reminders holds one row per invoice and level (keyed by the level's
// days from the due date): the row is the claim, written in the same transaction as the queued
// email_deliveries row and the invoice.reminder_sent event, so a level is reminded once or not at
// all whatever instances run a pass at once; a level passed over while catching up gets a
// 'skipped' row. invoice_reminder_states holds what an invoice's reminders are doing beyond that:
// a pause (and why: paused or dispute) and when the invoice.overdue event was written (once).
// email_deliveries.purpose tells a reminder's message from a document's send. Released
// migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reminder_policies')
    .addColumn('company_id', 'text', (c) => c.primaryKey().references('companies.id'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    // JSON array of { days, fee, interestRatePercent }, ordered by days.
    .addColumn('levels', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('invoice_reminders')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    // The level: days from the due date (negative before it).
    .addColumn('days', 'integer', (c) => c.notNull())
    // The level's position in the policy when it was reminded (its template: reminder-<n>).
    .addColumn('level', 'integer', (c) => c.notNull())
    // 'sent' (a message was queued) or 'skipped' (passed over: a later level was due too).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('skip_reason', 'text')
    .addColumn('email_delivery_id', 'text')
    // The pass's day (YYYY-MM-DD) and the figures the message stated, as decimal text.
    .addColumn('as_of', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('open_balance', 'text', (c) => c.notNull())
    .addColumn('fee', 'text')
    .addColumn('interest_rate_percent', 'text')
    .addColumn('interest', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('invoice_reminders_level_uq', ['invoice_id', 'days'])
    .execute();
  await db.schema
    .createTable('invoice_reminder_states')
    .addColumn('invoice_id', 'text', (c) => c.primaryKey().references('invoices.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    // null: reminders run; 'paused' or 'dispute': none is sent until resumed.
    .addColumn('pause_reason', 'text')
    .addColumn('pause_note', 'text')
    .addColumn('paused_at', 'text')
    .addColumn('overdue_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .alterTable('email_deliveries')
    .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('document'))
    .execute();
  // What a pass looks for: issued invoices by due date.
  await db.schema.createIndex('invoices_status_due_idx').on('invoices').columns(['status', 'due_date']).execute();
}
