import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { OrganizationRow } from '../../repositories/organization-repository.js';
import { organizationFromRow, type Organization } from '../../services/organization-service.js';
import { modeColumn, type Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

export interface OrganizationFilter {
  /** Prefix of the name, compared like names are for uniqueness (NFC, case-folded). */
  namePrefix?: string;
  isCustomer?: boolean;
  isSupplier?: boolean;
  /** true: only archived ones; false: only the others. */
  archived?: boolean;
}

/** The name folded as organizationNameKey folds it, without trimming the end (a prefix may end in a space). */
function foldedPrefix(prefix: string): string {
  return prefix.trimStart().normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Read side of organizations; every query is scoped by company and mode. */
export class OrganizationQueries {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(owner: Owner, id: string): Promise<Organization | undefined> {
    const row = await this.db
      .selectFrom('organizations')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? organizationFromRow(row) : undefined;
  }

  async list(
    owner: Owner,
    filter: OrganizationFilter,
    page: { limit: number; after?: Cursor; maxBytes: number },
  ): Promise<SerializedPage> {
    let query = this.db.selectFrom('organizations').selectAll().where('company_id', '=', owner.companyId).where('livemode', '=', modeColumn(owner));
    if (filter.namePrefix !== undefined) {
      // SQLite's LIKE has no escape character unless one is named; PostgreSQL's is the same one.
      const pattern = `${escapeLike(foldedPrefix(filter.namePrefix))}%`;
      query = query.where(sql<boolean>`name_key like ${pattern} escape '\\'`);
    }
    if (filter.isCustomer !== undefined) query = query.where('is_customer', '=', filter.isCustomer ? 1 : 0);
    if (filter.isSupplier !== undefined) query = query.where('is_supplier', '=', filter.isSupplier ? 1 : 0);
    if (filter.archived !== undefined) query = query.where('archived_at', filter.archived ? 'is not' : 'is', null);
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows: OrganizationRow[] = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const budget = new PageBudget<Organization>(page.maxBytes);
    for (const row of rows.slice(0, page.limit)) if (!budget.offer(organizationFromRow(row))) break;
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
