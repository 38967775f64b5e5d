import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../db/dialect.js';
import type { Database, UserRole, UsersTable } from '../db/schema.js';

export type UserRow = UsersTable;

/** What a role or activity change writes. */
export interface UserPatch {
  role?: UserRole;
  active?: number;
}

/**
 * Panel accounts. A user belongs to one company; lookups by id or email serve sign-in and the
 * operator's CLI, which act before a company is known. Each method accepts a transaction.
 */
export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** How many accounts the instance has (none: it is unclaimed, the first-run setup is open). */
  async count(trx: Kysely<Database> = this.db): Promise<number> {
    const row = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Inserts the account; false when its email is taken (emails are unique across the instance). */
  async insert(row: UserRow, trx: Kysely<Database> = this.db): Promise<boolean> {
    try {
      await trx.insertInto('users').values(row).execute();
      return true;
    } catch (error) {
      // On PostgreSQL the transaction is now aborted: the caller refuses and rolls it back.
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findById(id: string, trx: Kysely<Database> = this.db): Promise<UserRow | undefined> {
    return trx.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The company's account with this id, or undefined (an id of another company is not found). */
  async findInCompany(companyId: string, id: string, trx: Kysely<Database> = this.db): Promise<UserRow | undefined> {
    return trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .where('company_id', '=', companyId)
      .executeTakeFirst();
  }

  /** The account with this (normalized) email, or undefined. */
  async findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  /** The company's accounts, oldest first. */
  async listByCompany(companyId: string): Promise<UserRow[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('company_id', '=', companyId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Every account of the instance, by company then age: for the operator. */
  async listAll(): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('company_id').orderBy('created_at').orderBy('id').execute();
  }

  /** Emails of the company's accounts by id. */
  async emailsById(companyId: string): Promise<Map<string, string>> {
    const rows = await this.db
      .selectFrom('users')
      .select(['id', 'email'])
      .where('company_id', '=', companyId)
      .execute();
    return new Map(rows.map((r) => [r.id, r.email]));
  }

  /** Sets the password hash and whether it must be changed at the next sign-in. */
  async setPassword(id: string, hash: string, mustChange: boolean, trx: Kysely<Database> = this.db): Promise<void> {
    await trx
      .updateTable('users')
      .set({ password_hash: hash, must_change_password: mustChange ? 1 : 0 })
      .where('id', '=', id)
      .execute();
  }

  /** Sets the user's own password only while a change is still required; false when it no longer was (two tabs racing change it once). */
  async replaceRequiredPassword(id: string, hash: string, trx: Kysely<Database> = this.db): Promise<boolean> {
    const changed = await trx
      .updateTable('users')
      .set({ password_hash: hash, must_change_password: 0 })
      .where('id', '=', id)
      .where('must_change_password', '=', 1)
      .executeTakeFirst();
    return Number(changed.numUpdatedRows) > 0;
  }

  /** The company's active owners. */
  async countActiveOwners(companyId: string, trx: Kysely<Database> = this.db): Promise<number> {
    const owners = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('company_id', '=', companyId)
      .where('role', '=', 'owner')
      .where('active', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(owners.n);
  }

  async update(id: string, patch: UserPatch, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.updateTable('users').set(patch).where('id', '=', id).execute();
  }
}
