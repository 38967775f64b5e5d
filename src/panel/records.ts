import type { OrganizationsTable } from '../db/schema.js';
import type { CreditNoteRepository } from '../repositories/credit-note-repository.js';
import type { InvoiceRepository } from '../repositories/invoice-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import type { CreditNote } from '../schemas/credit-note.js';
import type { Invoice } from '../schemas/invoice.js';
import { creditNoteFromRows } from '../services/credit-note-mapping.js';
import { todayUtc } from '../services/invoice-input.js';
import type { InvoiceService } from '../services/invoice-service.js';
import { organizationNameKey } from '../services/organization-rules.js';
import { creditNoteItem, invoiceItem, type CreditNoteListItem, type InvoiceListItem } from './record-items.js';
import type { Owner } from '../db/scope.js';

// What the panel's record pages read, through the repositories (every query scoped by company).

export type { CreditNoteListItem, InvoiceListItem };

export const PAGE_SIZE = 20;

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

/** Which invoices a list shows: a search by number or buyer name, or one buyer's. */
export interface InvoiceFilter {
  search?: string;
  organizationId?: string;
}

export function pageNumber(raw: string | undefined): number {
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

/** The page actually shown (a page past the end shows the last one) and where it starts. */
function pageWindow(total: number, requested: number) {
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(requested, pages);
  return { pages, page, offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE };
}

/** A counted page of rows as the panel shows it, the requested page clamped to the last one. */
async function pageOf<R, T>(
  requested: number,
  read: (at: (total: number) => { offset: number; limit: number }) => Promise<{ total: number; rows: R[] }>,
  item: (row: R) => T,
): Promise<Page<T>> {
  const { total, rows } = await read((count) => pageWindow(count, requested));
  const w = pageWindow(total, requested);
  return { items: rows.map(item), page: w.page, pages: w.pages, total };
}

/** A supplier as the inbox's filter offers it. */
export interface SupplierChoice {
  id: string;
  name: string;
}

export class PanelRecords {
  constructor(
    private readonly invoiceService: InvoiceService,
    private readonly organizationRows: OrganizationRepository,
    private readonly invoiceRows: InvoiceRepository,
    private readonly creditNoteRows: CreditNoteRepository,
  ) {}

  async organizations(owner: Owner, search: string, page: number): Promise<Page<OrganizationsTable>> {
    return pageOf(
      page,
      (at) => this.organizationRows.searchByNameKey(owner, organizationNameKey(search), at),
      (row) => row,
    );
  }

  /** The company's suppliers by name (at most `limit`), for the inbox's supplier filter. */
  async suppliers(owner: Owner, limit: number): Promise<SupplierChoice[]> {
    return this.organizationRows.suppliersByName(owner, limit);
  }

  async organization(owner: Owner, id: string): Promise<OrganizationsTable | undefined> {
    return this.organizationRows.findById(owner, id);
  }

  /** Invoices newest first: searchable by number or by the buyer's current name, or one buyer's. */
  async invoices(
    owner: Owner,
    filter: InvoiceFilter,
    page: number,
    now: Date = new Date(),
  ): Promise<Page<InvoiceListItem>> {
    const today = todayUtc(now);
    const rowFilter = {
      ...(filter.organizationId !== undefined ? { organizationId: filter.organizationId } : {}),
      ...(filter.search
        ? { search: { number: filter.search.toLowerCase(), nameKey: organizationNameKey(filter.search) } }
        : {}),
    };
    return pageOf(
      page,
      (at) => this.invoiceRows.searchListRows(owner, rowFilter, at),
      (row) => invoiceItem(row, today),
    );
  }

  async invoice(owner: Owner, id: string): Promise<Invoice | undefined> {
    return this.invoiceService.get(owner, id);
  }

  /** Credit notes newest first, searchable by their number or the credited invoice's. */
  async creditNotes(owner: Owner, search: string, page: number): Promise<Page<CreditNoteListItem>> {
    return pageOf(page, (at) => this.creditNoteRows.searchListRows(owner, search.toLowerCase(), at), creditNoteItem);
  }

  /** The credit notes of one invoice, oldest first (the order of the invoice's creditNoteIds). */
  async creditNotesOf(owner: Owner, invoiceId: string): Promise<CreditNoteListItem[]> {
    return (await this.creditNoteRows.listRowsOfInvoice(owner, invoiceId)).map(creditNoteItem);
  }

  async creditNote(owner: Owner, id: string): Promise<CreditNote | undefined> {
    const found = await this.creditNoteRows.findById(owner, id);
    return found ? creditNoteFromRows(found.creditNote, found.lines) : undefined;
  }
}
