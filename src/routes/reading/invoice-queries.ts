import type { CompanyRepository } from '../../repositories/company-repository.js';
import type { InvoiceRepository, InvoiceRow } from '../../repositories/invoice-repository.js';
import type { OrganizationRepository } from '../../repositories/organization-repository.js';
import type { Invoice, InvoiceStatus } from '../../schemas/invoice.js';
import { todayUtc } from '../../services/invoice-input.js';
import { invoiceFromRows } from '../../services/invoice-mapping.js';
import type { InvoiceService } from '../../services/invoice-service.js';
import { buyerOf, sellerOf, type Buyer, type Seller } from '../../services/parties.js';
import type { Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

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
 * Read side of invoices, through the repositories (every query scoped by company and mode). Rows become the API's invoice through
 * the same mapping POST /invoice answers with, so what is read back equals what was returned.
 */
export class InvoiceQueries {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly organizations: OrganizationRepository,
    private readonly companies: CompanyRepository,
    private readonly service: InvoiceService,
  ) {}

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
    const today = todayUtc(now);
    const { overdue, ...rest } = filter;
    const rows = await this.invoices.page(
      owner,
      { ...rest, ...(overdue === undefined ? {} : { overdue: { is: overdue, today } }) },
      page.after ? { limit: page.limit, after: page.after } : { limit: page.limit },
    );
    const candidates = rows.slice(0, page.limit);
    const budget = new PageBudget<Invoice>(page.maxBytes);
    let start = 0;
    while (start < candidates.length && !budget.full) {
      // Load as many invoices' lines as the rest of the budget is likely to take, judged by the
      // invoices taken so far: large invoices are loaded one or two at a time, small ones in bulk.
      const size =
        budget.count === 0
          ? FIRST_CHUNK
          : Math.min(MAX_CHUNK, Math.max(1, Math.ceil(budget.remaining / budget.averageItemBytes)));
      const chunk = candidates.slice(start, start + size);
      // Other requests get a turn between chunks: on SQLite nothing here waits for real I/O.
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      start += chunk.length;
      const ids = chunk.map((row) => row.id);
      const [linesOf, payments, creditNotes] = await Promise.all([
        this.invoices.linesOf(companyId, ids),
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
  private async currentPartiesOf(
    owner: Owner,
    rows: InvoiceRow[],
  ): Promise<Map<string, { buyer: Buyer; seller: Seller }>> {
    const organizationIds = [
      ...new Set(rows.filter((row) => row.status === 'draft').map((row) => row.organization_id)),
    ];
    const parties = new Map<string, { buyer: Buyer; seller: Seller }>();
    if (organizationIds.length === 0) return parties;
    const [organizations, company] = await Promise.all([
      this.organizations.findByIds(owner, organizationIds),
      this.companies.findById(owner.companyId),
    ]);
    if (!company) throw new Error(`company ${owner.companyId} not found`);
    for (const organization of organizations)
      parties.set(organization.id, { buyer: buyerOf(organization), seller: sellerOf(company) });
    return parties;
  }
}
