import type { Kysely } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type { Database } from '../db/schema.js';
import { PdfRenderError, type PdfLanguage } from '../documents/index.js';
import type { DocumentReader } from '../documents/read/read-pool.js';
import type { ReceivedDocument } from '../documents/read/received.js';
import { receivedView } from '../documents/received-view.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import type {
  PurchaseInvoice,
  PurchaseInvoiceSummary,
  PurchasePaymentInput,
  UnmappedEntry,
} from '../schemas/purchase-invoice.js';
import type { PdfRenderer } from '../services/document-service.js';
import type { OrganizationService } from '../services/organization-service.js';
import type { Owner, Scope } from '../db/scope.js';
import { Intake, type ReadUploadResult, type StoreOptions, type StoreResult, type Upload } from './intake.js';
import type { StoredEinvoice } from './purchase-invoice-mapping.js';
import { PurchaseInvoiceReads } from './purchase-invoice-reads.js';
import {
  PurchaseInvoiceRepository,
  type ListCursor,
  type PurchaseInvoiceFilter,
} from './purchase-invoice-repository.js';
import { PurchaseLedger, type LifecycleResult } from './purchase-ledger.js';
import { SupplierMatcher } from './supplier-matching.js';

// Receiving e-invoices, the one door the API routes (and the panel) go through: take a document
// in (read it off the event loop, store it with its supplier and verdict), read back one or a
// page, its original and attachments byte for byte, a rendering as PDF, and its life (approve,
// dispute, pay). Services return results; the routes map them to HTTP.

export type { Upload, ReadUploadResult, StoreOptions, StoreResult } from './intake.js';
export type { LifecycleResult } from './purchase-ledger.js';
export type { PurchaseInvoiceFilter } from './purchase-invoice-repository.js';

export interface FileAnswer {
  body: Buffer;
  contentType: string;
  filename: string;
  sha256: string;
}

export type PdfResult =
  | { ok: true; body: Buffer; filename: string }
  | { ok: false; code: 'NOT_FOUND' }
  | { ok: false; code: 'SERVICE_UNAVAILABLE'; message: string; retryAfterSeconds: number };

const safeName = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'document';

/** What an attachment is answered as: its own type when it is one EN 16931 allows (BR-CL-24) or XML, else bytes. */
export const ATTACHMENT_TYPES = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/xml',
  'application/octet-stream',
] as const;

function attachmentType(mimeType: string | null): (typeof ATTACHMENT_TYPES)[number] {
  const type = mimeType?.trim().toLowerCase() ?? '';
  if (type === 'text/xml') return 'application/xml';
  return (ATTACHMENT_TYPES as readonly string[]).includes(type)
    ? (type as (typeof ATTACHMENT_TYPES)[number])
    : 'application/octet-stream';
}

export class PurchaseInvoiceService {
  private readonly repository: PurchaseInvoiceRepository;
  private readonly reads: PurchaseInvoiceReads;
  private readonly intake: Intake;
  private readonly ledger: PurchaseLedger;

  constructor(
    db: Kysely<Database>,
    dialect: Dialect,
    reader: DocumentReader,
    organizations: OrganizationRepository,
    organizationService: OrganizationService,
    events: EventRecorder,
    private readonly pdf: PdfRenderer,
  ) {
    this.repository = new PurchaseInvoiceRepository(db, dialect);
    this.reads = new PurchaseInvoiceReads(this.repository);
    this.ledger = new PurchaseLedger(db, this.repository, this.reads, events);
    this.intake = new Intake(
      db,
      reader,
      this.repository,
      new SupplierMatcher(organizations, organizationService),
      this.ledger,
      events,
      this.reads,
    );
  }

  /** Reads and judges an upload (in the reading pool); nothing is stored. */
  read(upload: Upload): Promise<ReadUploadResult> {
    return this.intake.read(upload);
  }

  /** Stores a document `read` made of `upload`, in `trx` when given (an idempotent request's). */
  store(
    scope: Scope,
    read: ReceivedDocument,
    upload: Upload,
    options: StoreOptions,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<StoreResult> {
    return this.intake.store(scope, read, upload, options, now, trx);
  }

  /** Reads and stores: for callers without an Idempotency-Key (the panel). */
  async receive(
    scope: Scope,
    upload: Upload,
    options: StoreOptions,
    now: Date = new Date(),
  ): Promise<ReadUploadResult | StoreResult> {
    const read = await this.read(upload);
    return read.ok ? this.store(scope, read.value, upload, options, now) : read;
  }

  get(owner: Owner, id: string): Promise<PurchaseInvoice | undefined> {
    return this.reads.get(owner, id);
  }

  /** Up to `limit + 1` summaries, newest first: one more than a page when another page follows. */
  list(
    owner: Owner,
    filter: PurchaseInvoiceFilter,
    page: { limit: number; after?: ListCursor; now?: Date },
  ): Promise<PurchaseInvoiceSummary[]> {
    return this.reads.list(owner, filter, {
      limit: page.limit,
      ...(page.after ? { after: page.after } : {}),
      today: (page.now ?? new Date()).toISOString().slice(0, 10),
    });
  }

  /**
   * Values the model has no field for, in document order: up to `limit + 1` from place `after`
   * on (0: the first), the last telling that another page follows. undefined for no such document.
   */
  async unmapped(
    owner: Owner,
    id: string,
    page: { limit: number; after: number },
  ): Promise<UnmappedEntry[] | undefined> {
    const stored = await this.repository.unmappedOf(owner, id);
    if (stored === undefined) return undefined;
    const all = JSON.parse(stored) as { path: string; value: string }[];
    return all
      .slice(page.after, page.after + page.limit + 1)
      .map((entry, index) => ({ n: page.after + index + 1, path: entry.path, value: entry.value }));
  }

  /** The document exactly as it was uploaded. */
  async original(owner: Owner, id: string): Promise<FileAnswer | undefined> {
    const row = await this.repository.findById(owner, id);
    const file = row && (await this.repository.fileContent(owner, id, 0));
    if (!row || !file) return undefined;
    const extension = row.content_type === 'application/pdf' ? 'pdf' : 'xml';
    return {
      body: file.content,
      contentType: row.content_type,
      filename: `${safeName(row.number ?? row.id)}.${extension}`,
      sha256: file.sha256,
    };
  }

  /** Attachment n (1-based): a BG-24 file of the XML, or another file of the PDF. */
  async attachment(owner: Owner, id: string, n: number): Promise<FileAnswer | undefined> {
    if (!Number.isInteger(n) || n < 1) return undefined;
    const file = await this.repository.fileContent(owner, id, n);
    if (!file) return undefined;
    return {
      body: file.content,
      contentType: attachmentType(file.mime_type),
      filename: safeName(file.name ?? `attachment-${n}`),
      sha256: file.sha256,
    };
  }

  /** The document drawn by our renderer, marked as a rendering of a received document, asking for nothing. */
  async renderPdf(owner: Owner, id: string, lang: PdfLanguage): Promise<PdfResult> {
    const row = await this.repository.findById(owner, id);
    if (!row) return { ok: false, code: 'NOT_FOUND' };
    const model = JSON.parse(row.document) as StoredEinvoice;
    const view = receivedView(
      { ...model, attachments: [] },
      { test: row.livemode === 0, creditNote: row.document_kind === 'credit-note' },
    );
    try {
      const body = await this.pdf.render(view, {
        lang,
        now: new Date(row.created_at),
        received: { receivedOn: row.created_at.slice(0, 10), verdict: row.verdict },
      });
      return { ok: true, body, filename: `received-${safeName(row.number ?? row.id)}.pdf` };
    } catch (error) {
      if (!(error instanceof PdfRenderError) || error.reason === 'failed') throw error;
      return {
        ok: false,
        code: 'SERVICE_UNAVAILABLE',
        message: `${error.message} Retry shortly.`,
        retryAfterSeconds: error.reason === 'busy' ? 1 : 5,
      };
    }
  }

  approve(scope: Scope, id: string, now?: Date, trx?: Kysely<Database>): Promise<LifecycleResult> {
    return this.ledger.approve(scope, id, now, trx);
  }

  dispute(scope: Scope, id: string, reason: string, now?: Date, trx?: Kysely<Database>): Promise<LifecycleResult> {
    return this.ledger.dispute(scope, id, reason, now, trx);
  }

  pay(
    scope: Scope,
    id: string,
    input: PurchasePaymentInput,
    now?: Date,
    trx?: Kysely<Database>,
  ): Promise<LifecycleResult> {
    return this.ledger.pay(scope, id, input, now, trx);
  }
}
