import { sql, type Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import { CreditNoteRepository } from '../repositories/credit-note-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import type { CreditNote } from '../schemas/credit-note.js';
import type { Invoice } from '../schemas/invoice.js';
import { creditNoteFromRows } from '../services/credit-note-mapping.js';
import { todayUtc } from '../services/invoice-input.js';
import type { InvoiceService } from '../services/invoice-service.js';
import { organizationNameKey } from '../services/organization-rules.js';
import { CREDIT_NOTE_COLUMNS, creditNoteItem, INVOICE_COLUMNS, invoiceItem, type CreditNoteListItem, type InvoiceListItem } from './record-items.js';
import { modeColumn, type Owner } from '../db/scope.js';

// Read-only queries behind the panel's record pages. Every query is scoped by company.

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

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function pageNumber(raw: string | undefined): number {
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

/** The page actually shown (a page past the end shows the last one) and where it starts. */
function pageWindow(count: string | number, requested: number) {
  const total = Number(count);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(requested, pages);
  return { total, pages, page, offset: (page - 1) * PAGE_SIZE };
}

/** A supplier as the inbox's filter offers it. */
export interface SupplierChoice {
  id: string;
  name: string;
}

export class PanelRecords {
  private readonly creditNoteRows: CreditNoteRepository;

  /** The company's suppliers by name (at most `limit`), for the inbox's supplier filter. */
  async suppliers(owner: Owner, limit: number): Promise<SupplierChoice[]> {
    return this.db
      .selectFrom('organizations')
      .select(['id', 'name'])
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('is_supplier', '=', 1)
      .orderBy('name_key')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  constructor(
    private readonly db: Kysely<Database>,
    private readonly invoiceService: InvoiceService,
    private readonly organizationRows: OrganizationRepository,
  ) {
    this.creditNoteRows = new CreditNoteRepository(db);
  }

  async organizations(owner: Owner, search: string, page: number): Promise<Page<OrganizationsTable>> {
    let query = this.db.selectFrom('organizations').where('company_id', '=', owner.companyId).where('livemode', '=', modeColumn(owner));
    const key = organizationNameKey(search);
    if (key !== '') query = query.where(sql<boolean>`name_key like ${containsPattern(key)} escape '\\'`);
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const w = pageWindow(n, page);
    const items = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(PAGE_SIZE).offset(w.offset).execute();
    return { items, page: w.page, pages: w.pages, total: w.total };
  }

  async organization(owner: Owner, id: string): Promise<OrganizationsTable | undefined> {
    return this.organizationRows.findById(owner, id);
  }

  /** Invoices newest first: searchable by number or by the buyer's current name, or one buyer's. */
  async invoices(owner: Owner, filter: InvoiceFilter, page: number, now: Date = new Date()): Promise<Page<InvoiceListItem>> {
    let query = this.db
      .selectFrom('invoices')
      .leftJoin('organizations', (join) =>
        join.onRef('organizations.id', '=', 'invoices.organization_id').on('organizations.company_id', '=', owner.companyId),
      )
      .where('invoices.company_id', '=', owner.companyId)
      .where('invoices.livemode', '=', modeColumn(owner));
    if (filter.organizationId !== undefined) query = query.where('invoices.organization_id', '=', filter.organizationId);
    if (filter.search) {
      const numberPattern = containsPattern(filter.search.toLowerCase());
      const namePattern = containsPattern(organizationNameKey(filter.search));
      query = query.where(
        sql<boolean>`(lower(invoices.number) like ${numberPattern} escape '\\' or organizations.name_key like ${namePattern} escape '\\')`,
      );
    }
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const w = pageWindow(n, page);
    const rows = await query
      .select([...INVOICE_COLUMNS, 'organizations.name as organization_name'])
      .orderBy('invoices.created_at', 'desc')
      .orderBy('invoices.id', 'desc')
      .limit(PAGE_SIZE)
      .offset(w.offset)
      .execute();
    const today = todayUtc(now);
    return { items: rows.map((r) => invoiceItem(r, today)), page: w.page, pages: w.pages, total: w.total };
  }

  async invoice(owner: Owner, id: string): Promise<Invoice | undefined> {
    return this.invoiceService.get(owner, id);
  }

  /** Credit notes newest first, searchable by their number or the credited invoice's. */
  async creditNotes(owner: Owner, search: string, page: number): Promise<Page<CreditNoteListItem>> {
    let query = this.db.selectFrom('credit_notes').where('company_id', '=', owner.companyId).where('livemode', '=', modeColumn(owner));
    if (search !== '') {
      const pattern = containsPattern(search.toLowerCase());
      query = query.where(sql<boolean>`(lower(number) like ${pattern} escape '\\' or lower(invoice_number) like ${pattern} escape '\\')`);
    }
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const w = pageWindow(n, page);
    const rows = await query.select(CREDIT_NOTE_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(PAGE_SIZE).offset(w.offset).execute();
    return { items: rows.map(creditNoteItem), page: w.page, pages: w.pages, total: w.total };
  }

  /** The credit notes of one invoice, oldest first (the order of the invoice's creditNoteIds). */
  async creditNotesOf(owner: Owner, invoiceId: string): Promise<CreditNoteListItem[]> {
    const rows = await this.db
      .selectFrom('credit_notes')
      .select(CREDIT_NOTE_COLUMNS)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(creditNoteItem);
  }

  async creditNote(owner: Owner, id: string): Promise<CreditNote | undefined> {
    const found = await this.creditNoteRows.findById(owner, id);
    return found ? creditNoteFromRows(found.creditNote, found.lines) : undefined;
  }
}
