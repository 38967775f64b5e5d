import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { createHash } from 'node:crypto';
import { ConcurrencyGate } from '../lib/concurrency-gate.js';
import {
  PdfRenderError,
  renderCii,
  renderUbl,
  type CiiProfile,
  type CreditFacts,
  type DocumentView,
  type PdfLanguage,
  type PdfOptions,
  type StatusFacts,
  type UblProfile,
} from '../documents/index.js';
import { Decimal } from '../money/decimal.js';
import { formatMoney } from '../money/money.js';
import { minorUnitDigits } from '../money/currency.js';
import type { ErrorDetail } from '../errors/app-error.js';
import type { CompanyRepository, CompanyRow } from '../repositories/company-repository.js';
import type { CreditNoteRepository } from '../repositories/credit-note-repository.js';
import type { InvoiceRepository } from '../repositories/invoice-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import { extrasOf, withCompanyDefaults } from './document-extras.js';
import { documentViewOf, einvoiceProblems, type DocumentSource } from './document-view.js';
import { amountDueOf } from './invoice-mapping.js';
import { draftLineOf } from './invoice-content.js';
import { todayUtc } from './invoice-input.js';
import { buyerOf, sellerOf } from './parties.js';
import { creditNoteSource, issuedInvoiceSource } from './document-sources.js';
import type { Owner } from '../db/scope.js';

// The documents of an invoice or credit note: UBL (Peppol BIS 3, XRechnung), CII (Factur-X
// EN 16931, XRechnung) and the PDF/A-3 with its CII embedded. A document is rendered from what
// was stored when it was issued; one that would fail the official rules is never answered: the
// gaps are answered instead (422 EINVOICE_INCOMPLETE), each named by its rule. A draft has no
// e-invoice (409), only a PDF marked DRAFT.
//
// The PDF of an issued document is the same bytes every time; the first time it is rendered
// in a language its SHA-256 is recorded, and the document's answer shows it. A status copy
// (copy: 'status') adds what happened since: payments, credit notes, void, the open balance.

export type DocumentKind = 'invoice' | 'credit-note';

export type RenderRequest =
  | { format: 'ubl'; profile: UblProfile }
  | { format: 'cii'; profile: CiiProfile }
  | { format: 'pdf'; lang: PdfLanguage; copy?: 'original' | 'status' };

export type RenderResult =
  | { ok: true; body: string | Buffer; contentType: string; filename: string; sha256?: string }
  | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_ISSUED' }
  | { ok: false; code: 'EINVOICE_INCOMPLETE'; details: ErrorDetail[] }
  | { ok: false; code: 'SERVICE_UNAVAILABLE'; message: string; retryAfterSeconds: number };

/** Renders a PDF: the worker pool in the service, in-thread where nothing else runs. */
export interface PdfRenderer {
  render(view: DocumentView, options: PdfOptions): Promise<Buffer>;
}

const safeName = (number: string) => number.replace(/[^A-Za-z0-9._-]+/g, '_');

/** A full queue clears within seconds; a document past its limits needs the machine less busy. */
function unavailable(error: PdfRenderError): RenderResult {
  return {
    ok: false,
    code: 'SERVICE_UNAVAILABLE',
    message: `${error.message} Retry shortly.`,
    retryAfterSeconds: error.reason === 'busy' ? 1 : 5,
  };
}

/** What a message about a document says and where it goes (src/delivery). */
export interface SendingFacts {
  draft: boolean;
  number: string;
  issueDate: string;
  dueDate: string | null;
  currency: string;
  /** BT-115, with the currency's minor digits. */
  payable: string;
  sellerName: string;
  /** The seller's contact email (BT-43): the Reply-To. */
  sellerEmail: string | null;
  buyerName: string;
  /** The buyer's email as the document has it: where it is sent without other recipients. */
  buyerEmail: string | null;
  buyerCountry: string | null;
}

export class DocumentService {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly creditNotes: CreditNoteRepository,
    private readonly companies: CompanyRepository,
    private readonly organizations: OrganizationRepository,
    private readonly pdf: PdfRenderer,
    /** PDFs waiting for their data to be read (and XML documents waiting their turn), past which the service answers 503. */
    maxWaiting = 1000,
  ) {
    const full = () => new PdfRenderError('busy', 'Too many documents are waiting to be rendered.');
    this.preparing = new ConcurrencyGate(1, maxWaiting, full);
    this.xml = new ConcurrencyGate(2, maxWaiting, full);
  }

  private readonly preparing: ConcurrencyGate;
  /** XML is CPU work too: a few documents at a time per process, the rest wait their turn (PDFs wait in their pool's queue). */
  private readonly xml: ConcurrencyGate;

  /** What an invoice's documents are made of: its stored content, or a draft's as it is now. */
  async invoiceSource(
    owner: Owner,
    id: string,
    now: Date,
    trx?: Kysely<Database>,
  ): Promise<DocumentSource | undefined> {
    const found = await this.invoices.findById(owner, id, trx);
    if (!found) return undefined;
    const row = found.invoice;
    if (row.status !== 'draft') return issuedInvoiceSource(row, found.lines);
    const [company, organization] = await Promise.all([
      this.company(owner.companyId, trx),
      this.organizations.findById(owner, row.organization_id, trx),
    ]);
    return {
      typeCode: '380',
      number: row.draft_number ?? 'DRAFT',
      issueDate: row.issue_date ?? todayUtc(now),
      dueDate: row.due_date,
      currency: row.currency,
      pricesIncludeTax: row.prices_include_tax === 1,
      buyerReference: row.buyer_reference,
      purchaseOrderReference: row.purchase_order_reference,
      tenderReference: row.tender_reference,
      note: row.note,
      extras: withCompanyDefaults(extrasOf(row), company, row.currency),
      seller: sellerOf(company),
      buyer: buyerOf(organization!),
      lines: found.lines.map((line) => draftLineOf(line)),
      precedingInvoice: null,
      draft: true,
      test: row.livemode === 0,
      stored: { roundingAmount: row.rounding_amount, payable: row.payable },
      pdfNote: row.note,
    };
  }

  async creditNoteSource(owner: Owner, id: string, trx?: Kysely<Database>): Promise<DocumentSource | undefined> {
    const found = await this.creditNotes.findById(owner, id, trx);
    return found ? creditNoteSource(found.creditNote, found.lines) : undefined;
  }

  /** What a message about the document needs; undefined for no such document. */
  async sendingFacts(kind: DocumentKind, owner: Owner, id: string, now: Date): Promise<SendingFacts | undefined> {
    const source =
      kind === 'invoice' ? await this.invoiceSource(owner, id, now) : await this.creditNoteSource(owner, id);
    if (!source) return undefined;
    const view = documentViewOf(source);
    return {
      draft: source.draft,
      number: view.number,
      issueDate: view.issueDate,
      dueDate: view.dueDate,
      currency: view.currency.code,
      payable: view.totals.payable,
      sellerName: view.seller.name,
      sellerEmail: view.seller.contact?.email ?? null,
      buyerName: view.buyer.name,
      buyerEmail: source.buyer.email ?? null,
      buyerCountry: view.buyer.address.countryCode,
    };
  }

  /**
   * What a hosted page shows of an issued document: its view (what the PDF is made of), the
   * status now (as a status copy tells it) and whether its CII can be made; undefined for no such
   * document or a draft.
   */
  async pageFacts(
    kind: DocumentKind,
    owner: Owner,
    id: string,
    now: Date,
  ): Promise<{ view: DocumentView; status: StatusFacts; xmlReady: boolean; credit?: CreditFacts } | undefined> {
    const source =
      kind === 'invoice' ? await this.invoiceSource(owner, id, now) : await this.creditNoteSource(owner, id);
    if (!source || source.draft) return undefined;
    const view = documentViewOf(source);
    const status = await this.statusOf(kind, owner, id, now);
    const xmlReady = einvoiceProblems(view, ['en16931']).length === 0;
    return { view, status, xmlReady, ...(source.credit ? { credit: source.credit } : {}) };
  }

  private async company(companyId: string, trx?: Kysely<Database>): Promise<CompanyRow> {
    const company = await this.companies.findById(companyId, trx);
    if (!company) throw new Error(`The company ${companyId} of an authenticated key does not exist`);
    return company;
  }

  /**
   * A document of an invoice or credit note, for whoever asks: the API's routes and the panel's
   * downloads both come here, so both answer the same bytes.
   */
  async render(
    kind: DocumentKind,
    owner: Owner,
    id: string,
    request: RenderRequest,
    now: Date = new Date(),
  ): Promise<RenderResult> {
    if (request.format !== 'pdf') {
      // Read like any GET (on PostgreSQL many reads wait for their answers at once); only the
      // rendering, CPU work, takes its turn in the gate, so a wait on the database holds no slot.
      const source =
        kind === 'invoice' ? await this.invoiceSource(owner, id, now) : await this.creditNoteSource(owner, id);
      if (!source) return { ok: false, code: 'NOT_FOUND' };
      try {
        return await this.xml.run(async () => renderXml(kind, source, request));
      } catch (error) {
        if (error instanceof PdfRenderError) return unavailable(error);
        throw error;
      }
    }
    // What a PDF needs is read and computed on the event loop, one document per turn: reads
    // on SQLite never wait, so many PDFs asked for at once would otherwise read and compute
    // (tens of milliseconds for a 500-line invoice) in one unbroken chain.
    let prepared: { source: DocumentSource; view: DocumentView; status?: StatusFacts } | undefined;
    try {
      prepared = await this.preparing.run(async () => {
        const source =
          kind === 'invoice' ? await this.invoiceSource(owner, id, now) : await this.creditNoteSource(owner, id);
        if (!source) return undefined;
        await new Promise((next) => setImmediate(next)); // the view is computed in a turn of its own
        const status =
          request.copy === 'status' && !source.draft ? await this.statusOf(kind, owner, id, now) : undefined;
        return { source, view: documentViewOf(source), ...(status ? { status } : {}) };
      });
    } catch (error) {
      if (error instanceof PdfRenderError) return unavailable(error);
      throw error;
    }
    if (!prepared) return { ok: false, code: 'NOT_FOUND' };
    return this.renderPdf(kind, owner, id, prepared, request, now);
  }

  private async renderPdf(
    kind: DocumentKind,
    owner: Owner,
    id: string,
    { source, view, status }: { source: DocumentSource; view: DocumentView; status?: StatusFacts },
    request: Extract<RenderRequest, { format: 'pdf' }>,
    now: Date,
  ): Promise<RenderResult> {
    const copy = status !== undefined;
    const options: PdfOptions = { lang: request.lang, note: source.pdfNote ?? null };
    if (source.credit) options.credit = source.credit;
    if (status) {
      options.status = status;
      options.now = now;
    }
    let pdf: Buffer;
    try {
      pdf = await this.pdf.render(view, options);
    } catch (error) {
      if (!(error instanceof PdfRenderError) || error.reason === 'failed') throw error;
      return unavailable(error);
    }
    const sha256 = createHash('sha256').update(pdf).digest('hex');
    if (!source.draft && !copy) {
      const repository = kind === 'invoice' ? this.invoices : this.creditNotes;
      await repository.recordPdfDigest(owner, id, request.lang, sha256);
    }
    const filename = `${kind}-${safeName(source.number)}${copy ? '-status' : ''}.pdf`;
    return { ok: true, body: pdf, contentType: 'application/pdf', filename, sha256 };
  }

  /** What a status copy tells: an invoice's payments, credit notes and balance now; for a credit note, its invoice's balance. */
  private async statusOf(kind: DocumentKind, owner: Owner, id: string, now: Date): Promise<StatusFacts> {
    let invoiceId = id;
    if (kind === 'credit-note') invoiceId = (await this.creditNotes.findById(owner, id))!.creditNote.invoice_id;
    const found = (await this.invoices.findById(owner, invoiceId))!;
    const row = found.invoice;
    const digits = minorUnitDigits(row.currency);
    const [payments, credits] = await Promise.all([
      this.invoices.paymentsOf(owner, [invoiceId]),
      this.creditNotes.summariesOfInvoice(owner, invoiceId),
    ]);
    return {
      asOf: todayUtc(now),
      status: row.status === 'draft' ? 'issued' : row.status,
      paidOn: row.paid_at ? row.paid_at.slice(0, 10) : null,
      payments: (payments.get(invoiceId) ?? [])
        .filter((p) => p.kind !== 'refund')
        .map((p) => ({ date: p.date, amount: formatMoney(new Decimal(p.amount), digits) })),
      refunds: (payments.get(invoiceId) ?? [])
        .filter((p) => p.kind === 'refund')
        .map((p) => ({ date: p.date, amount: formatMoney(new Decimal(p.amount), digits) })),
      credits: credits.map((c) => ({ number: c.number, date: c.issue_date, amount: c.payable })),
      balance: formatMoney(amountDueOf(row), digits),
      invoiceNumber: kind === 'credit-note' ? row.number : null,
    };
  }
}

/** An invoice's or credit note's XML (UBL or CII, EN 16931 or XRechnung), or why it cannot be made. */
function renderXml(
  kind: DocumentKind,
  source: DocumentSource,
  request: Exclude<RenderRequest, { format: 'pdf' }>,
): RenderResult {
  if (source.draft) return { ok: false, code: 'INVOICE_NOT_ISSUED' };
  const view = documentViewOf(source);
  const base = `${kind}-${safeName(source.number)}`;
  const target = request.profile;
  const details = einvoiceProblems(view, [target]);
  if (details.length > 0) return { ok: false, code: 'EINVOICE_INCOMPLETE', details };
  const suffix =
    request.format === 'cii'
      ? target === 'xrechnung'
        ? '-cii-xrechnung'
        : '-cii'
      : target === 'xrechnung'
        ? '-xrechnung'
        : '';
  const body =
    request.format === 'ubl'
      ? renderUbl(view, { profile: request.profile })
      : renderCii(view, { profile: request.profile });
  return { ok: true, body, contentType: 'application/xml; charset=utf-8', filename: `${base}${suffix}.xml` };
}
