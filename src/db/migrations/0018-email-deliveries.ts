import type { Kysely } from 'kysely';

// Sending invoices and credit notes by email. A send is one row, written in the request's
// transaction (status 'queued'); a worker leases due rows exactly as webhook deliveries are
// leased (Dialect.leaseDeliveries: FOR UPDATE SKIP LOCKED on PostgreSQL, one conditional update
// on SQLite), renders the attachments, hands the message to the SMTP relay and records the
// answer ('sent'), a retry (still 'queued', a later next_attempt_at) or the end ('failed', with
// the reason). The row is the record: recipients, subject, attachments with their SHA-256, the
// relay's answer. Released migrations are never edited.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('email_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    // 'invoice' or 'credit-note', and the document's id (invoices.id or credit_notes.id).
    .addColumn('document_kind', 'text', (c) => c.notNull())
    .addColumn('document_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    // JSON arrays of addresses.
    .addColumn('recipients_to', 'text', (c) => c.notNull())
    .addColumn('recipients_cc', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('xml_format', 'text', (c) => c.notNull())
    .addColumn('from_address', 'text', (c) => c.notNull())
    .addColumn('reply_to', 'text')
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body_text', 'text', (c) => c.notNull())
    // JSON array of { filename, contentType, size, sha256 }: set when the message was built.
    .addColumn('attachments', 'text')
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('smtp_response', 'text')
    .addColumn('failure_reason', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires_at', 'text')
    .addColumn('request_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .execute();
  // What the worker looks for: queued rows by due time.
  await db.schema
    .createIndex('email_deliveries_due')
    .on('email_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
  // A document's deliveries, newest first, in its answer.
  await db.schema
    .createIndex('email_deliveries_document')
    .on('email_deliveries')
    .columns(['company_id', 'document_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('email_templates')
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('document_kind', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('email_templates_pk', ['company_id', 'document_kind', 'language'])
    .execute();
}
