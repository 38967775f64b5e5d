import type { Kysely } from 'kysely';
import type { Database, PaymentKind } from '../db/schema.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { PaymentEventObject } from '../events/event-schema.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { newId } from '../lib/ids.js';
import { minorUnitDigits } from '../money/currency.js';
import { Decimal, plainDecimal } from '../money/decimal.js';
import { amountLimits, largestAmount } from '../money/limits.js';
import { formatMoney } from '../money/money.js';
import type {
  InvoiceRepository,
  InvoiceRow,
  PaymentRow,
  SettlementChange,
} from '../repositories/invoice-repository.js';
import type { EventType } from '../schemas/event-types.js';
import type { CreatePaymentInput, CreateRefundInput, Invoice } from '../schemas/invoice.js';
import { dayOf, Problems, todayUtc } from './invoice-input.js';
import { amountDueOf } from './invoice-mapping.js';
import type { InvoiceService } from './invoice-service.js';
import type { Scope } from '../db/scope.js';
import { amountsOf, MAX_SETTLEMENT_ATTEMPTS, settledStatus, statusChangeEvent } from './settlement-status.js';

// Money that moves for an issued invoice: payments from the buyer and refunds back to the buyer.
// Each changes the invoice's amounts with a compare-and-set written together with its payment row
// and events (one statement on PostgreSQL, one transaction on SQLite), so racing ones never take
// more than is due (payments) or pay back more than is owed (refunds): the loser re-reads and is
// refused on the new state. The answer is built from what was read and what was written, not read
// back. A refusal over an amount names the amount allowed.

type AmountRefusal = { ok: false; message: string; details: ErrorDetail[] };

export type PaymentResult =
  | { ok: true; value: Invoice }
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_PAYABLE' }
  | (AmountRefusal & { code: 'PAYMENT_EXCEEDS_AMOUNT_DUE' });

export type RefundResult =
  | { ok: true; value: Invoice }
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_REFUNDABLE' }
  | (AmountRefusal & { code: 'REFUND_EXCEEDS_AMOUNT_OWED' });

type MoneyInput = CreatePaymentInput | CreateRefundInput;

interface ReadMoney {
  amount: Decimal;
  date: string;
  reference: string | null;
}

/** The amount (positive, the currency's digits, at most the largest amount), date and reference of a payment or refund. */
export function readMoney(
  input: Pick<MoneyInput, 'amount' | 'date' | 'reference'>,
  digits: number,
  now: Date,
): { ok: true; value: ReadMoney } | { ok: false; details: ErrorDetail[] } {
  const problems = new Problems();
  const amount = problems.decimal('amount', input.amount, amountLimits(digits));
  const largest = largestAmount(digits);
  problems.nameMaximum('amount', largest, `Must be at most ${largest}, the largest amount there is.`);
  if (amount && !amount.greaterThan(0)) problems.add('amount', 'not_positive', 'The amount must be above zero.');
  const date = input.date ?? todayUtc(now);
  if (dayOf(date) === null)
    problems.add('date', 'invalid_date', 'Must be a calendar date YYYY-MM-DD from 1900 to 9999.');
  if (problems.details.length > 0 || !amount) return { ok: false, details: problems.details };
  return { ok: true, value: { amount, date, reference: input.reference?.trim() || null } };
}

export class PaymentService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly invoices: InvoiceRepository,
    private readonly invoiceService: InvoiceService,
    private readonly events: EventRecorder,
  ) {}

  /** POST /invoice/{id}/payment: at most the amount due. */
  async pay(
    scope: Scope,
    invoiceId: string,
    input: CreatePaymentInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<PaymentResult> {
    return this.settle(scope, invoiceId, input, 'payment', now, trx) as Promise<PaymentResult>;
  }

  /** POST /invoice/{id}/refund: at most what the buyer is owed (−amountDue, when credit notes left it below zero). */
  async refund(
    scope: Scope,
    invoiceId: string,
    input: CreateRefundInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<RefundResult> {
    return this.settle(scope, invoiceId, input, 'refund', now, trx) as Promise<RefundResult>;
  }

  private async settle(
    scope: Scope,
    invoiceId: string,
    input: MoneyInput,
    kind: PaymentKind,
    now: Date,
    trx?: Kysely<Database>,
  ): Promise<PaymentResult | RefundResult> {
    for (let attempt = 0; attempt < MAX_SETTLEMENT_ATTEMPTS; attempt++) {
      // The row, its lines and what its answer shows: one statement.
      const found = await this.invoiceService.readForChange(scope, invoiceId, now, trx);
      if (!found) return { ok: false, code: 'NOT_FOUND' };
      const invoice = found.invoice;
      if (invoice.status === 'draft' || invoice.status === 'void')
        return { ok: false, code: kind === 'payment' ? 'INVOICE_NOT_PAYABLE' : 'INVOICE_NOT_REFUNDABLE' };

      const digits = minorUnitDigits(invoice.currency);
      const read = readMoney(input, digits, now);
      if (!read.ok) return { ok: false, code: 'VALIDATION_ERROR', details: read.details };
      const { amount } = read.value;
      const refusal = limitRefusal(kind, invoice, amount, digits);
      if (refusal) return refusal;

      // The answer and the events are built from what was read and what is written, not read
      // back: the compare-and-set makes that the state the change was written on.
      const answer = await found.answer();
      const change = changeOf(invoice, kind, amount, now);
      const payment: PaymentRow = {
        id: newId(kind === 'payment' ? 'pay' : 'rfd'),
        company_id: scope.companyId,
        invoice_id: invoiceId,
        livemode: invoice.livemode,
        kind,
        amount: formatMoney(amount, digits),
        date: read.value.date,
        method: input.method ?? 'credit_transfer',
        reference: read.value.reference,
        created_at: now.toISOString(),
      };
      const updated = answer(change.next, { payments: [payment] });
      const events: { type: EventType; object: unknown }[] = [
        kind === 'payment'
          ? {
              type: 'payment.created',
              object: {
                ...updated.payments.find((p) => p.id === payment.id)!,
                invoiceId,
              } satisfies PaymentEventObject,
            }
          : { type: 'invoice.refunded', object: updated },
      ];
      const statusChange = statusChangeEvent(invoice.status, updated);
      if (statusChange) events.push(statusChange);
      // The UPDATE, the payment's INSERT and the events: one statement on PostgreSQL.
      const written = await this.events.recordWithGuardedChange(
        trx ?? this.db,
        this.invoices.settlementGuard(scope, invoiceId, change),
        this.invoices.paymentInsert(payment),
        scope,
        events,
        now,
      );
      if (written) return { ok: true, value: updated };
    }
    throw new Error(`A ${kind} on ${invoiceId} lost ${MAX_SETTLEMENT_ATTEMPTS} races in a row`);
  }
}

/** The refusal of an amount above what may be paid (the amount due) or refunded (what the buyer is owed), naming that amount. */
function limitRefusal(
  kind: PaymentKind,
  invoice: InvoiceRow,
  amount: Decimal,
  digits: number,
): (AmountRefusal & { code: 'PAYMENT_EXCEEDS_AMOUNT_DUE' | 'REFUND_EXCEEDS_AMOUNT_OWED' }) | null {
  const due = amountDueOf(invoice);
  // A refund pays back money that was paid: an invoice whose negative lines leave the buyer owed
  // with nothing paid is undone by voiding it (a refund would void it without a credit note).
  const { paid, refunded } = amountsOf(invoice);
  const allowed = Decimal.max(0, kind === 'payment' ? due : Decimal.min(due.negated(), paid.minus(refunded)));
  if (!amount.greaterThan(allowed)) return null;
  const [given, maximum] = [formatMoney(amount, digits), formatMoney(allowed, digits)];
  if (kind === 'payment') {
    return {
      ok: false,
      code: 'PAYMENT_EXCEEDS_AMOUNT_DUE',
      message: `The payment of ${given} is more than the amount due: at most ${maximum} can be paid.`,
      details: [
        { field: 'amount', code: 'exceeds_amount_due', message: `At most ${maximum} (the amount due).`, maximum },
      ],
    };
  }
  return {
    ok: false,
    code: 'REFUND_EXCEEDS_AMOUNT_OWED',
    message: `The refund of ${given} is more than the buyer is owed: at most ${maximum} can be refunded.`,
    details: [
      {
        field: 'amount',
        code: 'exceeds_amount_owed',
        message: `At most ${maximum} (what the buyer is owed).`,
        maximum,
      },
    ],
  };
}

/** The invoice's amounts and status after a payment or refund, if it is still as it was read. */
function changeOf(invoice: InvoiceRow, kind: PaymentKind, amount: Decimal, now: Date): SettlementChange {
  const before = amountsOf(invoice);
  const after =
    kind === 'payment'
      ? { ...before, paid: before.paid.plus(amount) }
      : { ...before, refunded: before.refunded.plus(amount) };
  const at = now.toISOString();
  return {
    expected: invoice,
    next: {
      amount_paid: plainDecimal(after.paid),
      amount_credited: invoice.amount_credited,
      amount_refunded: plainDecimal(after.refunded),
      ...settledStatus(invoice, after, at),
      updated_at: at,
    },
  };
}
