import type { PaymentFilter, PaymentRepository, PaymentWithInvoice } from '../../repositories/payment-repository.js';
import type { PaymentRecord } from '../../schemas/invoice.js';
import type { Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

export type { PaymentFilter };

function recordOf(row: PaymentWithInvoice): PaymentRecord {
  return {
    id: row.id,
    kind: row.kind,
    invoiceId: row.invoice_id,
    // Only issued invoices take payments: they have a number.
    invoiceNumber: row.invoice_number ?? '',
    currency: row.currency,
    livemode: row.livemode === 1,
    amount: row.amount,
    date: row.date,
    method: row.method as PaymentRecord['method'],
    reference: row.reference,
    createdAt: row.created_at,
  };
}

/** Read side of payments and refunds: the repository's rows as the API shows them. */
export class PaymentQueries {
  constructor(private readonly payments: PaymentRepository) {}

  async findById(owner: Owner, id: string): Promise<PaymentRecord | undefined> {
    const row = await this.payments.findById(owner, id);
    return row ? recordOf(row) : undefined;
  }

  /** A page of payments and refunds, newest first (by when they were recorded). */
  async list(
    owner: Owner,
    filter: PaymentFilter,
    page: { limit: number; after?: Cursor; maxBytes: number },
  ): Promise<SerializedPage> {
    const rows = await this.payments.page(
      owner,
      filter,
      page.after ? { limit: page.limit, after: page.after } : { limit: page.limit },
    );
    const budget = new PageBudget<PaymentRecord>(page.maxBytes);
    for (const row of rows.slice(0, page.limit)) if (!budget.offer(recordOf(row))) break;
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
