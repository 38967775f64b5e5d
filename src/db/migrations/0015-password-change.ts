import type { Kysely } from 'kysely';

// A password someone else chose must be changed by its user at their next sign-in: an owner or
// admin adding a user on the panel's Users page, and the operator's `invoicing user
// reset-password`, set users.must_change_password; until the user changes it, their session
// reaches nothing but the change-password page. Existing accounts keep their passwords (0).
// Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('must_change_password', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
