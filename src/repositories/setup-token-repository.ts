import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The one-time tokens of the first-run setup, by the hash of the token. */
export class SetupTokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(tokenHash: string, createdAt: string, expiresAt: string): Promise<void> {
    await this.db
      .insertInto('setup_tokens')
      .values({ token_hash: tokenHash, created_at: createdAt, expires_at: expiresAt })
      .execute();
  }

  /** Whether the token exists and is still valid at `now`. */
  async isLive(tokenHash: string, now: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('setup_tokens')
      .select('token_hash')
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Deletes the token if it is still valid: of two claims racing, one burns it. */
  async burn(tokenHash: string, now: string, trx: Kysely<Database> = this.db): Promise<boolean> {
    const burned = await trx
      .deleteFrom('setup_tokens')
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(burned.numDeletedRows) > 0;
  }

  async deleteAll(trx: Kysely<Database> = this.db): Promise<void> {
    await trx.deleteFrom('setup_tokens').execute();
  }
}
