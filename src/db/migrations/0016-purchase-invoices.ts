import { sql, type Kysely } from 'kysely';
import { binaryColumnType, dialectOf } from '../dialect.js';

// Receiving e-invoices: purchase invoices (and supplier credit notes) as they arrived, their
// files, and the payments we make on them. Released migrations are never edited.
//
// - purchase_invoices: one received document, with what it was read into (the EN 16931 model as
//   JSON, the list of what the model has no field for), the verdict of the rules and its
//   findings, and its life (received, approved, disputed, paid) with the amounts paid and
//   credited kept beside its payable, changed by compare-and-set like an invoice's. The supplier
//   and the document's number are unique per company, mode and kind (invoice or credit note):
//   the database decides a duplicate, also when two arrive at once.
// - purchase_invoice_files: the original upload byte for byte (position 0) and the files that
//   came with it (BG-24 attachments, a PDF's other embedded files), each with its SHA-256. Bytes
//   are BLOB on SQLite and bytea on PostgreSQL (dialect.ts); kept out of purchase_invoices so
//   that lists never read them.
// - purchase_payments: money we paid a supplier; never more than the purchase invoice asks.
// - organizations get indexed lookups by electronic address, VAT id and legal registration id,
//   by which a received document's seller is matched to a supplier: expression indexes over the
//   identifier as a key (the same SQL on both databases), so "DE 811 907 980" finds DE811907980.
// Every row carries company_id and livemode; lists page by (company_id, livemode, created_at, id).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('purchase_invoices')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('supplier_matched_by', 'text', (c) => c.notNull())
    .addColumn('document_kind', 'text', (c) => c.notNull())
    .addColumn('number', 'text')
    .addColumn('type_code', 'text')
    .addColumn('issue_date', 'text')
    .addColumn('due_date', 'text')
    .addColumn('currency', 'text')
    .addColumn('seller_name', 'text')
    .addColumn('totals', 'text', (c) => c.notNull())
    .addColumn('payable', 'text')
    .addColumn('amount_paid', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('amount_credited', 'text', (c) => c.notNull().defaultTo('0'))
    .addColumn('owing', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('dispute_reason', 'text')
    .addColumn('approved_at', 'text')
    .addColumn('disputed_at', 'text')
    .addColumn('paid_at', 'text')
    .addColumn('corrects_number', 'text')
    .addColumn('corrects_id', 'text')
    .addColumn('syntax', 'text', (c) => c.notNull())
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('specification_id', 'text')
    .addColumn('container', 'text', (c) => c.notNull())
    .addColumn('verdict', 'text', (c) => c.notNull())
    .addColumn('findings', 'text', (c) => c.notNull())
    .addColumn('document', 'text', (c) => c.notNull())
    .addColumn('unmapped', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('original_sha256', 'text', (c) => c.notNull())
    .addColumn('original_size', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('purchase_invoices_number_uq')
    .on('purchase_invoices')
    .columns(['company_id', 'livemode', 'organization_id', 'document_kind', 'number'])
    .unique()
    .execute();
  await db.schema
    .createIndex('purchase_invoices_owner_created_idx')
    .on('purchase_invoices')
    .columns(['company_id', 'livemode', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('purchase_invoices_supplier_created_idx')
    .on('purchase_invoices')
    .columns(['company_id', 'livemode', 'organization_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('purchase_invoices_corrects_idx')
    .on('purchase_invoices')
    .columns(['company_id', 'livemode', 'organization_id', 'corrects_number'])
    .execute();

  await db.schema
    .createTable('purchase_invoice_files')
    .addColumn('purchase_invoice_id', 'text', (c) => c.notNull().references('purchase_invoices.id'))
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('mime_type', 'text')
    .addColumn('description', 'text')
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('content', binaryColumnType(dialectOf(db)), (c) => c.notNull())
    .addPrimaryKeyConstraint('purchase_invoice_files_pk', ['purchase_invoice_id', 'position'])
    .execute();

  await db.schema
    .createTable('purchase_payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('livemode', 'integer', (c) => c.notNull())
    .addColumn('purchase_invoice_id', 'text', (c) => c.notNull().references('purchase_invoices.id'))
    .addColumn('amount', 'text', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('purchase_payments_invoice_idx')
    .on('purchase_payments')
    .columns(['purchase_invoice_id', 'created_at'])
    .execute();

  // The identity columns as written ("DE 811 907 980"), compared as keys: without spaces, dots,
  // dashes and slashes, upper-cased (organization-repository.ts computes the same expression).
  const key = (column: string) =>
    `upper(replace(replace(replace(replace(${column}, ' ', ''), '.', ''), '-', ''), '/', ''))`;
  await sql
    .raw(
      `create index organizations_electronic_address_idx on organizations (company_id, livemode, electronic_address_scheme, (${key('electronic_address_id')}))`,
    )
    .execute(db);
  await sql
    .raw(`create index organizations_vat_id_idx on organizations (company_id, livemode, (${key('vat_id')}))`)
    .execute(db);
  await sql
    .raw(
      `create index organizations_legal_registration_idx on organizations (company_id, livemode, (${key('legal_registration_id')}))`,
    )
    .execute(db);
}
