import { sql, type Kysely } from 'kysely';
import type { CompaniesTable, Database, OrganizationsTable } from '../db/schema.js';
import { isUniqueViolation } from '../db/dialect.js';
import { prepareQuery } from '../db/prepared-query.js';
import { modeColumn, type Owner } from '../db/scope.js';
import { columnsOf } from './invoice-answer-rows.js';
import { afterCursor, type Cursor } from './keyset.js';
import { containsPattern, like, type CountedPage, type PageAt } from './search.js';

export type OrganizationRow = OrganizationsTable;

/** An identifier as it is compared: without spaces, dots, dashes and slashes, upper-cased ("de 811.907-980" → "DE811907980"). */
export function identityKey(identifier: string): string {
  return identifier.replace(/[ .\-/]/g, '').toUpperCase();
}

/**
 * The same key computed by the database, in exactly the form migration 0016 indexes (an
 * expression index is used only for the very expression it was made of). ASCII upper-casing is
 * the same on both databases; identifiers are ASCII.
 */
const keyOf = (column: 'vat_id' | 'electronic_address_id' | 'legal_registration_id') =>
  sql<string>`upper(replace(replace(replace(replace(${sql.ref(column)}, ' ', ''), '.', ''), '-', ''), '/', ''))`;

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

/** Every column of an organization, for a read that selects it beside another table's row. */
const ORGANIZATION_COLUMNS = columnsOf<OrganizationsTable>({
  id: true,
  company_id: true,
  livemode: true,
  name: true,
  name_key: true,
  type_code: true,
  first_name: true,
  last_name: true,
  is_customer: true,
  is_supplier: true,
  email: true,
  phone: true,
  vat_id: true,
  tax_number: true,
  address_line1: true,
  address_line2: true,
  address_city: true,
  address_postal_code: true,
  address_country_code: true,
  archived_at: true,
  created_at: true,
  updated_at: true,
  electronic_address_scheme: true,
  electronic_address_id: true,
  legal_registration_id: true,
});

/** The prefix of an organization's columns in a row of `selectWithCompany`. */
const ORGANIZATION_PREFIX = 'organization:';

export type UpdateOrganizationResult = { ok: true } | { ok: false; reason: 'name_conflict' | 'not_found' };

export class OrganizationRepository {
  private readonly selectById;
  private readonly selectWithCompany;

  constructor(private readonly db: Kysely<Database>) {
    this.selectById = prepareQuery<{ companyId: string; livemode: number; id: string }, OrganizationRow>(
      db,
      (d, param) =>
        d
          .selectFrom('organizations')
          .selectAll()
          .where('company_id', '=', param('companyId'))
          .where('livemode', '=', param('livemode'))
          .where('id', '=', param('id')),
    );
    // The company and one of its organizations, one row (the organization's columns prefixed,
    // all null when it has none of that id): two reads that a write needs first, in one round trip.
    this.selectWithCompany = prepareQuery<{ companyId: string; livemode: number; id: string }, Record<string, unknown>>(
      db,
      (d, param) =>
        d
          .selectFrom('companies as c')
          .leftJoin('organizations as o', (join) =>
            join
              .onRef('o.company_id', '=', 'c.id')
              .on('o.livemode', '=', param('livemode'))
              .on('o.id', '=', param('id')),
          )
          .selectAll('c')
          .select(ORGANIZATION_COLUMNS.map((column) => sql.ref(`o.${column}`).as(`${ORGANIZATION_PREFIX}${column}`)))
          .where('c.id', '=', param('companyId')),
    );
  }

  /**
   * The owner's company and its organization `id` (of the owner's mode), in one statement: the
   * company is undefined when it does not exist, the organization when the company has none of
   * that id (or one of the other mode).
   */
  async findWithCompany(
    owner: Owner,
    id: string,
    trx: Kysely<Database> = this.db,
  ): Promise<{ company: CompaniesTable | undefined; organization: OrganizationRow | undefined }> {
    const row = (await this.selectWithCompany({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx))
      .rows[0];
    if (!row) return { company: undefined, organization: undefined };
    const company: Record<string, unknown> = {};
    const organization: Record<string, unknown> = {};
    for (const [column, value] of Object.entries(row)) {
      if (column.startsWith(ORGANIZATION_PREFIX)) organization[column.slice(ORGANIZATION_PREFIX.length)] = value;
      else company[column] = value;
    }
    return {
      company: company as unknown as CompaniesTable,
      organization: organization.id == null ? undefined : (organization as unknown as OrganizationRow),
    };
  }

  /** Writes the row's content; the unique index on (company_id, livemode, name_key) decides a rename's conflict. */
  async update(row: OrganizationRow, trx: Kysely<Database> = this.db): Promise<UpdateOrganizationResult> {
    const { id, company_id: companyId, livemode, created_at: _created, ...columns } = row;
    try {
      const result = await trx
        .updateTable('organizations')
        .set(columns)
        .where('company_id', '=', companyId)
        .where('livemode', '=', livemode)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1 ? { ok: true } : { ok: false, reason: 'not_found' };
    } catch (error) {
      // On PostgreSQL the transaction is now aborted: the caller answers 409 and rolls it back.
      if (isUniqueViolation(error)) return { ok: false, reason: 'name_conflict' };
      throw error;
    }
  }

  async findById(owner: Owner, id: string, trx: Kysely<Database> = this.db): Promise<OrganizationRow | undefined> {
    return (await this.selectById({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx)).rows[0];
  }

  /** The owner's organizations among these ids (those of another company or mode are not found). */
  async findByIds(owner: Owner, ids: string[], trx: Kysely<Database> = this.db): Promise<OrganizationRow[]> {
    if (ids.length === 0) return [];
    return trx
      .selectFrom('organizations')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * The panel's list: organizations whose name key contains `nameKey` (all of them for ''),
   * newest first, counted, and the page `at` places in that count.
   */
  async searchByNameKey(owner: Owner, nameKey: string, at: PageAt): Promise<CountedPage<OrganizationRow>> {
    let query = this.db
      .selectFrom('organizations')
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (nameKey !== '') query = query.where(like('name_key', containsPattern(nameKey)));
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    const { offset, limit } = at(total);
    const rows = await query
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total, rows };
  }

  /** Up to `limit + 1` organizations after the cursor, newest first (the extra row says another page exists). */
  async page(
    owner: Owner,
    filter: OrganizationFilter,
    page: { limit: number; after?: Cursor },
  ): Promise<OrganizationRow[]> {
    let query = this.db
      .selectFrom('organizations')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (filter.namePrefix !== undefined) {
      // SQLite's LIKE has no escape character unless one is named; PostgreSQL's is the same one.
      const pattern = `${escapeLike(foldedPrefix(filter.namePrefix))}%`;
      query = query.where(sql<boolean>`name_key like ${pattern} escape '\\'`);
    }
    if (filter.isCustomer !== undefined) query = query.where('is_customer', '=', filter.isCustomer ? 1 : 0);
    if (filter.isSupplier !== undefined) query = query.where('is_supplier', '=', filter.isSupplier ? 1 : 0);
    if (filter.archived !== undefined) query = query.where('archived_at', filter.archived ? 'is not' : 'is', null);
    if (page.after) query = query.where(afterCursor(page.after));
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }

  // The identity lookups a received document's seller is matched by. Identifiers are compared as
  // keys (identityKey): migration 0016 indexes exactly these expressions. Several organizations
  // may share an identity: the one not archived, then the oldest.

  private identified(owner: Owner, trx: Kysely<Database>) {
    return trx
      .selectFrom('organizations')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .orderBy(sql`case when archived_at is null then 0 else 1 end`)
      .orderBy('created_at')
      .orderBy('id')
      .limit(1);
  }

  /** The organizations marked as suppliers, by name (at most `limit`): id and name only. */
  async suppliersByName(owner: Owner, limit: number): Promise<{ id: string; name: string }[]> {
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

  /** By electronic address (BT-49): its EAS scheme, and its identifier as a key. */
  async findByElectronicAddress(
    owner: Owner,
    scheme: string,
    identifier: string,
    trx: Kysely<Database> = this.db,
  ): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx)
      .where('electronic_address_scheme', '=', scheme)
      .where(keyOf('electronic_address_id'), '=', identityKey(identifier))
      .executeTakeFirst();
  }

  /** By name, as names are compared for uniqueness (organizationNameKey). */
  async findByNameKey(
    owner: Owner,
    nameKey: string,
    trx: Kysely<Database> = this.db,
  ): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx).where('name_key', '=', nameKey).executeTakeFirst();
  }

  /** By VAT id (BT-48), as a key. */
  async findByVatId(
    owner: Owner,
    vatId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<OrganizationRow | undefined> {
    return this.identified(owner, trx).where(keyOf('vat_id'), '=', identityKey(vatId)).executeTakeFirst();
  }

  /** By legal registration id (BT-47), as keys: any of the forms given ("0106:12345678" and "12345678"). */
  async findByLegalRegistrationId(
    owner: Owner,
    ids: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<OrganizationRow | undefined> {
    if (ids.length === 0) return undefined;
    return this.identified(owner, trx)
      .where(keyOf('legal_registration_id'), 'in', ids.map(identityKey))
      .executeTakeFirst();
  }
}
