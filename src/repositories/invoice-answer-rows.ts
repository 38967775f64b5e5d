import { sql, type AliasedRawBuilder } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type {
  EmailDeliveriesTable,
  HostedLinksTable,
  InvoiceLinesTable,
  InvoiceRemindersTable,
  PaymentsTable,
} from '../db/schema.js';
import type { CreditNoteCreation, PaymentRow } from './invoice-repository.js';

// An invoice's answer read in one statement (InvoiceRepository.findWithAnswerRows):
// its children as JSON columns of one select, each list aggregated in the order its own query had.
// The JSON functions are the dialect's (src/db); every column read this way is text or a 32-bit
// integer, so nothing passes through a float.

/**
 * What an invoice's answer shows besides its row and lines, as rows: its payments and refunds and
 * its credit notes (oldest first), the messages it was sent with (newest first, the latest
 * `DELIVERIES_SHOWN`), its hosted link, its reminders (latest level first). The capabilities that
 * own the last three map them (delivery/, hosted/).
 */
export interface InvoiceAnswerRows {
  payments: PaymentRow[];
  creditNotes: CreditNoteCreation[];
  deliveries: EmailDeliveriesTable[];
  hostedLink: HostedLinksTable | null;
  reminders: InvoiceRemindersTable[];
}

/** How many of a document's messages its answer shows, newest first (as EmailDeliveryRepository.listForDocument). */
export const DELIVERIES_SHOWN = 50;

/** Every column of a table, checked against its type: one added to the type and not here fails to compile. */
export function columnsOf<T>(columns: Record<keyof T, true>): readonly string[] {
  return Object.keys(columns);
}

/** The columns of a document's line (an invoice's, a credit note's) but the document it belongs to. */
export const DOCUMENT_LINE_COLUMNS = columnsOf<Omit<InvoiceLinesTable, 'invoice_id'>>({
  company_id: true,
  position: true,
  name: true,
  description: true,
  quantity: true,
  unit_code: true,
  unit_price: true,
  discount_percent: true,
  vat_rate: true,
  vat_category: true,
  exemption_reason: true,
  net_amount: true,
});
export const LINE_COLUMNS = ['invoice_id', ...DOCUMENT_LINE_COLUMNS];
const PAYMENT_COLUMNS = columnsOf<PaymentsTable>({
  id: true,
  company_id: true,
  invoice_id: true,
  livemode: true,
  kind: true,
  amount: true,
  date: true,
  method: true,
  reference: true,
  created_at: true,
});
const CREDIT_NOTE_COLUMNS = columnsOf<CreditNoteCreation>({ id: true, created_at: true });
const DELIVERY_COLUMNS = columnsOf<EmailDeliveriesTable>({
  id: true,
  company_id: true,
  livemode: true,
  document_kind: true,
  document_id: true,
  status: true,
  recipients_to: true,
  recipients_cc: true,
  language: true,
  xml_format: true,
  from_address: true,
  reply_to: true,
  subject: true,
  body_text: true,
  attachments: true,
  message_id: true,
  smtp_response: true,
  failure_reason: true,
  attempts: true,
  next_attempt_at: true,
  lease_owner: true,
  lease_expires_at: true,
  request_id: true,
  created_at: true,
  updated_at: true,
  sent_at: true,
  purpose: true,
});
const HOSTED_LINK_COLUMNS = columnsOf<HostedLinksTable>({
  document_id: true,
  company_id: true,
  livemode: true,
  document_kind: true,
  token_hash: true,
  sealed_token: true,
  version: true,
  created_at: true,
  rotated_at: true,
  viewed_at: true,
});
const REMINDER_COLUMNS = columnsOf<InvoiceRemindersTable>({
  id: true,
  company_id: true,
  livemode: true,
  invoice_id: true,
  days: true,
  level: true,
  status: true,
  skip_reason: true,
  email_delivery_id: true,
  as_of: true,
  currency: true,
  open_balance: true,
  fee: true,
  interest_rate_percent: true,
  interest: true,
  created_at: true,
});

/** The answer's rows as columns of one select, as JSON: `answer_*`. */
export interface AnswerColumns {
  answer_payments: unknown;
  answer_credit_notes: unknown;
  answer_deliveries: unknown;
  answer_hosted_link: unknown;
  answer_reminders: unknown;
}

/**
 * The subqueries that read an answer's rows of the invoice named by `invoice` (its company, mode
 * and id: columns of an outer row, or parameters), each in the order its own query had.
 */
export function answerSelections(
  json: Dialect['json'],
  invoice: { companyId: unknown; livemode: unknown; id: unknown },
): AliasedRawBuilder<unknown, keyof AnswerColumns>[] {
  const { companyId, livemode, id } = invoice;
  return [
    sql`(select ${json.rows('p', PAYMENT_COLUMNS, sql`p.created_at, p.id`)} from payments p
        where p.company_id = ${companyId} and p.livemode = ${livemode} and p.invoice_id = ${id})`.as('answer_payments'),
    sql`(select ${json.rows('c', CREDIT_NOTE_COLUMNS, sql`c.created_at, c.id`)} from credit_notes c
        where c.company_id = ${companyId} and c.livemode = ${livemode} and c.invoice_id = ${id})`.as(
      'answer_credit_notes',
    ),
    ...documentSelections(json, invoice),
    sql`(select ${json.rows('r', REMINDER_COLUMNS, sql`r.days desc`)} from invoice_reminders r
        where r.company_id = ${companyId} and r.livemode = ${livemode} and r.invoice_id = ${id})`.as(
      'answer_reminders',
    ),
  ];
}

/**
 * The subqueries that read a document's messages (the latest DELIVERIES_SHOWN, newest first) and
 * its hosted link, for the document named by `document` (its company, mode and id).
 */
export function documentSelections(
  json: Dialect['json'],
  document: { companyId: unknown; livemode: unknown; id: unknown },
): AliasedRawBuilder<unknown, 'answer_deliveries' | 'answer_hosted_link'>[] {
  const { companyId, livemode, id } = document;
  return [
    sql`(select ${json.rows('d', DELIVERY_COLUMNS, sql`d.created_at desc, d.id desc`)} from (
          select * from email_deliveries e
          where e.company_id = ${companyId} and e.document_id = ${id} and e.livemode = ${livemode}
          order by e.created_at desc, e.id desc limit ${sql.lit(DELIVERIES_SHOWN)}) d)`.as('answer_deliveries'),
    sql`(select ${json.row('h', HOSTED_LINK_COLUMNS)} from hosted_links h
        where h.company_id = ${companyId} and h.livemode = ${livemode} and h.document_id = ${id})`.as(
      'answer_hosted_link',
    ),
  ];
}

export function answerRowsFrom(json: Dialect['json'], row: AnswerColumns): InvoiceAnswerRows {
  return {
    payments: json.parse(row.answer_payments),
    creditNotes: json.parse(row.answer_credit_notes),
    deliveries: json.parse(row.answer_deliveries),
    hostedLink: json.parse(row.answer_hosted_link),
    reminders: json.parse(row.answer_reminders),
  };
}
