import type { Kysely } from 'kysely';
import type { Database, PaymentKind, PaymentsTable } from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';
import type { Cursor } from './keyset.js';

export interface PaymentFilter {
  invoiceId?: string;
  kind?: PaymentKind;
  /** YYYY-MM-DD, inclusive: the day the money moved. */
  dateFrom?: string;
  /** YYYY-MM-DD, inclusive. */
  dateTo?: string;
}

/** A payment or refund with the number and currency of its invoice. */
export type PaymentWithInvoice = PaymentsTable & { invoice_number: string | null; currency: string };

/** Payments and refunds read back; every query is scoped by company and mode, on both tables it reads. (They are written with their invoice: InvoiceRepository.) */
export class PaymentRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private select(owner: Owner) {
    const livemode = modeColumn(owner);
    return this.db
      .selectFrom('payments')
      .innerJoin('invoices', (join) =>
        join
          .onRef('invoices.id', '=', 'payments.invoice_id')
          .on('invoices.company_id', '=', owner.companyId)
          .on('invoices.livemode', '=', livemode),
      )
      .selectAll('payments')
      .select(['invoices.number as invoice_number', 'invoices.currency'])
      .where('payments.company_id', '=', owner.companyId)
      .where('payments.livemode', '=', livemode);
  }

  async findById(owner: Owner, id: string): Promise<PaymentWithInvoice | undefined> {
    return this.select(owner).where('payments.id', '=', id).executeTakeFirst();
  }

  /** Up to `limit + 1` payments and refunds after the cursor, newest first by when they were recorded. */
  async page(
    owner: Owner,
    filter: PaymentFilter,
    page: { limit: number; after?: Cursor },
  ): Promise<PaymentWithInvoice[]> {
    let query = this.select(owner);
    if (filter.invoiceId !== undefined) query = query.where('payments.invoice_id', '=', filter.invoiceId);
    if (filter.kind !== undefined) query = query.where('payments.kind', '=', filter.kind);
    if (filter.dateFrom !== undefined) query = query.where('payments.date', '>=', filter.dateFrom);
    if (filter.dateTo !== undefined) query = query.where('payments.date', '<=', filter.dateTo);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('payments.created_at', '<', after.createdAt),
          eb.and([eb('payments.created_at', '=', after.createdAt), eb('payments.id', '<', after.id)]),
        ]),
      );
    }
    return query
      .orderBy('payments.created_at', 'desc')
      .orderBy('payments.id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }
}
