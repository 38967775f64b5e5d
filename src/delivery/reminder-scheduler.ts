import type { Kysely } from 'kysely';
import type { Database, InvoicesTable } from '../db/schema.js';
import type { Scope } from '../db/scope.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { newId } from '../lib/ids.js';
import { PollingLoop } from '../lib/polling-loop.js';
import type { DocumentService } from '../services/document-service.js';
import { todayUtc } from '../services/invoice-input.js';
import { amountDueOf } from '../services/invoice-mapping.js';
import type { InvoiceService } from '../services/invoice-service.js';
import type { Selectable } from 'kysely';
import type { EmailDeliveryService } from './email-delivery-service.js';
import { addDays, daysBetween, decideLevel, figuresOf, type Policy } from './reminder-policy.js';
import type { ReminderRepository } from './reminder-repository.js';
import type { ReminderService } from './reminder-service.js';
import { reminderOf } from './reminder-service.js';
import { chargesText, reminderMessage } from './reminder-templates.js';
import { languageFor } from './templates.js';

// A reminder pass for one day (the as-of date): every issued invoice with an open balance whose
// due date has passed is marked overdue once (invoice.overdue), and every one with a billing
// email, not paused, whose company's policy has a level come due, is reminded of the latest such
// level (earlier ones it missed are recorded as skipped). Each invoice is one transaction: the
// invoice row locked (FOR UPDATE SKIP LOCKED on PostgreSQL, so instances running passes at once
// take different invoices; SQLite's one writer runs the transactions one after another), then the
// level's row (the claim: unique per invoice and level), the queued message and the event, all or
// nothing. A pass run again, here or in another process, finds the claims and sends nothing more.

/** How far before its due date an invoice can have a level (the earliest a policy allows). */
const MAX_LEAD_DAYS = 30;
const BATCH = 200;

export interface ReminderPassResult {
  asOf: string;
  /** Invoices looked at. */
  checked: number;
  sent: {
    invoiceId: string;
    number: string | null;
    level: number;
    days: number;
    to: string;
    emailDeliveryId: string;
  }[];
  skipped: { invoiceId: string; number: string | null; level: number; days: number; reason: string }[];
  overdue: { invoiceId: string; number: string | null }[];
  /** Invoices with a level due that got no message because the operator has not set up sending (SMTP_URL); a later pass sends it. */
  waitingForEmail: number;
  /** Invoices whose transaction failed (logged); a later pass tries them again. */
  failed: number;
}

export interface ReminderSchedulerOptions {
  /** How often the in-service loop runs a pass for today (UTC); 0: never (the CLI's pass only). */
  intervalMs: number;
  onError: (error: unknown, what: string) => void;
  clock?: () => Date;
}

export class ReminderScheduler {
  private readonly loop: PollingLoop | undefined;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly repository: ReminderRepository,
    private readonly reminders: ReminderService,
    private readonly email: EmailDeliveryService,
    private readonly documents: DocumentService,
    private readonly invoices: InvoiceService,
    private readonly events: EventRecorder,
    private readonly options: ReminderSchedulerOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.loop =
      options.intervalMs > 0
        ? new PollingLoop({
            intervalMs: options.intervalMs,
            nudgeDelayMs: 10,
            look: async () => {
              const now = this.clock();
              await this.run(todayUtc(now), now);
            },
            onError: (error) => options.onError(error, 'running a reminder pass'),
          })
        : undefined;
  }

  /** Starts the in-service loop: a pass at once and then every interval (unless the interval is 0). */
  start(): void {
    this.loop?.start();
  }

  async stop(): Promise<void> {
    await this.loop?.stop();
  }

  /** One pass for the day `asOf` (YYYY-MM-DD); `now` stamps what it writes. */
  async run(asOf: string, now: Date = this.clock()): Promise<ReminderPassResult> {
    const result: ReminderPassResult = {
      asOf,
      checked: 0,
      sent: [],
      skipped: [],
      overdue: [],
      waitingForEmail: 0,
      failed: 0,
    };
    const policies = new Map<string, Promise<Policy>>();
    const policyOf = (companyId: string) => {
      let policy = policies.get(companyId);
      if (!policy) policies.set(companyId, (policy = this.reminders.policyOf(companyId)));
      return policy;
    };
    let after = '';
    for (;;) {
      const batch = await this.repository.candidates(addDays(asOf, MAX_LEAD_DAYS), after, BATCH);
      for (const { id } of batch) {
        result.checked += 1;
        try {
          await this.db.transaction().execute((t) => this.remind(t, id, asOf, now, policyOf, result));
        } catch (error) {
          result.failed += 1;
          this.options.onError(error, `reminding invoice ${id}`);
        }
      }
      if (batch.length < BATCH) break;
      after = batch.at(-1)!.id;
    }
    if (result.sent.length > 0) this.email.nudge();
    return result;
  }

  private async remind(
    t: Kysely<Database>,
    id: string,
    asOf: string,
    now: Date,
    policyOf: (companyId: string) => Promise<Policy>,
    result: ReminderPassResult,
  ): Promise<void> {
    const row = await this.repository.lockIssued(t, id);
    if (!row || row.due_date === null || row.issue_date === null) return;
    const owner = { companyId: row.company_id, livemode: row.livemode === 1 };
    const scope: Scope = { ...owner, requestId: null };
    const balance = amountDueOf(row);
    if (!balance.greaterThan(0)) return;
    const at = now.toISOString();
    if (row.due_date < asOf && (await this.repository.markOverdue(t, owner, id, at))) {
      const invoice = await this.invoices.get(owner, id, now, t);
      await this.events.record(t, scope, 'invoice.overdue', invoice, now);
      result.overdue.push({ invoiceId: id, number: row.number });
    }
    const policy = await policyOf(row.company_id);
    if (!policy.enabled) return;
    const state = await this.repository.findState(owner, id, t);
    if (state?.pause_reason) return;
    const buyerEmail = buyerEmailOf(row);
    if (!buyerEmail) return;
    const decision = decideLevel(policy, row.due_date, row.issue_date, asOf, await this.repository.claimedDays(t, id));
    if (decision.kind === 'none') return;
    if (decision.kind === 'send' && !this.email.configured) {
      result.waitingForEmail += 1;
      return;
    }
    const base = {
      company_id: row.company_id,
      livemode: row.livemode,
      invoice_id: id,
      as_of: asOf,
      currency: row.currency,
      created_at: at,
    };
    for (const skip of decision.skipped) {
      const figures = figuresOf(skip.level, balance.toFixed(), row.currency, row.due_date, asOf);
      const claimed = await this.repository.claim(t, {
        ...base,
        id: newId('rem'),
        days: skip.level.days,
        level: skip.position,
        status: 'skipped',
        skip_reason: skip.reason,
        email_delivery_id: null,
        open_balance: figures.openBalance,
        fee: null,
        interest_rate_percent: null,
        interest: null,
      });
      if (claimed)
        result.skipped.push({
          invoiceId: id,
          number: row.number,
          level: skip.position,
          days: skip.level.days,
          reason: skip.reason,
        });
    }
    if (decision.kind !== 'send') return;
    const { level, position } = decision;
    const figures = figuresOf(level, balance.toFixed(), row.currency, row.due_date, asOf);
    const deliveryId = newId('eml');
    const reminderRow = {
      ...base,
      id: newId('rem'),
      days: level.days,
      level: position,
      status: 'sent' as const,
      skip_reason: null,
      email_delivery_id: deliveryId,
      open_balance: figures.openBalance,
      fee: figures.fee,
      interest_rate_percent: figures.interestRatePercent,
      interest: figures.interest,
    };
    // The claim: a pass that got here first (another process's, on SQLite after this one's lock) wrote the row.
    if (!(await this.repository.claim(t, reminderRow))) return;
    const facts = await this.documents.sendingFacts('invoice', owner, id, now);
    if (!facts) throw new Error(`The issued invoice ${id} has no document`);
    const language = languageFor(facts.buyerCountry);
    const daysOverdue = Math.max(0, daysBetween(row.due_date, asOf));
    const own = await this.email.ownTemplate(row.company_id, `reminder-${position}`, language, t);
    const message = reminderMessage(level.days, language, own, {
      number: facts.number,
      seller: facts.sellerName,
      buyer: facts.buyerName,
      amount: figures.openBalance,
      currency: row.currency,
      issueDate: row.issue_date,
      dueDate: row.due_date,
      level: String(position),
      daysOverdue: String(daysOverdue),
      charges: chargesText(figures, row.currency, language, daysOverdue),
      total: figures.total,
    });
    await this.email.queueReminder(
      t,
      scope,
      id,
      {
        id: deliveryId,
        to: buyerEmail,
        language,
        subject: message.subject,
        body: message.body,
        sellerName: facts.sellerName,
        sellerEmail: facts.sellerEmail,
      },
      now,
    );
    await this.events.record(t, scope, 'invoice.reminder_sent', reminderOf(reminderRow), now);
    result.sent.push({
      invoiceId: id,
      number: row.number,
      level: position,
      days: level.days,
      to: buyerEmail,
      emailDeliveryId: deliveryId,
    });
  }
}

function buyerEmailOf(row: Selectable<InvoicesTable>): string | null {
  if (!row.buyer_snapshot) return null;
  const email = (JSON.parse(row.buyer_snapshot) as { email?: string | null }).email;
  return email ? email : null;
}
