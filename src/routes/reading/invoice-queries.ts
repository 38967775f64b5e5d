import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { InvoiceRepository, type InvoiceLineRow, type InvoiceRow } from '../../repositories/invoice-repository.js';
import type { Invoice, InvoiceStatus } from '../../schemas/invoice.js';
import { todayUtc } from '../../services/invoice-input.js';
import { invoiceFromRows } from '../../services/invoice-mapping.js';
import type { InvoiceService } from '../../services/invoice-service.js';
import { buyerOf, sellerOf, type Buyer, type Seller } from '../../services/parties.js';
import { modeColumn, type Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, numberStartsWith, type Cursor, type SerializedPage } from './pagination.js';

/** Invoices whose lines are loaded by the first query while a page fills, and at most by one query. */
const FIRST_CHUNK = 1;
const MAX_CHUNK = 25;

export interface InvoiceFilter {
  organizationId?: string;
  /** The start of the number, exactly (case-sensitive): "2026-0" finds 2026-00001 … 2026-09999. */
  number?: string;
  /** YYYY-MM-DD, inclusive. */
  issueDateFrom?: string;
  /** YYYY-MM-DD, inclusive. */
  issueDateTo?: string;
  status?: InvoiceStatus;
  /** Issued, with an amount due, past its due date (an issued invoice always has an amount due). */
  overdue?: boolean;
}

/**
 * Read side of invoices; every query is scoped by company and mode. Rows become the API's invoice through
 * the same mapping POST /invoice answers with, so what is read back equals what was returned.
 */
export class InvoiceQueries {
  private readonly invoices: InvoiceRepository;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly service: InvoiceService,
  ) {
    this.invoices = new InvoiceRepository(db);
  }

  findById(owner: Owner, id: string): Promise<Invoice | undefined> {
    return this.service.get(owner, id);
  }

  /**
   * A page of invoices, newest first, within `maxBytes`: lines (and payments, credit notes) are
   * loaded a few invoices at a time and the page ends before the invoice that would pass the
   * budget, so memory stays bounded however large the invoices are.
   */
  async list(
    owner: Owner,
    filter: InvoiceFilter,
    page: { limit: number; after?: Cursor; maxBytes: number },
    now: Date = new Date(),
  ): Promise<SerializedPage> {
    const { companyId } = owner;
    let query = this.db.selectFrom('invoices').selectAll().where('company_id', '=', companyId).where('livemode', '=', modeColumn(owner));
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    if (filter.number !== undefined) query = query.where(numberStartsWith(filter.number));
    if (filter.issueDateFrom !== undefined) query = query.where('issue_date', '>=', filter.issueDateFrom);
    if (filter.issueDateTo !== undefined) query = query.where('issue_date', '<=', filter.issueDateTo);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const today = todayUtc(now);
    if (filter.overdue === true) query = query.where('status', '=', 'issued').where('due_date', '<', today);
    if (filter.overdue === false) query = query.where((eb) => eb.or([eb('status', '!=', 'issued'), eb('due_date', '>=', today)]));
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const candidates = rows.slice(0, page.limit);
    const budget = new PageBudget<Invoice>(page.maxBytes);
    let start = 0;
    while (start < candidates.length && !budget.full) {
      // Load as many invoices' lines as the rest of the budget is likely to take, judged by the
      // invoices taken so far: large invoices are loaded one or two at a time, small ones in bulk.
      const size = budget.count === 0 ? FIRST_CHUNK : Math.min(MAX_CHUNK, Math.max(1, Math.ceil(budget.remaining / budget.averageItemBytes)));
      const chunk = candidates.slice(start, start + size);
      // Other requests get a turn between chunks: on SQLite nothing here waits for real I/O.
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      start += chunk.length;
      const ids = chunk.map((row) => row.id);
      const [linesOf, payments, creditNotes] = await Promise.all([
        this.linesOf(companyId, ids),
        this.invoices.paymentsOf(owner, ids),
        this.invoices.creditNoteIdsOf(owner, ids),
      ]);
      const current = await this.currentPartiesOf(owner, chunk);
      for (const row of chunk) {
        const invoice = invoiceFromRows(row, linesOf.get(row.id) ?? [], {
          payments: payments.get(row.id) ?? [],
          creditNoteIds: creditNotes.get(row.id) ?? [],
          ...(row.status === 'draft' ? { current: current.get(row.organization_id)! } : {}),
          today,
        });
        if (!budget.offer(invoice)) break;
      }
    }
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }

  /** The current buyer (by organization) and seller of the drafts among `rows`. */
  private async currentPartiesOf(owner: Owner, rows: InvoiceRow[]): Promise<Map<string, { buyer: Buyer; seller: Seller }>> {
    const organizationIds = [...new Set(rows.filter((row) => row.status === 'draft').map((row) => row.organization_id))];
    const parties = new Map<string, { buyer: Buyer; seller: Seller }>();
    if (organizationIds.length === 0) return parties;
    const [organizations, company] = await Promise.all([
      this.db
        .selectFrom('organizations')
        .selectAll()
        .where('company_id', '=', owner.companyId)
        .where('livemode', '=', modeColumn(owner))
        .where('id', 'in', organizationIds)
        .execute(),
      this.db.selectFrom('companies').selectAll().where('id', '=', owner.companyId).executeTakeFirstOrThrow(),
    ]);
    for (const organization of organizations) parties.set(organization.id, { buyer: buyerOf(organization), seller: sellerOf(company) });
    return parties;
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
