import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { newId } from '../lib/ids.js';
import { minorUnitDigits } from '../money/currency.js';
import { Decimal, plainDecimal } from '../money/decimal.js';
import { formatMoney } from '../money/money.js';
import type { CreditNoteRepository, CreditNoteRow } from '../repositories/credit-note-repository.js';
import type { InvoiceRepository, InvoiceRow, SettlementChange } from '../repositories/invoice-repository.js';
import { NumberSequences } from '../repositories/number-sequences.js';
import type { CreateCreditNoteInput, CreditNote } from '../schemas/credit-note.js';
import type { Invoice } from '../schemas/invoice.js';
import { creditNoteFromRows } from './credit-note-mapping.js';
import { NO_NEW_HOSTED_LINK, type NewHostedLink } from './hosted-link-port.js';
import { adjustmentsOf, extrasColumns, extrasOf } from './document-extras.js';
import { computeContent, draftLineOf, oversizedAmounts } from './invoice-content.js';
import { dayOf, Problems, readLines, todayUtc, type DocumentExtras, type DraftLine } from './invoice-input.js';
import { amountDueOf } from './invoice-mapping.js';
import { NUMBER_WIDTH } from './invoice-numbering.js';
import type { FoundInvoice, InvoiceAnswer, InvoiceService } from './invoice-service.js';
import { modeColumn, type Scope } from '../db/scope.js';
import {
  amountsOf,
  MAX_SETTLEMENT_ATTEMPTS,
  settledStatus,
  settlesAlike,
  statusChangeEvent,
} from './settlement-status.js';

// What corrects an issued invoice: credit notes and voiding (payments and refunds are
// payment-service.ts). Each one changes the invoice's amounts and status with a compare-and-set
// in its own transaction, so racing ones never over-credit: the loser re-reads and is refused (or
// retried) on the new state. The status rules are in settlement-status.ts.

export type CreditNoteResult =
  | { ok: true; value: CreditNote }
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'INVOICE_NOT_FOUND' | 'INVOICE_NOT_CREDITABLE' }
  | { ok: false; code: 'CREDIT_EXCEEDS_INVOICE'; message: string; details: ErrorDetail[] };

export type VoidResult =
  | { ok: true; value: Invoice }
  | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_ISSUED' | 'INVOICE_ALREADY_VOID' | 'INVOICE_HAS_PAYMENTS' };

const MAX_ATTEMPTS = MAX_SETTLEMENT_ATTEMPTS;

/** What comes before a credit note counter's value: CN-, the year and a dash, after TEST- in test mode. */
function creditNotePrefix(year: number, livemode: boolean): string {
  return `${livemode ? '' : 'TEST-'}CN-${year}-`;
}

/** CN-2026-00001: the counter's value zero-padded to five digits (wider past them). */
function formatCreditNoteNumber(year: number, value: number, livemode: boolean): string {
  return `${creditNotePrefix(year, livemode)}${String(value).padStart(NUMBER_WIDTH, '0')}`;
}

interface CreditPlan {
  reason: string;
  issueDate: string;
  note: string | null;
  lines: DraftLine[];
  /** The invoice's document allowances and charges, when all of it is credited. */
  adjustments: Pick<DocumentExtras, 'allowances' | 'charges'>;
  /** Voiding: the credit note's payable is exactly this (any rounding difference in its roundingAmount). */
  payableExactly?: Decimal;
}

export class SettlementService {
  private readonly sequences = new NumberSequences();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly invoices: InvoiceRepository,
    private readonly creditNotes: CreditNoteRepository,
    private readonly invoiceService: InvoiceService,
    private readonly events: EventRecorder,
    /** A new credit note's hosted page link, written with it (hosted/, above the services, makes it). */
    private readonly newHostedLink: NewHostedLink = NO_NEW_HOSTED_LINK,
  ) {}

  /** POST /credit-note */
  async credit(
    scope: Scope,
    input: CreateCreditNoteInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<CreditNoteResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // The row and its lines (one statement); what the invoice's answer shows only when it is needed.
      const found = await this.invoices.findById(scope, input.invoiceId, trx);
      if (!found) return { ok: false, code: 'INVOICE_NOT_FOUND' };
      const invoice = found.invoice;
      if (invoice.status !== 'issued' && invoice.status !== 'paid')
        return { ok: false, code: 'INVOICE_NOT_CREDITABLE' };

      const problems = new Problems();
      const lines = input.lines ? readLines(input.lines, problems) : found.lines.map((line) => draftLineOf(line));
      const issueDate = input.issueDate ?? todayUtc(now);
      const day = dayOf(issueDate);
      if (day === null)
        problems.add('issueDate', 'invalid_date', 'Must be a calendar date YYYY-MM-DD from 1900 to 9999.');
      else if (day < dayOf(invoice.issue_date!)!)
        problems.add(
          'issueDate',
          'before_invoice',
          `Must not be before the invoice's issue date (${invoice.issue_date}).`,
        );
      if (problems.details.length > 0 || !lines)
        return { ok: false, code: 'VALIDATION_ERROR', details: problems.details };

      // Without lines the whole invoice is credited: its allowances and charges too.
      const adjustments = input.lines ? { allowances: [], charges: [] } : extrasOf(invoice);
      const plan: CreditPlan = {
        reason: input.reason.trim(),
        issueDate,
        note: input.note?.trim() || null,
        lines,
        adjustments,
      };
      const result = await this.issueCreditNote(scope, found, plan, now, trx);
      if (result !== 'retry') return result;
    }
    throw new Error(`A credit note on ${input.invoiceId} lost ${MAX_ATTEMPTS} races in a row`);
  }

  /**
   * POST /invoice/{id}/void: an issued invoice without payments is credited for the whole
   * remaining amount (a credit note with every invoice line, less the lines credited before) and
   * set void, in one transaction.
   */
  async void(scope: Scope, invoiceId: string, now: Date = new Date(), trx?: Kysely<Database>): Promise<VoidResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const found = await this.invoiceService.readForChange(scope, invoiceId, now, trx);
      if (!found) return { ok: false, code: 'NOT_FOUND' };
      const invoice = found.invoice;
      if (invoice.status === 'draft') return { ok: false, code: 'INVOICE_NOT_ISSUED' };
      if (invoice.status === 'void') return { ok: false, code: 'INVOICE_ALREADY_VOID' };
      if (!new Decimal(invoice.amount_paid).isZero()) return { ok: false, code: 'INVOICE_HAS_PAYMENTS' };

      const credited = await this.creditNotes.linesOfInvoice(scope, invoiceId, trx);
      const lines = [
        ...found.lines.map((line) => draftLineOf(line)),
        ...credited.map((line) => draftLineOf(line, true)),
      ];
      const plan: CreditPlan = {
        reason: `Invoice ${invoice.number} voided.`,
        issueDate: [todayUtc(now), invoice.issue_date!].sort().at(-1)!,
        note: null,
        lines,
        // Earlier credit notes of this invoice credited lines only (one that credits it all makes it void).
        adjustments: extrasOf(invoice),
        payableExactly: amountDueOf(invoice),
      };
      // The voided invoice is built from what is read here and what the void writes, not read back.
      const result = await this.issueCreditNote(scope, found, plan, now, trx, await found.answer());
      if (result === 'retry') continue;
      if (!result.ok) throw new Error(`Voiding ${invoiceId} was refused: ${result.code}`);
      return { ok: true, value: result.voided! };
    }
    throw new Error(`Voiding ${invoiceId} lost ${MAX_ATTEMPTS} races in a row`);
  }

  /**
   * Computes and stores a credit note of the invoice `found` with its number, and changes the
   * invoice, in one transaction; 'retry' when the invoice changed since it was read. Voiding (with
   * `voidedAnswer`, the invoice's answer read with it) also answers the voided invoice.
   */
  private async issueCreditNote(
    scope: Scope,
    found: FoundInvoice,
    plan: CreditPlan,
    now: Date,
    trx: Kysely<Database> | undefined,
    voidedAnswer?: InvoiceAnswer,
  ): Promise<(CreditNoteResult & { voided?: Invoice }) | 'retry'> {
    const invoice = found.invoice;
    const voiding = voidedAnswer !== undefined;
    const { companyId } = scope;
    const digits = minorUnitDigits(invoice.currency);
    const computed = computeContent(
      plan.lines,
      { digits, pricesIncludeTax: invoice.prices_include_tax === 1 },
      adjustmentsOf(plan.adjustments),
    );
    const invoiceExtras = extrasOf(invoice);
    if (plan.payableExactly) {
      // The remaining amount, exactly: taxes rounded per document can differ from the invoice's
      // by a minor unit, which becomes the credit note's rounding amount (EN 16931 BT-114).
      computed.totals.rounding_amount = formatMoney(plan.payableExactly.minus(computed.totals.tax_inclusive), digits);
      computed.totals.payable = formatMoney(plan.payableExactly, digits);
    }
    // Voiding undoes whatever was issued; a credit note asked for is held to the amount limit.
    const oversized = voiding ? [] : oversizedAmounts(computed, digits, 'credit note');
    if (oversized.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: oversized };
    const payable = new Decimal(computed.totals.payable);
    // Voiding credits whatever remains, also nothing (a free sample) or less than nothing (an
    // invoice whose negative lines outweigh the rest): the invoice is undone either way.
    if (!voiding && !payable.greaterThan(0)) {
      return {
        ok: false,
        code: 'VALIDATION_ERROR',
        details: [
          { field: 'lines', code: 'not_positive', message: 'The credit note must credit an amount above zero.' },
        ],
      };
    }
    const credited = new Decimal(invoice.amount_credited).plus(payable);
    if (credited.greaterThan(invoice.payable)) return creditRefusal(invoice, payable, digits);

    const at = now.toISOString();
    const status = settledStatus(invoice, { ...amountsOf(invoice), credited }, at);
    const change: SettlementChange = {
      expected: invoice,
      next: {
        amount_paid: invoice.amount_paid,
        amount_credited: plainDecimal(credited),
        amount_refunded: invoice.amount_refunded,
        ...(voiding ? { status: 'void', paid_at: null, voided_at: at } : status),
        updated_at: at,
      },
    };
    // A credit note that pays or voids the invoice writes the invoice's event too: its object is
    // built from what is read here (before the compare-and-set, which makes it the state the
    // change is written on) and what the change writes, not read back.
    let answer = voidedAnswer;
    if (!answer && change.next.status !== invoice.status) {
      // Read with what its answer shows, in one statement: a change in between is a retry.
      const full = await this.invoiceService.readForChange(scope, invoice.id, now, trx);
      if (!full || !settlesAlike(full.invoice, invoice)) return 'retry';
      answer = await full.answer();
    }
    const id = newId('cn');
    const year = Number(plan.issueDate.slice(0, 4));
    const row: CreditNoteRow = {
      id,
      company_id: companyId,
      livemode: invoice.livemode,
      invoice_id: invoice.id,
      invoice_number: invoice.number!,
      invoice_issue_date: invoice.issue_date!,
      // Written by the numbered insert: the sequence's next number.
      number: '',
      buyer_reference: invoice.buyer_reference,
      purchase_order_reference: invoice.purchase_order_reference,
      reason: plan.reason,
      issue_date: plan.issueDate,
      currency: invoice.currency,
      prices_include_tax: invoice.prices_include_tax,
      buyer_snapshot: invoice.buyer_snapshot!,
      seller_snapshot: invoice.seller_snapshot!,
      note: plan.note,
      // The credit note settles through the invoice's payment means, for the same supply.
      ...extrasColumns({
        ...invoiceExtras,
        allowances: plan.adjustments.allowances,
        charges: plan.adjustments.charges,
      }),
      ...computed.totals,
      // What the credit note settles against the invoice's open balance as it stands now (the
      // compare-and-set below makes that the state it was issued on); the rest is owed back.
      offset_amount: formatMoney(Decimal.max(Decimal.min(payable, amountDueOf(invoice)), 0), digits),
      created_at: at,
    };
    const lines = computed.lines.map((line) => ({ ...line, credit_note_id: id, company_id: companyId }));
    const after = answer?.(change.next, { creditNotes: [{ id, created_at: at }] });
    const statusEvent = after ? statusChangeEvent(invoice.status, after) : null;
    const key = { companyId, livemode: modeColumn(scope), sequence: 'credit-note', year };
    // A new credit note has been sent nowhere yet; its link is made here and written with it.
    const link = this.newHostedLink(scope, 'credit-note', id, now);
    const creditNoteWith = (number: string) => creditNoteFromRows({ ...row, number }, lines, [], link.facts);
    // The invoice's compare-and-set, the number, the credit note, its lines, link and events: one
    // statement where the database can (PostgreSQL), with no BEGIN or COMMIT unless the caller's
    // transaction; steps in one transaction elsewhere. Null: the invoice changed since it was read.
    const number = await this.events.recordWithNumberedInsert<string | null>(
      trx ?? this.db,
      scope,
      [
        { type: 'credit-note.created', objectOf: creditNoteWith },
        ...(statusEvent ? [{ type: statusEvent.type, objectOf: () => statusEvent.object }] : []),
      ],
      {
        ...key,
        prefix: creditNotePrefix(year, scope.livemode),
        width: NUMBER_WIDTH,
        ...this.creditNotes.numberedInsert(row, lines),
        guard: this.invoices.settlementGuard(scope, invoice.id, change),
        alongside: link.change,
      },
      {
        inSteps: async (t) => {
          if (!(await this.invoices.settle(t, scope, invoice.id, change))) return null;
          const number = formatCreditNoteNumber(year, await this.sequences.next(t, key), scope.livemode);
          await this.creditNotes.insert(t, { ...row, number }, lines);
          return number;
        },
      },
      now,
    );
    if (number === null) return 'retry';
    return { ok: true, value: creditNoteWith(number), ...(voiding && after ? { voided: after } : {}) };
  }
}

/** A credit note above what the invoice can still be credited, naming that amount. */
function creditRefusal(invoice: InvoiceRow, payable: Decimal, digits: number): CreditNoteResult {
  const maximum = formatMoney(Decimal.max(0, new Decimal(invoice.payable).minus(invoice.amount_credited)), digits);
  return {
    ok: false,
    code: 'CREDIT_EXCEEDS_INVOICE',
    message: `The credit note of ${formatMoney(payable, digits)} would credit more than the invoice's payable amount: at most ${maximum} can still be credited.`,
    details: [
      {
        field: 'lines',
        code: 'exceeds_creditable',
        message: `At most ${maximum} (the invoice's payable less its credit notes).`,
        maximum,
      },
    ],
  };
}
