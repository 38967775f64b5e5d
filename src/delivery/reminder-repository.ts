import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type {
  Database,
  InvoiceReminderStatesTable,
  InvoiceRemindersTable,
  InvoicesTable,
  ReminderPoliciesTable,
} from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';

export type ReminderRow = Selectable<InvoiceRemindersTable>;
export type ReminderStateRow = Selectable<InvoiceReminderStatesTable>;
export type ReminderPolicyRow = Selectable<ReminderPoliciesTable>;

/** A company's reminder policy, the reminders of invoices (each row a level's claim) and their pauses. */
export class ReminderRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  async findPolicy(companyId: string, trx: Kysely<Database> = this.db): Promise<ReminderPolicyRow | undefined> {
    return trx.selectFrom('reminder_policies').selectAll().where('company_id', '=', companyId).executeTakeFirst();
  }

  async upsertPolicy(row: ReminderPoliciesTable, trx: Kysely<Database> = this.db): Promise<void> {
    await trx
      .insertInto('reminder_policies')
      .values(row)
      .onConflict((oc) =>
        oc.column('company_id').doUpdateSet({ enabled: row.enabled, levels: row.levels, updated_at: row.updated_at }),
      )
      .execute();
  }

  /**
   * Issued invoices due on or before `dueBy`, after `afterId` by id: the candidates of a pass, read
   * without a lock. A batch walks invoices_issued_idx (issued invoices by id) from `afterId` and
   * stops after `limit`. The status is written into the SQL, not bound: the index is partial on
   * that status, and a plan made before the values are bound (SQLite's, a prepared statement's
   * generic one on PostgreSQL) knows the query is within the index only from the same literal.
   */
  async candidates(dueBy: string, afterId: string, limit: number): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('invoices')
      .select('id')
      .where('status', '=', sql.lit('issued'))
      .where('due_date', '<=', dueBy)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /**
   * The invoice, still issued, locked in `t` against other instances' passes and against payments
   * and credit notes, which change its row (PostgreSQL: FOR UPDATE SKIP LOCKED, so undefined when
   * another holds it; the next pass takes it). On SQLite the transaction already holds the write lock.
   */
  async lockIssued(t: Kysely<Database>, id: string): Promise<Selectable<InvoicesTable> | undefined> {
    return this.dialect
      .lockSkippingLocked(t.selectFrom('invoices').selectAll().where('id', '=', id).where('status', '=', 'issued'))
      .executeTakeFirst();
  }

  /** The days of the levels an invoice was reminded of or skipped. */
  async claimedDays(t: Kysely<Database>, invoiceId: string): Promise<number[]> {
    const rows = await t.selectFrom('invoice_reminders').select('days').where('invoice_id', '=', invoiceId).execute();
    return rows.map((row) => Number(row.days));
  }

  /** Claims a level of an invoice: false when a row for it exists already (another pass's). */
  async claim(t: Kysely<Database>, row: InvoiceRemindersTable): Promise<boolean> {
    const inserted = await t
      .insertInto('invoice_reminders')
      .values(row)
      .onConflict((oc) => oc.columns(['invoice_id', 'days']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** Marks the invoice overdue: true the one time it was not yet (its invoice.overdue event is written then). */
  async markOverdue(t: Kysely<Database>, owner: Owner, invoiceId: string, at: string): Promise<boolean> {
    const marked = await t
      .insertInto('invoice_reminder_states')
      .values({
        invoice_id: invoiceId,
        company_id: owner.companyId,
        livemode: modeColumn(owner),
        pause_reason: null,
        pause_note: null,
        paused_at: null,
        overdue_at: at,
        updated_at: at,
      })
      .onConflict((oc) =>
        oc
          .column('invoice_id')
          .doUpdateSet({ overdue_at: at, updated_at: at })
          .where('invoice_reminder_states.overdue_at', 'is', null),
      )
      .returning('invoice_id')
      .executeTakeFirst();
    return marked !== undefined;
  }

  async findState(
    owner: Owner,
    invoiceId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<ReminderStateRow | undefined> {
    return trx
      .selectFrom('invoice_reminder_states')
      .selectAll()
      .where('invoice_id', '=', invoiceId)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .executeTakeFirst();
  }

  /** Pauses (a reason) or resumes (null) an invoice's reminders. */
  async setPause(
    owner: Owner,
    invoiceId: string,
    pause: { reason: 'paused' | 'dispute'; note: string | null } | null,
    at: string,
    trx: Kysely<Database> = this.db,
  ): Promise<void> {
    const columns = {
      pause_reason: pause?.reason ?? null,
      pause_note: pause?.note ?? null,
      paused_at: pause ? at : null,
      updated_at: at,
    };
    await trx
      .insertInto('invoice_reminder_states')
      .values({
        invoice_id: invoiceId,
        company_id: owner.companyId,
        livemode: modeColumn(owner),
        overdue_at: null,
        ...columns,
      })
      .onConflict((oc) => oc.column('invoice_id').doUpdateSet(columns))
      .execute();
  }

  /** An invoice's reminders (sent and skipped), newest level first. */
  async listForInvoice(owner: Owner, invoiceId: string, trx: Kysely<Database> = this.db): Promise<ReminderRow[]> {
    return trx
      .selectFrom('invoice_reminders')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', '=', invoiceId)
      .orderBy('days', 'desc')
      .execute();
  }
}
