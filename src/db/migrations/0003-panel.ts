import { sql, type Kysely } from 'kysely';

// The web panel's accounts: users of a company, their sign-in sessions, the one-time setup
// token of a fresh instance and the audit trail of API-key changes. Secrets (passwords, session
// and setup tokens) are stored only as hashes. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    // Stored trimmed and lower-cased, so the unique constraint is case-insensitive.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('owner', 'admin', 'member')`))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_company_idx').on('users').column('company_id').execute();

  await db.schema
    .createTable('user_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    // A just-created API key, sealed with a key derived from the session token (which only the
    // browser holds), shown once on the next page and then cleared.
    .addColumn('sealed_reveal', 'text')
    .execute();
  await db.schema.createIndex('user_sessions_user_idx').on('user_sessions').column('user_id').execute();

  await db.schema
    .createTable('setup_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_key_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('api_key_id', 'text', (c) => c.notNull().references('api_keys.id'))
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('key_name', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull().check(sql`action in ('create', 'revoke')`))
    .addColumn('actor_user_id', 'text', (c) => c.references('users.id'))
    // The actor's email at the time, so the trail reads the same if the account changes.
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('api_key_events_company_at_idx')
    .on('api_key_events')
    .columns(['company_id', 'at'])
    .execute();
}
