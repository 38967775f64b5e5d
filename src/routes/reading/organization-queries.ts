import type { OrganizationFilter, OrganizationRepository } from '../../repositories/organization-repository.js';
import { organizationFromRow, type Organization } from '../../services/organization-service.js';
import type { Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

export type { OrganizationFilter };

/** Read side of organizations: the repository's rows as the API shows them. */
export class OrganizationQueries {
  constructor(private readonly organizations: OrganizationRepository) {}

  async findById(owner: Owner, id: string): Promise<Organization | undefined> {
    const row = await this.organizations.findById(owner, id);
    return row ? organizationFromRow(row) : undefined;
  }

  async list(
    owner: Owner,
    filter: OrganizationFilter,
    page: { limit: number; after?: Cursor; maxBytes: number },
  ): Promise<SerializedPage> {
    const rows = await this.organizations.page(
      owner,
      filter,
      page.after ? { limit: page.limit, after: page.after } : { limit: page.limit },
    );
    const budget = new PageBudget<Organization>(page.maxBytes);
    for (const row of rows.slice(0, page.limit)) if (!budget.offer(organizationFromRow(row))) break;
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
