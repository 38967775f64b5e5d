import { sql, type Kysely } from 'kysely';
import type { Database, OrganizationsTable } from '../db/schema.js';
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
  constructor(private readonly db: Kysely<Database>) {}

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
}
