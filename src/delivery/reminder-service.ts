import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Owner, Scope } from '../db/scope.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { newId } from '../lib/ids.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type { InvoiceRepository } from '../repositories/invoice-repository.js';
import {
  EMAIL_LANGUAGES,
  REMINDER_KINDS,
  type EmailLanguage,
  type EmailTemplateView,
} from '../schemas/email-delivery.js';
import type {
  InvoiceReminders,
  PauseRemindersInput,
  Reminder,
  ReminderPolicy,
  ReminderPolicyInput,
  ReminderPreview,
} from '../schemas/reminder.js';
import type { Actor } from '../services/company-profile.js';
import type { EmailTemplateRepository } from './email-template-repository.js';
import { addDays, checkPolicy, DEFAULT_POLICY, figuresOf, type Policy } from './reminder-policy.js';
import type { ReminderRepository, ReminderRow, ReminderStateRow } from './reminder-repository.js';
import { chargesText, DEFAULT_REMINDER_TEMPLATES, reminderMessage, stageOf } from './reminder-templates.js';
import type { EmailTemplate } from './templates.js';

// A company's reminder policy (read, changed with an audit entry like the seller profile), an
// invoice's reminders and its pause. The passes that send reminders are reminder-scheduler.ts.

export function reminderOf(row: ReminderRow): Reminder {
  return {
    id: row.id,
    invoiceId: row.invoice_id,
    level: Number(row.level),
    days: Number(row.days),
    status: row.status,
    skipReason: (row.skip_reason as Reminder['skipReason']) ?? null,
    asOf: row.as_of,
    currency: row.currency,
    openBalance: row.open_balance,
    fee: row.fee,
    interestRatePercent: row.interest_rate_percent,
    interest: row.interest,
    emailDeliveryId: row.email_delivery_id,
    createdAt: row.created_at,
  };
}

function policyView(policy: Policy, custom: boolean, updatedAt: string | null): ReminderPolicy {
  return {
    enabled: policy.enabled,
    levels: policy.levels.map((level, index) => ({
      level: index + 1,
      days: level.days,
      fee: level.fee,
      interestRatePercent: level.interestRatePercent,
      templateKind: `reminder-${index + 1}`,
    })),
    custom,
    updatedAt,
  };
}

export type PauseResult =
  { ok: true; value: InvoiceReminders } | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_ISSUED'; message: string };

export class ReminderService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repository: ReminderRepository,
    private readonly companies: CompanyRepository,
    private readonly invoices: InvoiceRepository,
    private readonly templates: EmailTemplateRepository,
  ) {}

  /**
   * Each level's message for a sample invoice (1190.00 in the company's currency, due 2026-03-31)
   * in a language, with the company's own templates where it set them: what the panel's and the
   * API's previews show.
   */
  async preview(
    companyId: string,
    language: EmailLanguage,
    /** Typed, unsaved text of one level's template, previewed in place of what is stored. */
    draft?: { level: number; template: EmailTemplate },
  ): Promise<ReminderPreview[]> {
    const [policy, company, own] = await Promise.all([
      this.policyOf(companyId),
      this.companies.findById(companyId),
      this.templates.list(companyId),
    ]);
    const currency = company?.currency ?? 'EUR';
    const dueDate = '2026-03-31';
    return policy.levels.map((level, index) => {
      const asOf = addDays(dueDate, level.days);
      const figures = figuresOf(level, '1190.00', currency, dueDate, asOf);
      const daysOverdue = Math.max(0, level.days);
      const row = own.find((r) => r.document_kind === `reminder-${index + 1}` && r.language === language);
      const template =
        draft?.level === index + 1 ? draft.template : row ? { subject: row.subject, body: row.body } : undefined;
      const message = reminderMessage(level.days, language, template, {
        number: 'RE-2026-00042',
        seller: company?.legal_name ?? company?.name ?? 'Seller',
        buyer: 'Sample Buyer GmbH',
        amount: figures.openBalance,
        currency,
        issueDate: '2026-03-01',
        dueDate,
        level: String(index + 1),
        daysOverdue: String(daysOverdue),
        charges: chargesText(figures, currency, language, daysOverdue),
        total: figures.total,
      });
      return {
        level: index + 1,
        days: level.days,
        asOf,
        custom: draft?.level === index + 1 || row !== undefined,
        subject: message.subject,
        body: message.body,
      };
    });
  }

  /**
   * The templates of the policy's levels in every language, as the panel lists them: the
   * company's own where it set one, else the default of the level's stage.
   */
  async templatesOf(companyId: string): Promise<EmailTemplateView[]> {
    const [policy, own] = await Promise.all([this.policyOf(companyId), this.templates.list(companyId)]);
    return policy.levels.flatMap((level, index) =>
      EMAIL_LANGUAGES.map((language): EmailTemplateView => {
        const kind = REMINDER_KINDS[index]!;
        const row = own.find((r) => r.document_kind === kind && r.language === language);
        const template = row ?? this.defaultTemplate(level.days, language);
        return {
          documentKind: kind,
          language,
          subject: template.subject,
          body: template.body,
          custom: row !== undefined,
          updatedAt: row?.updated_at ?? null,
        };
      }),
    );
  }

  /** The policy the scheduler applies: the company's own, else the default. */
  async policyOf(companyId: string, trx: Kysely<Database> = this.db): Promise<Policy> {
    const row = await this.repository.findPolicy(companyId, trx);
    return row ? { enabled: row.enabled === 1, levels: JSON.parse(row.levels) as Policy['levels'] } : DEFAULT_POLICY;
  }

  async getPolicy(companyId: string): Promise<ReminderPolicy> {
    const row = await this.repository.findPolicy(companyId);
    return row
      ? policyView(await this.policyOf(companyId), true, row.updated_at)
      : policyView(DEFAULT_POLICY, false, null);
  }

  /**
   * Sets the company's policy: checked as a whole, then written with an entry in the company's
   * audit list (field reminderPolicy, before and after). The same policy again changes nothing.
   */
  async setPolicy(
    companyId: string,
    input: ReminderPolicyInput,
    actor: Actor,
    now: Date,
  ): Promise<{ ok: true; value: ReminderPolicy } | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }> {
    const checked = checkPolicy(input);
    if (!checked.ok) return { ok: false, code: 'VALIDATION_ERROR', details: checked.details };
    const policy = checked.value;
    return this.db.transaction().execute(async (t) => {
      const before = await this.repository.findPolicy(companyId, t);
      const beforeText = before
        ? JSON.stringify({ enabled: before.enabled === 1, levels: JSON.parse(before.levels) })
        : null;
      const afterText = JSON.stringify(policy);
      if (before && beforeText === afterText)
        return { ok: true as const, value: policyView(policy, true, before.updated_at) };
      const at = now.toISOString();
      await this.repository.upsertPolicy(
        {
          company_id: companyId,
          enabled: policy.enabled ? 1 : 0,
          levels: JSON.stringify(policy.levels),
          updated_at: at,
        },
        t,
      );
      await this.companies.insertProfileEvent(
        {
          id: newId('evt'),
          company_id: companyId,
          changes: JSON.stringify({ reminderPolicy: { from: beforeText, to: afterText } }),
          actor_user_id: actor.userId,
          actor_label: actor.label,
          at,
        },
        t,
      );
      return { ok: true as const, value: policyView(policy, true, at) };
    });
  }

  /** The template a level's reminders use in a language: the company's own (reminder-<n>), else the default of its stage. */
  defaultTemplate(days: number, language: EmailLanguage): EmailTemplate {
    return DEFAULT_REMINDER_TEMPLATES[stageOf(days)][language];
  }

  /** The default template of a reminder kind (reminder-<n>): that of the stage of the policy's n-th level (after the due date without one). */
  async defaultTemplateOf(companyId: string, kind: string, language: EmailLanguage): Promise<EmailTemplate> {
    const policy = await this.policyOf(companyId);
    const level = policy.levels[Number(kind.slice('reminder-'.length)) - 1];
    return this.defaultTemplate(level?.days ?? 1, language);
  }

  /** An invoice's reminders, newest level first (GET /invoice/{id}'s `reminders`), read in `trx`. */
  async remindersOf(owner: Owner, invoiceId: string, trx: Kysely<Database> = this.db): Promise<Reminder[]> {
    return (await this.repository.listForInvoice(owner, invoiceId, trx)).map(reminderOf);
  }

  async status(owner: Owner, invoiceId: string): Promise<PauseResult> {
    const found = await this.invoices.findById(owner, invoiceId);
    if (!found) return { ok: false, code: 'NOT_FOUND', message: 'No invoice with this id.' };
    return {
      ok: true,
      value: await this.statusOf(owner, invoiceId, await this.repository.findState(owner, invoiceId)),
    };
  }

  /** Pauses an issued invoice's reminders (reason paused or dispute) or, with null, resumes them; in `trx` when given. */
  async setPause(
    scope: Scope,
    invoiceId: string,
    input: PauseRemindersInput | null,
    now: Date,
    trx: Kysely<Database> = this.db,
  ): Promise<PauseResult> {
    const found = await this.invoices.findById(scope, invoiceId, trx);
    if (!found) return { ok: false, code: 'NOT_FOUND', message: 'No invoice with this id.' };
    if (found.invoice.status === 'draft')
      return {
        ok: false,
        code: 'INVOICE_NOT_ISSUED',
        message: 'The invoice is a draft: it has no reminders to pause or resume.',
      };
    const state = await this.repository.findState(scope, invoiceId, trx);
    const reason = input?.reason ?? 'paused';
    const note = input?.note ?? null;
    const unchanged = input
      ? state?.pause_reason === reason && state.pause_note === note
      : !state || state.pause_reason === null;
    if (!unchanged)
      await this.repository.setPause(scope, invoiceId, input ? { reason, note } : null, now.toISOString(), trx);
    return {
      ok: true,
      value: await this.statusOf(scope, invoiceId, await this.repository.findState(scope, invoiceId, trx), trx),
    };
  }

  private async statusOf(
    owner: Owner,
    invoiceId: string,
    state: ReminderStateRow | undefined,
    trx: Kysely<Database> = this.db,
  ): Promise<InvoiceReminders> {
    return {
      invoiceId,
      paused: state?.pause_reason != null,
      pauseReason: state?.pause_reason ?? null,
      pauseNote: state?.pause_note ?? null,
      pausedAt: state?.paused_at ?? null,
      overdueAt: state?.overdue_at ?? null,
      reminders: await this.remindersOf(owner, invoiceId, trx),
    };
  }
}
