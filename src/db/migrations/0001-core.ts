import type { Kysely } from 'kysely';

// Released migrations are never edited: add a new file instead.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('companies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('vat_id', 'text')
    .addColumn('country_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('lookup_prefix', 'text', (c) => c.notNull().unique())
    .addColumn('key_digest', 'text', (c) => c.notNull())
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('api_keys_company_idx').on('api_keys').column('company_id').execute();

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('company_id', 'text', (c) => c.notNull().references('companies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('type_code', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('is_customer', 'integer', (c) => c.notNull())
    .addColumn('is_supplier', 'integer', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('phone', 'text')
    .addColumn('vat_id', 'text')
    .addColumn('tax_number', 'text')
    .addColumn('address_line1', 'text')
    .addColumn('address_line2', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_postal_code', 'text')
    .addColumn('address_country_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Enforces "unique within the caller's company" in the database, so concurrent creates race safely.
  await db.schema
    .createIndex('organizations_company_name_key_uq')
    .on('organizations')
    .columns(['company_id', 'name_key'])
    .unique()
    .execute();
}
