import { Decimal } from '../money/decimal.js';
import { SETTLEMENT_GUARDED, type InvoiceRow, type SettlementGuarded } from '../repositories/invoice-repository.js';
import type { Invoice } from '../schemas/invoice.js';

// What payments, refunds and credit notes share: the status an invoice has after its amounts
// changed, and the event of that change. Status rules: paid when amountDue ≤ 0 with something
// paid; void when voided, or when credit notes bring amountDue to 0 with nothing paid. A refund
// pays back what the buyer was owed and leaves a paid invoice paid.

/** How often a change retries after another change to the same invoice slipped in between. */
export const MAX_SETTLEMENT_ATTEMPTS = 20;

export interface SettledAmounts {
  paid: Decimal;
  credited: Decimal;
  refunded: Decimal;
}

/** The amounts of an invoice as stored. */
export function amountsOf(
  row: Pick<InvoiceRow, 'amount_paid' | 'amount_credited' | 'amount_refunded'>,
): SettledAmounts {
  return {
    paid: new Decimal(row.amount_paid),
    credited: new Decimal(row.amount_credited),
    refunded: new Decimal(row.amount_refunded),
  };
}

/** Whether two reads of an invoice agree on what a change's compare-and-set expects (SETTLEMENT_GUARDED). */
export function settlesAlike(a: SettlementGuarded, b: SettlementGuarded): boolean {
  return SETTLEMENT_GUARDED.every((column) => a[column] === b[column]);
}

/** The status an issued (or paid) invoice has after its amounts changed. */
export function settledStatus(
  row: InvoiceRow,
  amounts: SettledAmounts,
  at: string,
): Pick<InvoiceRow, 'status' | 'paid_at' | 'voided_at'> {
  const { paid, credited, refunded } = amounts;
  const due = new Decimal(row.payable).minus(credited).minus(paid).plus(refunded);
  if (paid.greaterThan(0) && due.lessThanOrEqualTo(0))
    return { status: 'paid', paid_at: row.paid_at ?? at, voided_at: null };
  if (paid.isZero() && due.isZero()) return { status: 'void', paid_at: null, voided_at: row.voided_at ?? at };
  return { status: row.status, paid_at: row.paid_at, voided_at: row.voided_at };
}

/** invoice.paid or invoice.voided, when a payment or credit note moved the invoice there; else null. */
export function statusChangeEvent(
  before: InvoiceRow['status'],
  after: Invoice,
): { type: 'invoice.paid' | 'invoice.voided'; object: Invoice } | null {
  if (after.status === before) return null;
  if (after.status === 'paid') return { type: 'invoice.paid', object: after };
  if (after.status === 'void') return { type: 'invoice.voided', object: after };
  return null;
}
