import type { Kysely } from 'kysely';
import type { Database, PaymentKind, PaymentsTable } from '../../db/schema.js';
import type { PaymentRecord } from '../../schemas/invoice.js';
import { modeColumn, type Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

export interface PaymentFilter {
  invoiceId?: string;
  kind?: PaymentKind;
  /** YYYY-MM-DD, inclusive: the day the money moved. */
  dateFrom?: string;
  /** YYYY-MM-DD, inclusive. */
  dateTo?: string;
}

type PaymentWithInvoice = PaymentsTable & { invoice_number: string | null; currency: string };

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

/** Read side of payments and refunds; every query is scoped by company and mode, on both tables it reads. */
export class PaymentQueries {
  constructor(private readonly db: Kysely<Database>) {}

  private select(owner: Owner) {
    const livemode = modeColumn(owner);
    return this.db
      .selectFrom('payments')
      .innerJoin('invoices', (join) =>
        join.onRef('invoices.id', '=', 'payments.invoice_id').on('invoices.company_id', '=', owner.companyId).on('invoices.livemode', '=', livemode),
      )
      .selectAll('payments')
      .select(['invoices.number as invoice_number', 'invoices.currency'])
      .where('payments.company_id', '=', owner.companyId)
      .where('payments.livemode', '=', livemode);
  }

  async findById(owner: Owner, id: string): Promise<PaymentRecord | undefined> {
    const row = await this.select(owner).where('payments.id', '=', id).executeTakeFirst();
    return row ? recordOf(row) : undefined;
  }

  /** A page of payments and refunds, newest first (by when they were recorded). */
  async list(owner: Owner, filter: PaymentFilter, page: { limit: number; after?: Cursor; maxBytes: number }): Promise<SerializedPage> {
    let query = this.select(owner);
    if (filter.invoiceId !== undefined) query = query.where('payments.invoice_id', '=', filter.invoiceId);
    if (filter.kind !== undefined) query = query.where('payments.kind', '=', filter.kind);
    if (filter.dateFrom !== undefined) query = query.where('payments.date', '>=', filter.dateFrom);
    if (filter.dateTo !== undefined) query = query.where('payments.date', '<=', filter.dateTo);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('payments.created_at', '<', after.createdAt), eb.and([eb('payments.created_at', '=', after.createdAt), eb('payments.id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('payments.created_at', 'desc').orderBy('payments.id', 'desc').limit(page.limit + 1).execute();
    const budget = new PageBudget<PaymentRecord>(page.maxBytes);
    for (const row of rows.slice(0, page.limit)) if (!budget.offer(recordOf(row))) break;
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
