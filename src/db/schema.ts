// Column types are chosen to mean the same on SQLite and PostgreSQL: instants are ISO-8601
// UTC text (they sort as they compare), flags are 0/1 integers, money is decimal text.

export interface CompaniesTable {
  id: string;
  name: string;
  currency: string;
  vat_id: string | null;
  country_code: string | null;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  company_id: string;
  name: string;
  lookup_prefix: string;
  key_digest: string;
  /** JSON array of permission names. */
  permissions: string;
  created_at: string;
  created_by: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface OrganizationsTable {
  id: string;
  company_id: string;
  name: string;
  /** Trimmed, NFC-normalised, case-folded name; unique per company. */
  name_key: string;
  type_code: string;
  first_name: string | null;
  last_name: string | null;
  is_customer: number;
  is_supplier: number;
  email: string | null;
  phone: string | null;
  vat_id: string | null;
  tax_number: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_postal_code: string | null;
  address_country_code: string | null;
  created_at: string;
}

export interface Database {
  companies: CompaniesTable;
  api_keys: ApiKeysTable;
  organizations: OrganizationsTable;
}
