import { sql, type Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
import type { Invoice } from '../schemas/invoice.js';
import { amountDueOf } from '../services/invoice-mapping.js';
import type { InvoiceService } from '../services/invoice-service.js';
import { organizationNameKey } from '../services/organization-rules.js';

// Read-only queries behind the panel's record pages. Every query is scoped by company.

export const PAGE_SIZE = 20;

export interface Page<T> {
  items: T[];
  page: number;
  pages: number;
  total: number;
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function pageNumber(raw: string | undefined): number {
  const n = raw && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return Math.max(1, n);
}

export class PanelRecords {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly invoiceService: InvoiceService,
  ) {}

  async organizations(companyId: string, search: string, page: number): Promise<Page<OrganizationsTable>> {
    let query = this.db.selectFrom('organizations').where('company_id', '=', companyId);
    const key = organizationNameKey(search);
    if (key !== '') query = query.where(sql<boolean>`name_key like ${containsPattern(key)} escape '\\'`);
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const current = Math.min(page, pages);
    const items = await query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(PAGE_SIZE)
      .offset((current - 1) * PAGE_SIZE)
      .execute();
    return { items, page: current, pages, total };
  }

  /** Invoices newest first, searchable by number or by the buyer's current name. */
  async invoices(companyId: string, search: string, page: number): Promise<Page<InvoiceListItem>> {
    let query = this.db
      .selectFrom('invoices')
      .leftJoin('organizations', (join) =>
        join.onRef('organizations.id', '=', 'invoices.organization_id').on('organizations.company_id', '=', companyId),
      )
      .where('invoices.company_id', '=', companyId);
    if (search !== '') {
      const numberPattern = containsPattern(search.toLowerCase());
      const namePattern = containsPattern(organizationNameKey(search));
      query = query.where(
        sql<boolean>`(lower(invoices.number) like ${numberPattern} escape '\\' or organizations.name_key like ${namePattern} escape '\\')`,
      );
    }
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
    const current = Math.min(page, pages);
    const rows = await query
      .select([
        'invoices.id',
        'invoices.number',
        'invoices.status',
        'invoices.issue_date',
        'invoices.due_date',
        'invoices.currency',
        'invoices.payable',
        'invoices.buyer_snapshot',
        'invoices.created_at',
        'invoices.amount_paid',
        'invoices.amount_credited',
        'organizations.name as organization_name',
      ])
      .orderBy('invoices.created_at', 'desc')
      .orderBy('invoices.id', 'desc')
      .limit(PAGE_SIZE)
      .offset((current - 1) * PAGE_SIZE)
      .execute();
    const items = rows.map((r) => ({
      id: r.id,
      number: r.number,
      status: r.status,
      issueDate: r.issue_date,
      dueDate: r.due_date,
      currency: r.currency,
      payable: r.payable,
      // A draft has no snapshot yet: it shows the organization as it is now.
      buyerName: r.buyer_snapshot === null ? (r.organization_name ?? '') : ((JSON.parse(r.buyer_snapshot) as { name?: string }).name ?? ''),
      amountDue: amountDueOf(r).toFixed(),
      createdAt: r.created_at,
    }));
    return { items, page: current, pages, total };
  }

  async invoice(companyId: string, id: string): Promise<Invoice | undefined> {
    return this.invoiceService.get(companyId, id);
  }
}

export interface InvoiceListItem {
  id: string;
  /** Null for a draft. */
  number: string | null;
  status: string;
  issueDate: string | null;
  dueDate: string | null;
  /** payable − credited − paid, plain decimal. */
  amountDue: string;
  currency: string;
  payable: string;
  buyerName: string;
  createdAt: string;
}
