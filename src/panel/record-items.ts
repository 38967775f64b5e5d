import type { CreditNoteListRow } from '../repositories/credit-note-repository.js';
import type { InvoiceListRow } from '../repositories/invoice-repository.js';
import { minorUnitDigits } from '../money/currency.js';
import { formatMoney } from '../money/money.js';
import type { InvoiceStatus } from '../schemas/invoice.js';
import { amountDueOf } from '../services/invoice-mapping.js';

// The rows of the panel's lists, as the repositories read them, turned into what a list row shows.

export interface InvoiceListItem {
  id: string;
  /** Null for a draft. */
  number: string | null;
  status: InvoiceStatus;
  /** The rule of the API's Invoice.isOverdue: issued, something due, due date before today (UTC). */
  isOverdue: boolean;
  issueDate: string | null;
  dueDate: string | null;
  /** payable − credited − paid + refunded, with the currency's digits, as the API shows it. */
  amountDue: string;
  currency: string;
  payable: string;
  buyerName: string;
  createdAt: string;
}

export function invoiceItem(r: InvoiceListRow, today: string): InvoiceListItem {
  const due = amountDueOf(r);
  return {
    id: r.id,
    number: r.number,
    status: r.status,
    isOverdue: r.status === 'issued' && due.greaterThan(0) && r.due_date !== null && r.due_date < today,
    issueDate: r.issue_date,
    dueDate: r.due_date,
    currency: r.currency,
    payable: r.payable,
    // A draft has no snapshot yet: it shows the organization as it is now.
    buyerName:
      r.buyer_snapshot === null
        ? (r.organization_name ?? '')
        : ((JSON.parse(r.buyer_snapshot) as { name?: string }).name ?? ''),
    amountDue: formatMoney(due, minorUnitDigits(r.currency)),
    createdAt: r.created_at,
  };
}

export interface CreditNoteListItem {
  id: string;
  number: string;
  invoiceId: string;
  invoiceNumber: string;
  issueDate: string;
  reason: string;
  /** The credit note's payable: what it takes off the invoice. */
  amount: string;
  currency: string;
  buyerName: string;
  createdAt: string;
}

export function creditNoteItem(r: CreditNoteListRow): CreditNoteListItem {
  return {
    id: r.id,
    number: r.number,
    invoiceId: r.invoice_id,
    invoiceNumber: r.invoice_number,
    issueDate: r.issue_date,
    reason: r.reason,
    amount: r.payable,
    currency: r.currency,
    buyerName: (JSON.parse(r.buyer_snapshot) as { name?: string }).name ?? '',
    createdAt: r.created_at,
  };
}
