import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import type { ErrorDetail } from '../errors/app-error.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { EventType } from '../schemas/event-types.js';
import { newId } from '../lib/ids.js';
import { Decimal } from '../money/decimal.js';
import type { PurchaseInvoice, PurchasePaymentInput } from '../schemas/purchase-invoice.js';
import { readMoney } from '../services/payment-service.js';
import type { Scope } from '../db/scope.js';
import { MAX_SETTLEMENT_ATTEMPTS } from '../services/settlement-status.js';
import { amountDueOf, digitsOf, money } from './purchase-invoice-mapping.js';
import type { PurchaseInvoiceReads } from './purchase-invoice-reads.js';
import type { PurchaseChange, PurchaseInvoiceRepository, PurchaseInvoiceRow } from './purchase-invoice-repository.js';

// A purchase invoice's life: received → approved or disputed (with a reason) → paid. Payments
// (partial or full, never more than is due) and the supplier's credit notes change its amounts,
// each by compare-and-set on its state and amounts, so racing changes never both win on the
// same state: the loser re-reads and is judged on the new one (a second payment that no longer
// fits is refused, naming what is still due). Paid: approved, something paid, nothing due.

export type LifecycleResult =
  | { ok: true; value: PurchaseInvoice }
  | { ok: false; code: 'NOT_FOUND' }
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | {
      ok: false;
      code: 'PURCHASE_INVOICE_NOT_APPROVABLE' | 'PURCHASE_INVOICE_NOT_DISPUTABLE' | 'PURCHASE_INVOICE_NOT_PAYABLE';
      message: string;
    }
  | { ok: false; code: 'PAYMENT_EXCEEDS_AMOUNT_DUE'; message: string; details: ErrorDetail[] };

type Amounts = Pick<PurchaseInvoiceRow, 'state' | 'amount_paid' | 'amount_credited' | 'owing' | 'paid_at'>;

/** The amounts, owing flag and state of a row after its paid and credited amounts became these. */
function settled(
  row: PurchaseInvoiceRow,
  state: PurchaseInvoiceRow['state'],
  paid: Decimal,
  credited: Decimal,
  at: string,
): Amounts {
  const due = amountDueOf({ payable: row.payable, amount_paid: paid.toFixed(), amount_credited: credited.toFixed() });
  const owing = row.document_kind === 'invoice' && due !== null && due.greaterThan(0) ? 1 : 0;
  const paidNow = state === 'approved' && paid.greaterThan(0) && due !== null && !due.greaterThan(0);
  return {
    state: paidNow ? 'paid' : state,
    amount_paid: paid.isZero() ? '0' : paid.toFixed(),
    amount_credited: credited.isZero() ? '0' : credited.toFixed(),
    owing,
    paid_at: paidNow ? (row.paid_at ?? at) : row.paid_at,
  };
}

const expectedOf = (row: PurchaseInvoiceRow): PurchaseChange['expected'] => ({
  state: row.state,
  amount_paid: row.amount_paid,
  amount_credited: row.amount_credited,
});

/** "Purchase invoice R-11" at the start of a sentence, "purchase invoice R-11" within one. */
const NOUN = (row: PurchaseInvoiceRow, within = false) => {
  const noun = `${row.document_kind === 'invoice' ? 'Purchase invoice' : 'Credit note'} ${row.number ?? row.id}`;
  return within ? noun[0]!.toLowerCase() + noun.slice(1) : noun;
};

export class PurchaseLedger {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repository: PurchaseInvoiceRepository,
    private readonly reads: PurchaseInvoiceReads,
    private readonly events: EventRecorder,
  ) {}

  /**
   * Applies a change computed from the row as read, in its own transaction (or the caller's), with
   * its events; re-reads and recomputes when another change slipped in between.
   */
  private async change(
    scope: Scope,
    id: string,
    trx: Kysely<Database> | undefined,
    decide: (row: PurchaseInvoiceRow) =>
      | LifecycleResult
      | 'unchanged'
      | {
          next: PurchaseChange['next'];
          events: EventType[];
          payment?: { amount: Decimal; date: string; method: string; reference: string | null };
        },
    now: Date,
  ): Promise<LifecycleResult> {
    for (let attempt = 0; attempt < MAX_SETTLEMENT_ATTEMPTS; attempt++) {
      const row = await this.repository.findById(scope, id, trx);
      if (!row) return { ok: false, code: 'NOT_FOUND' };
      const decision = decide(row);
      if (decision === 'unchanged') return { ok: true, value: (await this.reads.get(scope, id, trx))! };
      if ('ok' in decision) return decision;
      const result = await inTransaction(this.db, trx, async (t) => {
        if (
          !(await this.repository.change(t, scope, id, {
            expected: expectedOf(row),
            next: { ...decision.next, updated_at: now.toISOString() },
          }))
        )
          return null;
        if (decision.payment) {
          const p = decision.payment;
          await this.repository.insertPayment(t, {
            id: newId('ppay'),
            company_id: scope.companyId,
            livemode: row.livemode,
            purchase_invoice_id: id,
            amount: p.amount.toFixed(),
            date: p.date,
            method: p.method,
            reference: p.reference,
            created_at: now.toISOString(),
          });
        }
        const updated = (await this.reads.get(scope, id, t))!;
        const { judgement: _judgement, document: _document, unmappedCount: _unmappedCount, ...summary } = updated;
        for (const type of decision.events) await this.events.record(t, scope, type, summary, now);
        return updated;
      });
      if (result) return { ok: true, value: result };
    }
    throw new Error(`A change of purchase invoice ${id} lost ${MAX_SETTLEMENT_ATTEMPTS} races in a row`);
  }

  /** received or disputed → approved (approving an approved one changes nothing). */
  approve(scope: Scope, id: string, now: Date = new Date(), trx?: Kysely<Database>): Promise<LifecycleResult> {
    return this.change(
      scope,
      id,
      trx,
      (row) => {
        if (row.state === 'paid')
          return { ok: false, code: 'PURCHASE_INVOICE_NOT_APPROVABLE', message: `${NOUN(row)} is paid already.` };
        if (row.state === 'approved') return 'unchanged';
        const after = settled(
          row,
          'approved',
          new Decimal(row.amount_paid),
          new Decimal(row.amount_credited),
          now.toISOString(),
        );
        return {
          next: { ...after, dispute_reason: null, approved_at: now.toISOString() },
          events:
            after.state === 'paid'
              ? ['purchase_invoice.approved', 'purchase_invoice.paid']
              : ['purchase_invoice.approved'],
        };
      },
      now,
    );
  }

  /** received or approved (or disputed, with a new reason) → disputed. */
  dispute(
    scope: Scope,
    id: string,
    reason: string,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<LifecycleResult> {
    const why = reason.trim();
    if (why === '')
      return Promise.resolve({
        ok: false,
        code: 'VALIDATION_ERROR',
        details: [{ field: 'reason', code: 'required', message: 'Say why the invoice is disputed.' }],
      });
    return this.change(
      scope,
      id,
      trx,
      (row) => {
        if (row.state === 'paid')
          return {
            ok: false,
            code: 'PURCHASE_INVOICE_NOT_DISPUTABLE',
            message: `${NOUN(row)} is paid already: it can no longer be disputed.`,
          };
        return {
          next: { state: 'disputed', dispute_reason: why, disputed_at: now.toISOString() },
          events: ['purchase_invoice.disputed'],
        };
      },
      now,
    );
  }

  /** A payment to the supplier of an approved invoice: at most what is due. */
  pay(
    scope: Scope,
    id: string,
    input: PurchasePaymentInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<LifecycleResult> {
    return this.change(
      scope,
      id,
      trx,
      (row) => {
        const refuse = (message: string): LifecycleResult => ({
          ok: false,
          code: 'PURCHASE_INVOICE_NOT_PAYABLE',
          message,
        });
        if (row.document_kind === 'credit-note')
          return refuse(
            `${NOUN(row)} is a credit note: it is not paid, it reduces what is owed on the invoice it corrects.`,
          );
        if (row.state === 'paid') return refuse(`${NOUN(row)} is paid already.`);
        if (row.state !== 'approved') return refuse(`${NOUN(row)} is ${row.state}: approve it before paying it.`);
        const due = amountDueOf(row);
        if (due === null)
          return refuse(`${NOUN(row)} states no payable amount (BT-115) that a payment could be set against.`);
        const digits = Math.max(digitsOf(row.currency), due.decimalPlaces());
        if (!due.greaterThan(0))
          return refuse(`Nothing is due on ${NOUN(row, true)}: its credit notes and payments cover it.`);
        const read = readMoney(input, digits, now);
        if (!read.ok) return { ok: false, code: 'VALIDATION_ERROR', details: read.details };
        const amount = read.value.amount;
        if (amount.greaterThan(due)) {
          const [given, maximum] = [money(amount, digits), money(due, digits)];
          return {
            ok: false,
            code: 'PAYMENT_EXCEEDS_AMOUNT_DUE',
            message: `The payment of ${given} is more than is due on ${NOUN(row, true)}: at most ${maximum} can be paid.`,
            details: [
              { field: 'amount', code: 'exceeds_amount_due', message: `At most ${maximum} (the amount due).`, maximum },
            ],
          };
        }
        const after = settled(
          row,
          row.state,
          new Decimal(row.amount_paid).plus(amount),
          new Decimal(row.amount_credited),
          now.toISOString(),
        );
        return {
          next: after,
          events: after.state === 'paid' ? ['purchase_invoice.paid'] : [],
          payment: {
            amount,
            date: read.value.date,
            method: input.method ?? 'credit_transfer',
            reference: read.value.reference,
          },
        };
      },
      now,
    );
  }

  /** A supplier credit note of `amount` corrects invoice `id`: what we owe on it goes down, in `t`. */
  async credit(scope: Scope, id: string, amount: Decimal | null, now: Date, t: Kysely<Database>): Promise<void> {
    if (amount === null || amount.isZero()) return;
    const result = await this.change(
      scope,
      id,
      t,
      (row) => {
        const after = settled(
          row,
          row.state,
          new Decimal(row.amount_paid),
          new Decimal(row.amount_credited).plus(amount),
          now.toISOString(),
        );
        return { next: after, events: after.state === 'paid' && row.state !== 'paid' ? ['purchase_invoice.paid'] : [] };
      },
      now,
    );
    if (!result.ok) throw new Error(`Crediting purchase invoice ${id} failed: ${result.code}`);
  }
}
