import type { Kysely } from 'kysely';
import type { Database, UserSessionsTable, UsersTable } from '../db/schema.js';

export type SessionRow = UserSessionsTable;

/** A session found by its token, with its user's columns. */
export type SessionWithUser = Pick<
  UsersTable,
  'id' | 'company_id' | 'email' | 'role' | 'active' | 'must_change_password' | 'created_at'
> & {
  session_id: string;
  expires_at: string;
};

/** Panel sessions, found by the hash of their token (the token itself is never stored). */
export class SessionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SessionRow): Promise<void> {
    await this.db.insertInto('user_sessions').values(row).execute();
  }

  async findWithUser(tokenHash: string): Promise<SessionWithUser | undefined> {
    return this.db
      .selectFrom('user_sessions')
      .innerJoin('users', 'users.id', 'user_sessions.user_id')
      .select([
        'user_sessions.id as session_id',
        'user_sessions.expires_at',
        'users.id',
        'users.company_id',
        'users.email',
        'users.role',
        'users.active',
        'users.must_change_password',
        'users.created_at',
      ])
      .where('user_sessions.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  async deleteByTokenHash(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('token_hash', '=', tokenHash).execute();
  }

  async deleteExpired(now: string): Promise<void> {
    await this.db.deleteFrom('user_sessions').where('expires_at', '<=', now).execute();
  }

  /** Ends the user's sessions, but the one `except` names; how many ended. */
  async deleteOfUser(userId: string, except: string | null, trx: Kysely<Database> = this.db): Promise<number> {
    let query = trx.deleteFrom('user_sessions').where('user_id', '=', userId);
    if (except !== null) query = query.where('id', '!=', except);
    return Number((await query.executeTakeFirst()).numDeletedRows);
  }

  async setSealedReveal(tokenHash: string, sealed: string): Promise<void> {
    await this.db
      .updateTable('user_sessions')
      .set({ sealed_reveal: sealed })
      .where('token_hash', '=', tokenHash)
      .execute();
  }

  async sealedReveal(tokenHash: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('user_sessions')
      .select('sealed_reveal')
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row?.sealed_reveal ?? null;
  }

  /** Clears the held reveal if it is still `sealed`; false when another request took it first. */
  async clearSealedReveal(tokenHash: string, sealed: string): Promise<boolean> {
    const cleared = await this.db
      .updateTable('user_sessions')
      .set({ sealed_reveal: null })
      .where('token_hash', '=', tokenHash)
      .where('sealed_reveal', '=', sealed)
      .executeTakeFirst();
    return Number(cleared.numUpdatedRows) > 0;
  }
}
