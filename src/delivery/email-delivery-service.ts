import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { Scope, Owner } from '../db/scope.js';
import { modeColumn } from '../db/scope.js';
import type { ErrorCode } from '../errors/codes.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { isEmailAddress } from '../config.js';
import { newId } from '../lib/ids.js';
import {
  DOCUMENT_KINDS,
  EMAIL_LANGUAGES,
  type EmailDelivery,
  type EmailLanguage,
  type EmailTemplateInput,
  type EmailTemplateView,
  type SendDocumentInput,
  type TemplateKind,
  type XmlFormat,
} from '../schemas/email-delivery.js';
import type { EmailTemplateRepository } from './email-template-repository.js';
import type { DocumentKind, DocumentService, RenderRequest } from '../services/document-service.js';
import type { Attachment, EmailDeliveryRow, EmailDeliveryRepository } from './email-delivery-repository.js';
import { DEFAULT_TEMPLATES, fillTemplate, languageFor } from './templates.js';

// Queuing a document's message: every check that can refuse runs before the row is written (the
// document is issued, there is somewhere to send it, its e-invoice is complete), and the row is
// written in the request's transaction (its Idempotency-Key's), so a send is queued once or not
// at all. The worker (email-worker.ts) does the sending.

export type QueueResult =
  | { ok: true; value: EmailDelivery }
  | { ok: false; code: ErrorCode; message?: string; details?: ErrorDetail[]; retryAfterSeconds?: number };

/** What the worker and the queue need of the operator's settings. */
export interface SenderSettings {
  /** The address every message is sent from (SMTP_FROM). */
  from: string;
}

/** The render request of an attached e-invoice format: the same as the download it names. */
export function xmlRequestOf(format: XmlFormat): Exclude<RenderRequest, { format: 'pdf' }> {
  switch (format) {
    case 'cii':
      return { format: 'cii', profile: 'en16931' };
    case 'xrechnung-cii':
      return { format: 'cii', profile: 'xrechnung' };
    case 'xrechnung-ubl':
      return { format: 'ubl', profile: 'xrechnung' };
    case 'peppol':
      return { format: 'ubl', profile: 'peppol' };
  }
}

/** The From header: the company's name, quoted, and the operator's address. */
export function fromHeader(companyName: string, address: string): string {
  const name = companyName
    .replace(/[\r\n"\\]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return name ? `"${name}" <${address}>` : address;
}

function parseList(text: string | null): string[] {
  return text ? (JSON.parse(text) as string[]) : [];
}

export function emailDeliveryOf(row: EmailDeliveryRow): EmailDelivery {
  return {
    id: row.id,
    documentKind: row.document_kind,
    documentId: row.document_id,
    status: row.status,
    to: parseList(row.recipients_to),
    cc: parseList(row.recipients_cc),
    from: row.from_address,
    replyTo: row.reply_to,
    language: row.language as EmailLanguage,
    xmlFormat: row.xml_format as XmlFormat,
    subject: row.subject,
    messageId: row.message_id,
    attachments: row.attachments ? (JSON.parse(row.attachments) as Attachment[]) : [],
    attempts: row.attempts,
    smtpResponse: row.smtp_response,
    failureReason: row.failure_reason,
    nextAttemptAt: row.status === 'queued' ? row.next_attempt_at : null,
    createdAt: row.created_at,
    sentAt: row.sent_at,
  };
}

export class EmailDeliveryService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly repository: EmailDeliveryRepository,
    private readonly documents: DocumentService,
    private readonly templates: EmailTemplateRepository,
    /** Absent when the operator has not set up sending (no SMTP_URL). */
    private readonly sender: SenderSettings | undefined,
    private readonly onQueued: () => void = () => {},
  ) {}

  get configured(): boolean {
    return this.sender !== undefined;
  }

  /** Queues a message with the document and its e-invoice attached; in `trx` when given. */
  async queue(
    scope: Scope,
    kind: DocumentKind,
    id: string,
    input: SendDocumentInput,
    now: Date,
    trx?: Kysely<Database>,
  ): Promise<QueueResult> {
    const facts = await this.documents.sendingFacts(kind, scope, id, now);
    if (!facts)
      return {
        ok: false,
        code: 'NOT_FOUND',
        message: kind === 'invoice' ? 'No invoice with this id.' : 'No credit note with this id.',
      };
    if (facts.draft)
      return { ok: false, code: 'INVOICE_NOT_ISSUED', message: 'The invoice is a draft: issue it before sending it.' };
    if (!this.sender) return { ok: false, code: 'EMAIL_NOT_CONFIGURED' };
    const to = input.to ?? (facts.buyerEmail ? [facts.buyerEmail] : []);
    const cc = input.cc ?? [];
    const details: ErrorDetail[] = [];
    if (to.length === 0)
      details.push({
        field: 'to',
        code: 'required',
        message: "The buyer has no email address: give the recipients in 'to', or set the organization's email.",
      });
    to.forEach((address, index) => {
      if (!isEmailAddress(address))
        details.push({
          field: input.to ? `to[${index}]` : 'to',
          code: 'invalid_email',
          message: `"${address}" is not one email address.`,
        });
    });
    cc.forEach((address, index) => {
      if (!isEmailAddress(address))
        details.push({
          field: `cc[${index}]`,
          code: 'invalid_email',
          message: `"${address}" is not one email address.`,
        });
    });
    if (details.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details };
    const xmlFormat = input.xmlFormat ?? 'cii';
    // The attachments are built when the message is sent; whether they can be is known now.
    const xml = await this.documents.render(kind, scope, id, xmlRequestOf(xmlFormat), now);
    if (!xml.ok) {
      if (xml.code === 'EINVOICE_INCOMPLETE') return { ok: false, code: 'EINVOICE_INCOMPLETE', details: xml.details };
      if (xml.code === 'SERVICE_UNAVAILABLE')
        return {
          ok: false,
          code: 'SERVICE_UNAVAILABLE',
          message: xml.message,
          retryAfterSeconds: xml.retryAfterSeconds,
        };
      return { ok: false, code: xml.code };
    }
    const language = input.language ?? languageFor(facts.buyerCountry);
    const own = await this.templates.find(scope.companyId, kind, language, trx ?? this.db);
    const message = fillTemplate(own ? { subject: own.subject, body: own.body } : DEFAULT_TEMPLATES[kind][language], {
      number: facts.number,
      seller: facts.sellerName,
      buyer: facts.buyerName,
      amount: facts.payable,
      currency: facts.currency,
      issueDate: facts.issueDate,
      dueDate: facts.dueDate ?? facts.issueDate,
    });
    const deliveryId = newId('eml');
    const at = now.toISOString();
    const row = {
      id: deliveryId,
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      document_kind: kind,
      document_id: id,
      status: 'queued' as const,
      recipients_to: JSON.stringify(to),
      recipients_cc: JSON.stringify(cc),
      language,
      xml_format: xmlFormat,
      from_address: fromHeader(facts.sellerName, this.sender.from),
      reply_to: facts.sellerEmail,
      subject: message.subject,
      body_text: message.body,
      attachments: null,
      message_id: `<${deliveryId}@${this.sender.from.slice(this.sender.from.lastIndexOf('@') + 1)}>`,
      smtp_response: null,
      failure_reason: null,
      attempts: 0,
      next_attempt_at: at,
      lease_owner: null,
      lease_expires_at: null,
      request_id: scope.requestId,
      created_at: at,
      updated_at: at,
      sent_at: null,
      purpose: 'document' as const,
    };
    await this.repository.insert(row, trx ?? this.db);
    this.onQueued();
    return { ok: true, value: emailDeliveryOf(row) };
  }

  /**
   * Queues a reminder's message about an invoice in `t` (the pass's transaction, with the
   * reminder's claim and event): to the buyer's email, the invoice's PDF and CII attached as on a
   * send. Undefined when the operator has not set up sending.
   */
  async queueReminder(
    t: Kysely<Database>,
    scope: Scope,
    invoiceId: string,
    message: {
      id: string;
      to: string;
      language: EmailLanguage;
      subject: string;
      body: string;
      sellerName: string;
      sellerEmail: string | null;
    },
    now: Date,
  ): Promise<EmailDelivery | undefined> {
    if (!this.sender) return undefined;
    const deliveryId = message.id;
    const at = now.toISOString();
    const row = {
      id: deliveryId,
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      document_kind: 'invoice' as const,
      document_id: invoiceId,
      status: 'queued' as const,
      recipients_to: JSON.stringify([message.to]),
      recipients_cc: JSON.stringify([]),
      language: message.language,
      xml_format: 'cii',
      from_address: fromHeader(message.sellerName, this.sender.from),
      reply_to: message.sellerEmail,
      subject: message.subject,
      body_text: message.body,
      attachments: null,
      message_id: `<${deliveryId}@${this.sender.from.slice(this.sender.from.lastIndexOf('@') + 1)}>`,
      smtp_response: null,
      failure_reason: null,
      attempts: 0,
      next_attempt_at: at,
      lease_owner: null,
      lease_expires_at: null,
      request_id: scope.requestId,
      created_at: at,
      updated_at: at,
      sent_at: null,
      purpose: 'reminder' as const,
    };
    await this.repository.insert(row, t);
    return emailDeliveryOf(row);
  }

  /** The worker should look soon (after a pass committed the messages it queued). */
  nudge(): void {
    this.onQueued();
  }

  /** The company's own template of a kind (reminder-<n> included) and language, if it set one. */
  async ownTemplate(
    companyId: string,
    kind: string,
    language: EmailLanguage,
    trx?: Kysely<Database>,
  ): Promise<{ subject: string; body: string } | undefined> {
    const row = await this.templates.find(companyId, kind, language, trx ?? this.db);
    return row ? { subject: row.subject, body: row.body } : undefined;
  }

  /** Every kind and language's template: the company's own where it set one, else the default. */
  async listTemplates(companyId: string): Promise<EmailTemplateView[]> {
    const own = await this.templates.list(companyId);
    return DOCUMENT_KINDS.flatMap((kind) =>
      EMAIL_LANGUAGES.map((language) => {
        const row = own.find((r) => r.document_kind === kind && r.language === language);
        const template = row ?? DEFAULT_TEMPLATES[kind][language];
        return {
          documentKind: kind,
          language,
          subject: template.subject,
          body: template.body,
          custom: row !== undefined,
          updatedAt: row?.updated_at ?? null,
        };
      }),
    );
  }

  /** Sets the company's own template of a kind and language (a subject is one line). */
  async setTemplate(
    companyId: string,
    kind: TemplateKind,
    language: EmailLanguage,
    input: EmailTemplateInput,
    now: Date,
    trx?: Kysely<Database>,
  ): Promise<{ ok: true; value: EmailTemplateView } | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }> {
    if (/[\r\n]/.test(input.subject))
      return {
        ok: false,
        code: 'VALIDATION_ERROR',
        details: [{ field: 'subject', code: 'one_line', message: 'A subject is one line.' }],
      };
    const updatedAt = now.toISOString();
    await this.templates.upsert(
      {
        company_id: companyId,
        document_kind: kind,
        language,
        subject: input.subject,
        body: input.body,
        updated_at: updatedAt,
      },
      trx ?? this.db,
    );
    return {
      ok: true,
      value: { documentKind: kind, language, subject: input.subject, body: input.body, custom: true, updatedAt },
    };
  }

  /** Drops the company's own template: the default applies again. */
  async resetTemplate(
    companyId: string,
    kind: TemplateKind,
    language: EmailLanguage,
    /** The default of a reminder kind (it depends on the level's day in the company's policy). */
    reminderDefault?: { subject: string; body: string },
    trx?: Kysely<Database>,
  ): Promise<EmailTemplateView> {
    await this.templates.remove(companyId, kind, language, trx ?? this.db);
    const template =
      kind === 'invoice' || kind === 'credit-note' ? DEFAULT_TEMPLATES[kind][language] : reminderDefault!;
    return {
      documentKind: kind,
      language,
      subject: template.subject,
      body: template.body,
      custom: false,
      updatedAt: null,
    };
  }

  async listForDocument(owner: Owner, documentId: string): Promise<EmailDelivery[]> {
    return (await this.repository.listForDocument(owner, documentId)).map(emailDeliveryOf);
  }
}
