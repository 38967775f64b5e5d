import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { InvoiceRepository, type InvoiceLineRow } from '../../repositories/invoice-repository.js';
import type { Invoice } from '../invoice-schemas.js';
import { invoiceFromRows } from '../../services/invoice-mapping.js';
import { PageBudget, cursorAfter, type Cursor } from './pagination.js';

/** Invoices whose lines are loaded per query while a page fills. */
const LINES_CHUNK = 10;

export interface InvoiceFilter {
  organizationId?: string;
  number?: string;
  /** YYYY-MM-DD, inclusive. */
  issueDateFrom?: string;
  /** YYYY-MM-DD, inclusive. */
  issueDateTo?: string;
}

/**
 * Read side of invoices; every query is scoped by company. Rows become the API's invoice through
 * the same mapping POST /invoice answers with, so what is read back equals what was returned.
 */
export class InvoiceQueries {
  private readonly invoices: InvoiceRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.invoices = new InvoiceRepository(db);
  }

  async findById(companyId: string, id: string): Promise<Invoice | undefined> {
    const found = await this.invoices.findById(companyId, id);
    return found ? invoiceFromRows(found.invoice, found.lines) : undefined;
  }

  /**
   * A page of invoices, newest first, within `maxBytes`: lines are loaded a few invoices at a
   * time and the page ends before the invoice that would pass the budget, so memory stays
   * bounded however large the invoices are.
   */
  async list(
    companyId: string,
    filter: InvoiceFilter,
    page: { limit: number; after?: Cursor; maxBytes: number },
  ): Promise<{ items: Invoice[]; nextCursor: string | null }> {
    let query = this.db.selectFrom('invoices').selectAll().where('company_id', '=', companyId);
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    if (filter.number !== undefined) query = query.where('number', '=', filter.number);
    if (filter.issueDateFrom !== undefined) query = query.where('issue_date', '>=', filter.issueDateFrom);
    if (filter.issueDateTo !== undefined) query = query.where('issue_date', '<=', filter.issueDateTo);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const candidates = rows.slice(0, page.limit);
    const budget = new PageBudget<Invoice>(page.maxBytes);
    for (let start = 0; start < candidates.length && !budget.full; start += LINES_CHUNK) {
      const chunk = candidates.slice(start, start + LINES_CHUNK);
      const linesOf = await this.linesOf(companyId, chunk.map((row) => row.id));
      for (const row of chunk) if (!budget.offer(invoiceFromRows(row, linesOf.get(row.id) ?? []))) break;
    }
    return { items: budget.items, nextCursor: cursorAfter(rows, budget.items.length, page.limit) };
  }

  private async linesOf(companyId: string, invoiceIds: string[]): Promise<Map<string, InvoiceLineRow[]>> {
    const lines = await this.db
      .selectFrom('invoice_lines')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('position')
      .execute();
    const linesOf = new Map<string, InvoiceLineRow[]>();
    for (const line of lines) {
      const list = linesOf.get(line.invoice_id);
      if (list) list.push(line);
      else linesOf.set(line.invoice_id, [line]);
    }
    return linesOf;
  }
}
