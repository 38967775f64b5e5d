import type { Kysely } from 'kysely';

// The hosted page of an issued invoice or credit note: one link per document. The token in the
// link is never stored in clear: its SHA-256 finds the link, and the token itself is kept sealed
// (AES-256-GCM under the data key, as webhook secrets are) so that answers can show the URL again.
// Rotating a link replaces hash and seal in place (the old token then finds nothing) and counts
// the version up; the first view of the document stays. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('hosted_links')
    // invoices.id or credit_notes.id: one link per document.
    .addColumn('document_id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    // 'invoice' or 'credit-note'.
    .addColumn('document_kind', 'text', (c) => c.notNull())
    // Hex SHA-256 of the token: the lookup.
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('sealed_token', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('rotated_at', 'text')
    // The first time anyone opened the page (of any version of the link).
    .addColumn('viewed_at', 'text')
    .execute();
}
