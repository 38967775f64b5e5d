import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { modeColumn, scopeFor, type Owner, type Scope } from '../db/scope.js';
import { inTransaction } from '../db/transactions.js';
import type { ErrorDetail } from '../errors/app-error.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { newId } from '../lib/ids.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import type { SendDocumentInput } from '../schemas/email-delivery.js';
import type {
  CreateRecurringInvoiceInput,
  RecurringInvoice,
  RecurringTemplate,
  UpdateRecurringInvoiceInput,
} from '../schemas/recurring-invoice.js';
import { dayOf, readInvoiceContent } from '../services/invoice-input.js';
import type { InvoiceService } from '../services/invoice-service.js';
import { cadenceOf, limitsOf, recurringFromRows } from './recurring-mapping.js';
import {
  RUNS_SHOWN,
  type RecurringPageCursor,
  type RecurringRepository,
  type RecurringRow,
  type RunRow,
} from './recurring-repository.js';
import {
  addDays,
  isTimeZone,
  localDate,
  occurrence,
  periodOf,
  startOfLocalDay,
  withinLimits,
  type Cadence,
  type Limits,
} from './schedule.js';

// Recurring invoices: templates with a schedule, and the runs that make their invoices. Each run
// is one transaction: the template row claimed (locked, skipping one another instance holds),
// the invoice created by the invoice service in that transaction, the run row (unique per
// template and period) and the event written, the template moved on to its next occurrence. A
// process killed anywhere leaves all of it or none, so the next pass neither skips nor repeats a
// period. A run the invoice service refuses (the buyer archived, an incomplete e-invoice) is
// recorded as failed with the reason, and the template moves on.

/** Queues the email of an issued invoice (delivery/, a capability of its own, builds it: src/container.ts). */
export type SendInvoice = (
  scope: Scope,
  invoiceId: string,
  body: SendDocumentInput,
  now: Date,
  trx: Kysely<Database>,
) => Promise<{ ok: true; deliveryId: string } | { ok: false; reason: string }>;

export type RecurringFailure =
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'NOT_FOUND' | 'ORGANIZATION_NOT_FOUND' | 'ORGANIZATION_ARCHIVED' | 'RECURRING_INVOICE_ENDED' };

export type RecurringResult = { ok: true; value: RecurringInvoice } | RecurringFailure;

/** What one pass of the scheduler did. */
export interface PassSummary {
  asOf: string;
  made: number;
  failed: number;
  ended: number;
  sent: number;
}

type RunOutcome = 'made' | 'failed' | 'none';

const DUE_PER_LOOK = 100;
const SENDS_PER_PASS = 100;

/** The next occurrence to run from `index` on, skipping those before `fromDate`; null when the schedule has ended. */
function nextOccurrence(
  cadence: Cadence,
  limits: Limits,
  index: number,
  fromDate: string,
): { index: number; date: string } | null {
  for (let i = index; ; i += 1) {
    if (!withinLimits(cadence, limits, i)) return null;
    const date = occurrence(cadence, i);
    if (date >= fromDate) return { index: i, date };
  }
}

function prefixed(details: ErrorDetail[], prefix: string): ErrorDetail[] {
  return details.map((d) => ({ ...d, field: `${prefix}.${d.field}` }));
}

export class RecurringService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly recurring: RecurringRepository,
    private readonly organizations: OrganizationRepository,
    private readonly companies: CompanyRepository,
    private readonly invoices: InvoiceService,
    private readonly events: EventRecorder,
    private readonly send: SendInvoice,
  ) {}

  async get(owner: Owner, id: string, trx: Kysely<Database> = this.db): Promise<RecurringInvoice | undefined> {
    const row = await this.recurring.findById(owner, id, trx);
    if (!row) return undefined;
    const runs = await this.recurring.runsOf(owner.companyId, [id], RUNS_SHOWN, trx);
    return recurringFromRows(row, runs.get(id) ?? []);
  }

  /** A page, newest first, each with its last run: up to `limit` of them, and the rows they came from (for the cursor). */
  async list(
    owner: Owner,
    filter: { status?: RecurringRow['status']; organizationId?: string },
    page: { limit: number; after?: RecurringPageCursor },
  ): Promise<{ rows: RecurringRow[]; items: RecurringInvoice[] }> {
    const rows = await this.recurring.page(owner, filter, page);
    return { rows, items: await this.shown(owner, rows.slice(0, page.limit), 1) };
  }

  /** The panel's numbered pages: newest first, `size` a page, each with its last runs. */
  async page(
    owner: Owner,
    page: number,
    size: number,
  ): Promise<{ items: RecurringInvoice[]; total: number; page: number; pages: number }> {
    const total = await this.recurring.count(owner);
    const pages = Math.max(1, Math.ceil(total / size));
    const shown = Math.min(Math.max(1, page), pages);
    const rows = await this.recurring.pageAt(owner, (shown - 1) * size, size);
    return { items: await this.shown(owner, rows, 3), total, page: shown, pages };
  }

  private async shown(owner: Owner, rows: RecurringRow[], runsEach: number): Promise<RecurringInvoice[]> {
    const runs = await this.recurring.runsOf(
      owner.companyId,
      rows.map((row) => row.id),
      runsEach,
    );
    return rows.map((row) => recurringFromRows(row, runs.get(row.id) ?? []));
  }

  /** The template's content checked as POST /invoice checks it, and its buyer. */
  private async checkTemplate(
    scope: Scope,
    template: RecurringTemplate,
    trx?: Kysely<Database>,
  ): Promise<RecurringFailure | null> {
    const company = await this.companies.findById(scope.companyId, trx);
    if (!company) throw new Error(`The company ${scope.companyId} of an authenticated key does not exist`);
    const { dueDays: _dueDays, validateFor: _validateFor, ...body } = template;
    const read = readInvoiceContent(
      { ...body, number: null, issueDate: null, dueDate: null, invoicePeriod: null },
      { currency: company.currency },
    );
    if (!read.ok) return { ok: false, code: 'VALIDATION_ERROR', details: prefixed(read.details, 'template') };
    const organization = await this.organizations.findById(scope, template.organizationId, trx);
    if (!organization) return { ok: false, code: 'ORGANIZATION_NOT_FOUND' };
    if (organization.archived_at !== null) return { ok: false, code: 'ORGANIZATION_ARCHIVED' };
    return null;
  }

  /** POST /recurring-invoice: the first run is the first occurrence on or after today in the time zone. */
  async create(
    scope: Scope,
    input: CreateRecurringInvoiceInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<RecurringResult> {
    const { schedule } = input;
    const problems: ErrorDetail[] = [];
    if (dayOf(schedule.anchorDate) === null)
      problems.push({
        field: 'schedule.anchorDate',
        code: 'invalid_date',
        message: 'Must be a real date from 1900 to 9999.',
      });
    const endDate = schedule.endDate ?? null;
    if (endDate !== null && dayOf(endDate) === null)
      problems.push({
        field: 'schedule.endDate',
        code: 'invalid_date',
        message: 'Must be a real date from 1900 to 9999.',
      });
    else if (endDate !== null && endDate < schedule.anchorDate)
      problems.push({
        field: 'schedule.endDate',
        code: 'before_anchor_date',
        message: `The end date must not be before the anchor date (${schedule.anchorDate}).`,
      });
    if (!isTimeZone(schedule.timeZone))
      problems.push({
        field: 'schedule.timeZone',
        code: 'invalid_time_zone',
        message: `"${schedule.timeZone}" is not an IANA time zone (such as Europe/Berlin or UTC).`,
      });
    if (problems.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: problems };
    const refused = await this.checkTemplate(scope, input.template, trx);
    if (refused) return refused;

    const at = now.toISOString();
    const row: RecurringRow = {
      id: newId('rin'),
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      organization_id: input.template.organizationId,
      status: 'active',
      template: JSON.stringify(input.template),
      interval: schedule.interval,
      every: schedule.every ?? 1,
      anchor_date: schedule.anchorDate,
      end_date: endDate,
      max_runs: schedule.count ?? null,
      time_zone: schedule.timeZone,
      invoice_status: input.invoiceStatus ?? 'issued',
      send: input.send ? JSON.stringify(input.send) : null,
      missed_periods: schedule.missedPeriods ?? 'catch-up',
      invoice_period: schedule.invoicePeriod ?? 'current',
      next_index: 0,
      next_run_date: null,
      next_run_at: null,
      paused_at: null,
      ended_at: null,
      created_at: at,
      updated_at: at,
    };
    Object.assign(row, this.placed(row, 0, localDate(now, row.time_zone), at));
    return inTransaction(this.db, trx, async (t) => {
      await this.recurring.insert(t, row);
      const value = recurringFromRows(row, []);
      await this.events.record(t, scope, 'recurring_invoice.created', value, now);
      if (row.status === 'ended') await this.events.record(t, scope, 'recurring_invoice.ended', value, now);
      return { ok: true, value };
    });
  }

  /** The fields that place a template at its next occurrence from `index` on (not before `fromDate`), or end it. */
  private placed(
    row: RecurringRow,
    index: number,
    fromDate: string,
    at: string,
  ): Pick<RecurringRow, 'next_index' | 'next_run_date' | 'next_run_at' | 'status' | 'ended_at'> {
    const next = nextOccurrence(cadenceOf(row), limitsOf(row), index, fromDate);
    if (!next) return { next_index: index, next_run_date: null, next_run_at: null, status: 'ended', ended_at: at };
    return {
      next_index: next.index,
      next_run_date: next.date,
      next_run_at: startOfLocalDay(next.date, row.time_zone).toISOString(),
      status: row.status,
      ended_at: row.ended_at,
    };
  }

  /** PATCH /recurring-invoice/{id}: from the next run on; an end date or count already passed ends it. */
  async update(
    scope: Scope,
    id: string,
    input: UpdateRecurringInvoiceInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<RecurringResult> {
    const current = await this.recurring.findById(scope, id, trx);
    if (!current) return { ok: false, code: 'NOT_FOUND' };
    if (current.status === 'ended') return { ok: false, code: 'RECURRING_INVOICE_ENDED' };
    if (input.template) {
      const refused = await this.checkTemplate(scope, input.template, trx);
      if (refused) return refused;
    }
    const schedule = input.schedule ?? {};
    const endDate = schedule.endDate === undefined ? current.end_date : schedule.endDate;
    if (endDate !== null && dayOf(endDate) === null)
      return {
        ok: false,
        code: 'VALIDATION_ERROR',
        details: [
          { field: 'schedule.endDate', code: 'invalid_date', message: 'Must be a real date from 1900 to 9999.' },
        ],
      };
    const at = now.toISOString();
    const row: RecurringRow = {
      ...current,
      ...(input.template
        ? { template: JSON.stringify(input.template), organization_id: input.template.organizationId }
        : {}),
      end_date: endDate,
      max_runs: schedule.count === undefined ? current.max_runs : schedule.count,
      missed_periods: schedule.missedPeriods ?? current.missed_periods,
      invoice_period: schedule.invoicePeriod ?? current.invoice_period,
      invoice_status: input.invoiceStatus ?? current.invoice_status,
      send: input.send === undefined ? current.send : input.send === null ? null : JSON.stringify(input.send),
      updated_at: at,
    };
    if (row.status === 'active' && !withinLimits(cadenceOf(row), limitsOf(row), row.next_index)) {
      row.status = 'ended';
      row.ended_at = at;
      row.next_run_date = null;
      row.next_run_at = null;
    }
    return inTransaction(this.db, trx, async (t): Promise<RecurringResult> => {
      const { id: _id, company_id: _c, livemode: _l, created_at: _at, next_index: _i, ...fields } = row;
      if (!(await this.recurring.update(t, scope, id, fields))) return { ok: false, code: 'RECURRING_INVOICE_ENDED' };
      const value = (await this.get(scope, id, t))!;
      if (row.status === 'ended') await this.events.record(t, scope, 'recurring_invoice.ended', value, now);
      return { ok: true, value };
    });
  }

  /** POST …/pause, …/resume, …/end. Pausing a paused one or resuming an active one changes nothing. */
  async setState(
    scope: Scope,
    id: string,
    action: 'pause' | 'resume' | 'end',
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<RecurringResult> {
    const at = now.toISOString();
    return inTransaction(this.db, trx, async (t): Promise<RecurringResult> => {
      const current = await this.recurring.findById(scope, id, t);
      if (!current) return { ok: false, code: 'NOT_FOUND' };
      if (current.status === 'ended') return { ok: false, code: 'RECURRING_INVOICE_ENDED' };
      let fields: Partial<RecurringRow> | null = null;
      if (action === 'pause' && current.status === 'active')
        fields = { status: 'paused', paused_at: at, next_run_date: null, next_run_at: null, updated_at: at };
      else if (action === 'resume' && current.status === 'paused')
        // Periods that passed while paused are not invoiced: the next run is today's or later.
        fields = {
          ...this.placed({ ...current, status: 'active' }, current.next_index, localDate(now, current.time_zone), at),
          paused_at: null,
          updated_at: at,
        };
      else if (action === 'end')
        fields = { status: 'ended', ended_at: at, next_run_date: null, next_run_at: null, updated_at: at };
      if (fields && !(await this.recurring.update(t, scope, id, fields)))
        return { ok: false, code: 'RECURRING_INVOICE_ENDED' };
      const value = (await this.get(scope, id, t))!;
      if (fields?.status === 'ended') await this.events.record(t, scope, 'recurring_invoice.ended', value, now);
      return { ok: true, value };
    });
  }

  /**
   * One pass of the scheduler as of `asOf`: every active template due by then runs, each due
   * period in order (or, with missedPeriods skip, only the latest), and the messages of runs that
   * send are queued. A template whose run throws (the database gone) is left for the next pass
   * and does not stop the others.
   */
  async runDue(
    asOf: Date,
    onError: (error: unknown, id: string) => void = () => {},
    only: { companyId?: string } = {},
  ): Promise<PassSummary> {
    const summary: PassSummary = { asOf: asOf.toISOString(), made: 0, failed: 0, ended: 0, sent: 0 };
    const tried = new Set<string>();
    for (;;) {
      const ids = (await this.recurring.dueIds(summary.asOf, DUE_PER_LOOK + tried.size, only.companyId)).filter(
        (id) => !tried.has(id),
      );
      if (ids.length === 0) break;
      for (const id of ids) {
        tried.add(id);
        try {
          for (;;) {
            const outcome = await this.runOne(id, asOf, summary);
            if (outcome === 'none') break;
          }
        } catch (error) {
          onError(error, id);
        }
      }
    }
    summary.sent = await this.sendPending(asOf, onError, only.companyId);
    return summary;
  }

  /** The next due period of one template, in one transaction; 'none' when nothing (more) is due or another instance has it. */
  private async runOne(id: string, asOf: Date, summary: PassSummary): Promise<RunOutcome> {
    const at = asOf.toISOString();
    try {
      return await this.db.transaction().execute(async (t): Promise<RunOutcome> => {
        const row = await this.recurring.claimDue(t, id, at);
        if (!row) return 'none';
        const scope = scopeFor(row.company_id, { livemode: row.livemode === 1 });
        const cadence = cadenceOf(row);
        const limits = limitsOf(row);
        const today = localDate(asOf, row.time_zone);
        let index = row.next_index;
        if (row.missed_periods === 'skip') {
          // Only the latest due period runs; the ones before it are passed over.
          while (withinLimits(cadence, limits, index + 1) && occurrence(cadence, index + 1) <= today) index += 1;
        }
        if (!withinLimits(cadence, limits, index)) {
          await this.recurring.update(t, scope, id, {
            status: 'ended',
            ended_at: at,
            next_run_date: null,
            next_run_at: null,
            updated_at: at,
          });
          await this.events.record(t, scope, 'recurring_invoice.ended', (await this.get(scope, id, t))!, asOf);
          summary.ended += 1;
          return 'none';
        }
        const period = periodOf(cadence, index, row.invoice_period);
        const runDate = occurrence(cadence, index);
        if (await this.recurring.hasRun(t, id, period.start)) {
          // Only a template whose row was moved back could get here; the period is done already.
          await this.recurring.update(t, scope, id, {
            ...this.placed(row, index + 1, '0000-00-00', at),
            updated_at: at,
          });
          return 'made';
        }
        const { dueDays, ...template } = JSON.parse(row.template) as RecurringTemplate;
        const created = await this.invoices.create(
          scope,
          {
            ...template,
            issueDate: today,
            dueDate: dueDays === undefined || dueDays === null ? null : addDays(today, dueDays),
            invoicePeriod: period,
            status: row.invoice_status,
          },
          asOf,
          t,
        );
        const run: RunRow = {
          id: newId('rir'),
          recurring_invoice_id: id,
          company_id: row.company_id,
          livemode: row.livemode,
          period_index: index,
          period_start: period.start,
          period_end: period.end,
          run_date: runDate,
          status: created.ok ? 'made' : 'failed',
          invoice_id: created.ok ? created.value.id : null,
          failure_code: created.ok ? null : created.code,
          failure_message: created.ok ? null : failureMessage(created),
          send: created.ok && created.value.status !== 'draft' ? row.send : null,
          delivery_id: null,
          send_error: null,
          created_at: at,
        };
        await this.recurring.insertRun(t, run);
        const moved = { ...this.placed(row, index + 1, '0000-00-00', at), updated_at: at };
        await this.recurring.update(t, scope, id, moved);
        const value = recurringFromRows({ ...row, ...moved }, [run]);
        await this.events.record(
          t,
          scope,
          created.ok ? 'recurring_invoice.run' : 'recurring_invoice.failed',
          value,
          asOf,
        );
        if (moved.status === 'ended') {
          await this.events.record(t, scope, 'recurring_invoice.ended', value, asOf);
          summary.ended += 1;
        }
        if (created.ok) summary.made += 1;
        else summary.failed += 1;
        return moved.status === 'ended' ? 'none' : run.status;
      });
    } catch (error) {
      // Another instance wrote this period's run first (its row lock was not held across ours): nothing to do.
      if (isUniqueViolation(error)) return 'none';
      throw error;
    }
  }

  /** Queues the messages of runs that send, each with the run's mark in one transaction. */
  private async sendPending(
    now: Date,
    onError: (error: unknown, id: string) => void,
    companyId: string | undefined,
  ): Promise<number> {
    let sent = 0;
    for (const run of await this.recurring.unsentRuns(SENDS_PER_PASS, companyId)) {
      try {
        const scope = scopeFor(run.company_id, { livemode: run.livemode === 1 });
        await this.db.transaction().execute(async (t) => {
          const queued = await this.send(scope, run.invoice_id!, JSON.parse(run.send!) as SendDocumentInput, now, t);
          const marked = await this.recurring.markSent(
            t,
            run.id,
            queued.ok
              ? { delivery_id: queued.deliveryId, send_error: null }
              : { delivery_id: null, send_error: queued.reason },
          );
          // Another instance queued it first: roll this one's message back.
          if (!marked) throw new SentElsewhere();
          if (queued.ok) sent += 1;
        });
      } catch (error) {
        if (!(error instanceof SentElsewhere)) onError(error, run.recurring_invoice_id);
      }
    }
    return sent;
  }
}

class SentElsewhere extends Error {}

function failureMessage(failure: { code: string; details?: ErrorDetail[] }): string {
  const messages: Record<string, string> = {
    ORGANIZATION_ARCHIVED: 'The buyer (organization) is archived.',
    ORGANIZATION_NOT_FOUND: 'The buyer (organization) does not exist.',
    INVOICE_NUMBER_CONFLICT: 'The invoice number is taken.',
  };
  const details = failure.details?.map((d) => `${d.field}: ${d.message}`).join(' ');
  return messages[failure.code] ?? (details ? `The invoice was refused: ${details}` : failure.code);
}
