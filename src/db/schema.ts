import type { Generated } from 'kysely';

// Column types are chosen to mean the same on SQLite and PostgreSQL: instants are ISO-8601
// UTC text (they sort as they compare), flags are 0/1 integers, money is decimal text.

export interface CompaniesTable {
  id: string;
  name: string;
  currency: string;
  vat_id: string | null;
  /** The seller's country (its address's, EN 16931 BT-40). */
  country_code: string | null;
  created_at: string;
  /** The seller profile (EN 16931 BG-4); all optional, checked when a document needs them. */
  legal_name?: string | null;
  address_line1?: string | null;
  address_line2?: string | null;
  address_city?: string | null;
  address_postal_code?: string | null;
  tax_number?: string | null;
  legal_registration_id?: string | null;
  electronic_address_scheme?: string | null;
  electronic_address_id?: string | null;
  contact_name?: string | null;
  contact_phone?: string | null;
  contact_email?: string | null;
  iban?: string | null;
  bic?: string | null;
  account_name?: string | null;
  payment_terms?: string | null;
  /** The SEPA creditor identifier (EN 16931 BT-90), for direct debits. */
  creditor_id?: string | null;
  updated_at?: string | null;
}

export interface CompanyEventsTable {
  id: string;
  company_id: string;
  /** JSON: { field: { from, to } }. */
  changes: string;
  actor_user_id: string | null;
  actor_label: string;
  at: string;
}

/** What invoices and credit notes store for EN 16931 beyond lines and totals. */
export type PdfDigestLanguage = 'en' | 'de' | 'fr';

/** The SHA-256 (hex) of an issued document's PDF per language, recorded when it was first rendered. */
export interface PdfDigestColumns {
  pdf_sha256_en?: string | null;
  pdf_sha256_de?: string | null;
  pdf_sha256_fr?: string | null;
}

export interface DocumentExtrasColumns {
  /** JSON: { code, iban, bic, accountName, mandateReference, payerIban, cardLastDigits }. */
  payment_means?: string | null;
  payment_terms?: string | null;
  delivery_date?: string | null;
  invoice_period_start?: string | null;
  invoice_period_end?: string | null;
  /** JSON arrays of { amount, reason, reasonCode, vatCategory, vatRate } as given. */
  allowances?: string | null;
  charges?: string | null;
  allowance_total?: string | null;
  charge_total?: string | null;
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
  /** 1: a live key (inv_live_…); 0: a test key (inv_test_…), which sees only its company's test data. */
  livemode: number;
  /** The key that replaced this one when it was rolled (a key is rolled once), else null. */
  replaced_by: string | null;
}

export interface OrganizationsTable {
  id: string;
  company_id: string;
  /** 1: live data; 0: the company's test sandbox. */
  livemode: number;
  name: string;
  /** Trimmed, NFC-normalised, case-folded name; unique per company and mode. */
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
  archived_at: string | null;
  created_at: string;
  updated_at: string | null;
  /** EN 16931 BT-49: the EAS scheme and the identifier. */
  electronic_address_scheme?: string | null;
  electronic_address_id?: string | null;
  /** EN 16931 BT-47 */
  legal_registration_id?: string | null;
}

export type InvoiceStatusColumn = 'draft' | 'issued' | 'paid' | 'void';

export interface InvoicesTable extends DocumentExtrasColumns, PdfDigestColumns {
  id: string;
  company_id: string;
  organization_id: string;
  /** Unique per company and mode; null for a draft. */
  number: string | null;
  /** A draft's requested number, checked when it is finalized. */
  draft_number: string | null;
  status: InvoiceStatusColumn;
  /** YYYY-MM-DD; null for a draft without one. */
  issue_date: string | null;
  /** YYYY-MM-DD; null for a draft without one. */
  due_date: string | null;
  currency: string;
  prices_include_tax: number;
  buyer_reference: string | null;
  purchase_order_reference: string | null;
  note: string | null;
  /** JSON: the buyer organization as it was at issue; null for a draft (it shows the current one). */
  buyer_snapshot: string | null;
  /** JSON: the seller (the company) as it was at issue; null for a draft. */
  seller_snapshot: string | null;
  /** JSON array: one entry per (VAT category, rate) with decimal-text amounts. */
  vat_breakdown: string;
  line_net_total: string;
  tax_exclusive: string;
  tax_total: string;
  tax_inclusive: string;
  rounding_amount: string;
  payable: string;
  /** Plain decimal text, kept with every payment (compare-and-set). */
  amount_paid: string;
  /** Plain decimal text, kept with every credit note (compare-and-set). */
  amount_credited: string;
  /** Plain decimal text, kept with every refund (compare-and-set); '0' before migration 0013. */
  amount_refunded: string;
  finalized_at: string | null;
  paid_at: string | null;
  voided_at: string | null;
  /** A draft's edit count: finalizing checks it did not change since it was read. */
  version: number;
  /** 1 live, 0 test. */
  livemode: number;
  created_at: string;
  updated_at: string;
  /** The quote the invoice was made from (POST /quote/{id}/invoice); null for others. Migration 0023. */
  quote_id: string | null;
  /** BT-17 (tender or lot reference): the number of the quote it was made from. Migration 0023. */
  tender_reference: string | null;
}

export interface InvoiceLinesTable {
  invoice_id: string;
  company_id: string;
  /** 1-based line number. */
  position: number;
  name: string;
  description: string | null;
  quantity: string;
  unit_code: string;
  unit_price: string;
  discount_percent: string | null;
  vat_rate: string;
  vat_category: string;
  exemption_reason: string | null;
  net_amount: string;
}

export interface NumberSequencesTable {
  company_id: string;
  livemode: number;
  /** 'invoice' or 'credit-note'. */
  sequence: string;
  year: number;
  /** The last number handed out for this company, mode, sequence and year. */
  last_value: number;
}

export type PaymentKind = 'payment' | 'refund';

/** Money received for an invoice (a payment) or paid back to its buyer (a refund); the amount is positive either way. */
export interface PaymentsTable {
  id: string;
  company_id: string;
  invoice_id: string;
  livemode: number;
  kind: PaymentKind;
  amount: string;
  date: string;
  method: string;
  reference: string | null;
  created_at: string;
}

export interface CreditNotesTable extends DocumentExtrasColumns, PdfDigestColumns {
  id: string;
  company_id: string;
  livemode: number;
  invoice_id: string;
  invoice_number: string;
  invoice_issue_date: string;
  number: string;
  /** The credited invoice's references (BT-10, BT-13). */
  buyer_reference?: string | null;
  purchase_order_reference?: string | null;
  reason: string;
  issue_date: string;
  currency: string;
  prices_include_tax: number;
  buyer_snapshot: string;
  seller_snapshot: string;
  note: string | null;
  vat_breakdown: string;
  line_net_total: string;
  tax_exclusive: string;
  tax_total: string;
  tax_inclusive: string;
  rounding_amount: string;
  payable: string;
  /** The part of the payable set against the invoice's open balance when issued; the rest is owed to the buyer. */
  offset_amount?: string | null;
  created_at: string;
}

export interface CreditNoteLinesTable {
  credit_note_id: string;
  company_id: string;
  position: number;
  name: string;
  description: string | null;
  quantity: string;
  unit_code: string;
  unit_price: string;
  discount_percent: string | null;
  vat_rate: string;
  vat_category: string;
  exemption_reason: string | null;
  net_amount: string;
}

export type UserRole = 'owner' | 'admin' | 'member';

export interface UsersTable {
  id: string;
  company_id: string;
  /** Trimmed and lower-cased; unique across the instance. */
  email: string;
  /** scrypt$N$r$p$salt$hash (see src/panel/password.ts). */
  password_hash: string;
  role: UserRole;
  active: number;
  /** 1 while the password is one someone else set (Users page, CLI reset): changed at next sign-in. */
  must_change_password: number;
  created_at: string;
}

export interface UserSessionsTable {
  id: string;
  /** sha256 of the session cookie's token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  sealed_reveal: string | null;
}

export interface SetupTokensTable {
  token_hash: string;
  created_at: string;
  expires_at: string;
}

export interface ApiKeyEventsTable {
  id: string;
  company_id: string;
  api_key_id: string;
  key_prefix: string;
  key_name: string;
  action: 'create' | 'revoke' | 'roll' | 'rename';
  actor_user_id: string | null;
  /** The user's email at the time, or "CLI". */
  actor_label: string;
  /** JSON: { previousName } for a rename, { successorId, successorPrefix, oldKeyUntil } for a roll. */
  detail: string | null;
  at: string;
}

export interface IdempotencyRecordsTable {
  company_id: string;
  /** 1 for requests with live keys, 0 for test keys: the same key in each mode is another record. */
  livemode: number;
  idempotency_key: string;
  /** sha256 hex of the canonical JSON of the operation and its body. */
  request_digest: string;
  state: 'running' | 'done';
  owner_token: string;
  locked_at: string;
  status_code: number | null;
  /** The stored answer's body (JSON), once done. */
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export interface EventsTable {
  id: string;
  company_id: string;
  livemode: number;
  type: string;
  request_id: string | null;
  /** JSON: the resource as the API answered it at that moment. */
  object: string;
  created_at: string;
}

export interface WebhookEndpointsTable {
  id: string;
  company_id: string;
  livemode: number;
  url: string;
  /** JSON array of event types, or ["*"]. */
  events: string;
  description: string | null;
  enabled: number;
  disabled_reason: string | null;
  /** AES-256-GCM sealed signing secret (see src/lib/sealed.ts); never in clear. */
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

/**
 * Events a subscribed endpoint takes, written with the change, in the order endpoints read them:
 * (xact, seq). On SQLite `xact` is always 0 and `seq` an AUTOINCREMENT key; on PostgreSQL `xact`
 * is the writing transaction's id (xid8) and `seq` an identity. Both come back as strings or
 * numbers depending on the driver, and are passed back as they came.
 */
export interface WebhookOutboxTable {
  xact: Generated<string | number>;
  seq: Generated<string | number>;
  event_id: string;
  company_id: string;
  livemode: number;
  type: string;
  created_at: string;
}

/** Where each webhook endpoint is in the outbox: it has been given every row up to (xact, seq). */
export interface WebhookOutboxCursorsTable {
  endpoint_id: string;
  xact: string | number;
  seq: string | number;
}

export interface WebhookDeliveriesTable {
  id: string;
  company_id: string;
  endpoint_id: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  company_id: string;
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  succeeded: number;
  response_excerpt: string | null;
  error: string | null;
}

export type PurchaseInvoiceState = 'received' | 'approved' | 'disputed' | 'paid';

/** A received e-invoice or supplier credit note (migration 0016). */
export interface PurchaseInvoicesTable {
  id: string;
  company_id: string;
  livemode: number;
  /** The supplier the seller was matched to, or created as. */
  organization_id: string;
  /** How the seller was found: electronicAddress, vatId, legalRegistrationId, name, or created. */
  supplier_matched_by: 'electronicAddress' | 'vatId' | 'legalRegistrationId' | 'name' | 'created';
  /** 'invoice' or 'credit-note'; part of what makes a document a duplicate. */
  document_kind: 'invoice' | 'credit-note';
  /** BT-1 as written; null when the document has none (then nothing can be its duplicate). */
  number: string | null;
  /** BT-3 as written. */
  type_code: string | null;
  issue_date: string | null;
  due_date: string | null;
  currency: string | null;
  /** BT-27 as written. */
  seller_name: string | null;
  /** JSON: BT-106 … BT-115 as written. */
  totals: string;
  /** BT-115 as written, when it is a decimal; null otherwise (then nothing can be paid). */
  payable: string | null;
  /** Plain decimal text, kept with every payment (compare-and-set). */
  amount_paid: string;
  /** Plain decimal text: the payables of the supplier's credit notes that correct this invoice. */
  amount_credited: string;
  /** 1 while something is due on it (a payable above what was paid and credited), else 0: the overdue filter's. */
  owing: number;
  state: PurchaseInvoiceState;
  dispute_reason: string | null;
  approved_at: string | null;
  disputed_at: string | null;
  paid_at: string | null;
  /** A credit note's BT-25: the number of the invoice it corrects. */
  corrects_number: string | null;
  /** The purchase invoice that number was found as (same supplier). */
  corrects_id: string | null;
  syntax: 'ubl' | 'cii';
  profile: string;
  /** BT-24 as written. */
  specification_id: string | null;
  /** 'xml', or 'pdf' for XML that came embedded in a PDF. */
  container: 'xml' | 'pdf';
  verdict: 'valid' | 'valid with warnings' | 'invalid';
  /** JSON: { structure: { valid, findings }, findings }. */
  findings: string;
  /** JSON: the EN 16931 model, embedded attachments named by their file position instead of their bytes. */
  document: string;
  /** JSON: [{ path, value }] of everything the model has no field for. */
  unmapped: string;
  /** The content type the original is answered with. */
  content_type: string;
  original_sha256: string;
  original_size: number;
  /** How it arrived: 'api' (POST /purchase-invoice), 'panel'. */
  channel: string;
  created_at: string;
  updated_at: string;
}

/** The original upload (position 0) and the files that came with it, byte for byte. */
export interface PurchaseInvoiceFilesTable {
  purchase_invoice_id: string;
  company_id: string;
  livemode: number;
  position: number;
  /** 'upload' (the original), 'xml' (a BG-24 attachment), 'pdf' (another file embedded in the PDF). */
  source: 'upload' | 'xml' | 'pdf';
  name: string | null;
  mime_type: string | null;
  description: string | null;
  sha256: string;
  size: number;
  /** BLOB on SQLite, bytea on PostgreSQL: read it through bytesOfColumn (dialect.ts). */
  content: Uint8Array;
}

/** Money paid to a supplier on a purchase invoice. */
export interface PurchasePaymentsTable {
  id: string;
  company_id: string;
  livemode: number;
  purchase_invoice_id: string;
  amount: string;
  date: string;
  method: string;
  reference: string | null;
  created_at: string;
}

/** A document sent by email: queued, then sent or failed (migration 0018). */
export interface EmailDeliveriesTable {
  id: string;
  company_id: string;
  livemode: number;
  document_kind: 'invoice' | 'credit-note';
  document_id: string;
  status: 'queued' | 'sent' | 'failed';
  /** JSON arrays of addresses. */
  recipients_to: string;
  recipients_cc: string;
  language: string;
  xml_format: string;
  from_address: string;
  reply_to: string | null;
  subject: string;
  body_text: string;
  /** JSON array of { filename, contentType, size, sha256 }, once the message was built. */
  attachments: string | null;
  message_id: string;
  smtp_response: string | null;
  failure_reason: string | null;
  attempts: number;
  next_attempt_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  request_id: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  /** 'document' (POST …/send) or 'reminder' (a reminder pass); migration 0021. */
  purpose: 'document' | 'reminder';
}

/** The link to an issued document's hosted page (migration 0020); the token only as its hash and sealed. */
export interface HostedLinksTable {
  document_id: string;
  company_id: string;
  livemode: number;
  /** Free text: 'invoice', 'credit-note', 'quote' (the quote page came later without a migration). */
  document_kind: 'invoice' | 'credit-note' | 'quote';
  token_hash: string;
  sealed_token: string;
  version: number;
  created_at: string;
  rotated_at: string | null;
  viewed_at: string | null;
}

/** A company's own subject and body of one document kind and language (migration 0018; reminder-<n> kinds 0021). */
export interface EmailTemplatesTable {
  company_id: string;
  document_kind: string;
  language: string;
  subject: string;
  body: string;
  updated_at: string;
}

export type QuoteStatusColumn = 'draft' | 'open' | 'accepted' | 'declined';

export interface QuotesTable extends Omit<DocumentExtrasColumns, 'payment_means'> {
  id: string;
  company_id: string;
  livemode: number;
  organization_id: string;
  /** Null while a draft: the number is taken when the quote is sent. */
  number: string | null;
  status: QuoteStatusColumn;
  issue_date: string | null;
  /** The last day the quote can be accepted; past it an open quote reads as expired. */
  valid_until: string | null;
  currency: string;
  prices_include_tax: number;
  buyer_reference: string | null;
  purchase_order_reference: string | null;
  note: string | null;
  /** JSON, taken when the quote is sent; null for a draft. */
  buyer_snapshot: string | null;
  seller_snapshot: string | null;
  vat_breakdown: string;
  line_net_total: string;
  tax_exclusive: string;
  tax_total: string;
  tax_inclusive: string;
  rounding_amount: string;
  payable: string;
  sent_at: string | null;
  accepted_at: string | null;
  declined_at: string | null;
  /** Set by the one conversion that made an invoice of the quote. */
  invoiced_at: string | null;
  invoice_id: string | null;
  /** A draft's edit count: an edit or send checks it did not change since it was read. Migration 0023. */
  version: number;
  created_at: string;
  updated_at: string;
}

export interface QuoteLinesTable extends Omit<InvoiceLinesTable, 'invoice_id'> {
  quote_id: string;
}

export type RecurringInterval = 'week' | 'month' | 'quarter' | 'year';

export interface RecurringInvoicesTable {
  id: string;
  company_id: string;
  livemode: number;
  organization_id: string;
  status: 'active' | 'paused' | 'ended';
  /** JSON: the body each run's POST /invoice is made of (without dates, number, status, period). */
  template: string;
  interval: RecurringInterval;
  every: number;
  /** YYYY-MM-DD, the first occurrence; every other is counted from it, never from the run before. */
  anchor_date: string;
  end_date: string | null;
  /** The number of periods from the anchor (count), or null for no limit. */
  max_runs: number | null;
  time_zone: string;
  invoice_status: 'issued' | 'draft';
  /** JSON: the send body (recipients, language, XML format) when each run sends its invoice; null when not. */
  send: string | null;
  missed_periods: 'catch-up' | 'skip';
  invoice_period: 'current' | 'previous';
  /** The index (from the anchor, 0 first) of the next occurrence to run. */
  next_index: number;
  /** The next occurrence's local date, and the instant its local day starts; null once ended. */
  next_run_date: string | null;
  next_run_at: string | null;
  paused_at: string | null;
  ended_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface RecurringInvoiceRunsTable {
  id: string;
  recurring_invoice_id: string;
  company_id: string;
  livemode: number;
  period_index: number;
  period_start: string;
  period_end: string;
  /** The local date the run was for (the invoice's issue date). */
  run_date: string;
  status: 'made' | 'failed';
  invoice_id: string | null;
  failure_code: string | null;
  failure_message: string | null;
  /** JSON: the send body when the run's invoice is to be sent; null when not. */
  send: string | null;
  /** The message the invoice was sent with, when it was. */
  delivery_id: string | null;
  /** Why the message could not be queued, when it could not. */
  send_error: string | null;
  created_at: string;
}

export interface Database {
  companies: CompaniesTable;
  company_events: CompanyEventsTable;
  events: EventsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_outbox: WebhookOutboxTable;
  webhook_outbox_cursors: WebhookOutboxCursorsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  api_keys: ApiKeysTable;
  organizations: OrganizationsTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  number_sequences: NumberSequencesTable;
  payments: PaymentsTable;
  credit_notes: CreditNotesTable;
  credit_note_lines: CreditNoteLinesTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  setup_tokens: SetupTokensTable;
  api_key_events: ApiKeyEventsTable;
  idempotency_records: IdempotencyRecordsTable;
  purchase_invoices: PurchaseInvoicesTable;
  purchase_invoice_files: PurchaseInvoiceFilesTable;
  purchase_payments: PurchasePaymentsTable;
  email_deliveries: EmailDeliveriesTable;
  email_templates: EmailTemplatesTable;
  hosted_links: HostedLinksTable;
  quotes: QuotesTable;
  quote_lines: QuoteLinesTable;
  recurring_invoices: RecurringInvoicesTable;
  recurring_invoice_runs: RecurringInvoiceRunsTable;
  reminder_policies: ReminderPoliciesTable;
  invoice_reminders: InvoiceRemindersTable;
  invoice_reminder_states: InvoiceReminderStatesTable;
}

/** A company's reminder policy; without a row the default applies (migration 0021). */
export interface ReminderPoliciesTable {
  company_id: string;
  enabled: number;
  /** JSON array of { days, fee, interestRatePercent }, ordered by days. */
  levels: string;
  updated_at: string;
}

/** One reminder level of one invoice: sent or skipped; the row is the claim (migration 0021). */
export interface InvoiceRemindersTable {
  id: string;
  company_id: string;
  livemode: number;
  invoice_id: string;
  days: number;
  level: number;
  status: 'sent' | 'skipped';
  skip_reason: string | null;
  email_delivery_id: string | null;
  as_of: string;
  currency: string;
  open_balance: string;
  fee: string | null;
  interest_rate_percent: string | null;
  interest: string | null;
  created_at: string;
}

/** An invoice's reminder pause and its overdue mark (migration 0021). */
export interface InvoiceReminderStatesTable {
  invoice_id: string;
  company_id: string;
  livemode: number;
  pause_reason: 'paused' | 'dispute' | null;
  pause_note: string | null;
  paused_at: string | null;
  overdue_at: string | null;
  updated_at: string;
}
