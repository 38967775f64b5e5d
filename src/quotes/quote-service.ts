import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { modeColumn, type Owner, type Scope } from '../db/scope.js';
import { inTransaction } from '../db/transactions.js';
import type { ErrorDetail } from '../errors/app-error.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { newId } from '../lib/ids.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import type { Invoice } from '../schemas/invoice.js';
import type { CreateQuoteInput, Quote, QuoteToInvoiceInput, UpdateQuoteInput } from '../schemas/quote.js';
import { adjustmentsOf, apiExtras, extrasColumns, extrasOf } from '../services/document-extras.js';
import { computeContent, oversizedAmounts } from '../services/invoice-content.js';
import { datesAtIssue, todayUtc } from '../services/invoice-input.js';
import { yearOf } from '../services/invoice-numbering.js';
import { type InvoiceFailure, type InvoiceService } from '../services/invoice-service.js';
import { lineFieldsOf } from '../services/stored-line.js';
import { buyerFromSnapshot, buyerOf, sellerFromSnapshot, sellerOf } from '../services/parties.js';
import { PdfRenderError, type DocumentView, type PdfLanguage } from '../documents/index.js';
import {
  NO_HOSTED_LINK,
  hostedLinkUnlessDraft,
  type HostedLinkFacts,
  type HostedLinkOf,
} from '../services/hosted-link-port.js';
import type { PdfRenderer } from '../services/document-service.js';
import { documentViewOf } from '../services/document-view.js';
import { draftLineOf } from '../services/invoice-content.js';
import {
  asQuoteDetails,
  contentInputOf,
  readQuoteContent,
  withoutUndefined,
  type QuoteContentInput,
} from './quote-content.js';
import { formatQuoteNumber, formatTestQuoteNumber, quoteFromRows, quoteStatusOf } from './quote-mapping.js';
import type { QuoteFilter, QuoteLineRow, QuotePageCursor, QuoteRepository, QuoteRow } from './quote-repository.js';

// Quotes from creation to invoice. The content is read, checked and computed by the invoice's
// own code (readInvoiceContent, computeContent), so a quote and the invoice made from it have the
// same lines and the same totals. Everything that can refuse runs before the transaction that
// takes a number; state changes are compare-and-set, so racing answers and conversions have one
// winner.

export type QuoteFailure =
  | { ok: false; code: 'VALIDATION_ERROR'; details: ErrorDetail[] }
  | { ok: false; code: 'QUOTE_ALREADY_INVOICED'; details: ErrorDetail[] }
  | {
      ok: false;
      code:
        | 'NOT_FOUND'
        | 'ORGANIZATION_NOT_FOUND'
        | 'ORGANIZATION_ARCHIVED'
        | 'QUOTE_NOT_DRAFT'
        | 'QUOTE_NOT_OPEN'
        | 'QUOTE_EXPIRED'
        | 'QUOTE_NOT_ACCEPTED';
    };

export type QuoteResult = { ok: true; value: Quote } | QuoteFailure;

/** A quote that was sent: numbered, dated, with its parties' snapshots. */
type SentQuoteRow = QuoteRow & {
  number: string;
  issue_date: string;
  valid_until: string;
  seller_snapshot: string;
  buyer_snapshot: string;
};

const isSent = (row: QuoteRow): row is SentQuoteRow =>
  row.status !== 'draft' &&
  row.number !== null &&
  row.issue_date !== null &&
  row.valid_until !== null &&
  row.seller_snapshot !== null &&
  row.buyer_snapshot !== null;

/** What a sent quote's hosted page shows (src/hosted reads it through the container's port). */
export interface QuotePageFacts {
  view: DocumentView;
  status: Exclude<Quote['status'], 'draft'>;
  validUntil: string;
  /** When the buyer accepted or declined it; null while open (or expired). */
  answeredAt: string | null;
}

/** How often an edit or a send retries after another edit of the same draft slipped in between. */
const MAX_ATTEMPTS = 8;

export class QuoteService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly quotes: QuoteRepository,
    private readonly organizations: OrganizationRepository,
    private readonly companies: CompanyRepository,
    private readonly invoices: InvoiceService,
    private readonly events: EventRecorder,
    private readonly pdf: PdfRenderer,
    /** A sent quote's hosted page link (hosted/, a capability of its own, fills it in through the container). */
    private readonly hostedLinkOf: HostedLinkOf = NO_HOSTED_LINK,
  ) {}

  /** The hosted link facts of a quote in `status`: none for a draft. */
  private hostedOf(owner: Owner, id: string, status: string, trx: Kysely<Database>): Promise<HostedLinkFacts> {
    return hostedLinkUnlessDraft(this.hostedLinkOf, owner, 'quote', id, status, trx);
  }

  async get(
    owner: Owner,
    id: string,
    now: Date = new Date(),
    trx: Kysely<Database> = this.db,
  ): Promise<Quote | undefined> {
    const found = await this.quotes.findById(owner, id, trx);
    if (!found) return undefined;
    const current =
      found.quote.status === 'draft'
        ? await this.invoices.currentParties(owner, found.quote.organization_id, trx)
        : undefined;
    const hosted = await this.hostedOf(owner, id, found.quote.status, trx);
    return quoteFromRows(found.quote, found.lines, { today: todayUtc(now), ...(current ? { current } : {}), hosted });
  }

  /** A page of quotes, newest first: up to `limit` of them, and the rows they came from (for the cursor). */
  async list(
    owner: Owner,
    filter: Omit<QuoteFilter, 'today'>,
    page: { limit: number; after?: QuotePageCursor },
    now: Date = new Date(),
  ): Promise<{ rows: QuoteRow[]; quotes: Quote[] }> {
    const today = todayUtc(now);
    const rows = await this.quotes.page(owner, { ...filter, today }, page);
    const quotes = await this.shown(owner, rows.slice(0, page.limit), today);
    return { rows, quotes };
  }

  /** The panel's numbered pages: quotes newest first, `size` a page, and how many there are. */
  async page(
    owner: Owner,
    page: number,
    size: number,
    now: Date = new Date(),
  ): Promise<{ quotes: Quote[]; total: number; page: number; pages: number }> {
    const total = await this.quotes.count(owner);
    const pages = Math.max(1, Math.ceil(total / size));
    const shown = Math.min(Math.max(1, page), pages);
    const rows = await this.quotes.pageAt(owner, (shown - 1) * size, size);
    return { quotes: await this.shown(owner, rows, todayUtc(now)), total, page: shown, pages };
  }

  /** Rows as the API shows them, lines and (for drafts) current parties loaded for all at once. */
  private async shown(owner: Owner, rows: QuoteRow[], today: string): Promise<Quote[]> {
    const lines = await this.quotes.linesOf(
      owner.companyId,
      rows.map((row) => row.id),
    );
    const parties = new Map<string, Awaited<ReturnType<InvoiceService['currentParties']>>>();
    for (const row of rows) {
      if (row.status === 'draft' && !parties.has(row.organization_id))
        parties.set(row.organization_id, await this.invoices.currentParties(owner, row.organization_id));
    }
    return rows.map((row) => {
      const current = parties.get(row.organization_id);
      return quoteFromRows(row, lines.get(row.id) ?? [], {
        today,
        ...(row.status === 'draft' && current ? { current } : {}),
      });
    });
  }

  /**
   * GET /quote/{id}/pdf: the quote in the invoice's house style, titled Quote / Angebot / Devis,
   * with its validity, without payment terms, payment instruction or code, and without XML. A
   * draft has no number yet, so no PDF.
   */
  async renderPdf(
    owner: Owner,
    id: string,
    lang: PdfLanguage,
  ): Promise<
    | { ok: true; body: Buffer; contentType: string; filename: string }
    | { ok: false; code: 'NOT_FOUND' | 'QUOTE_NOT_SENT' }
    | { ok: false; code: 'SERVICE_UNAVAILABLE'; message: string; retryAfterSeconds: number }
  > {
    const found = await this.quotes.findById(owner, id);
    if (!found) return { ok: false, code: 'NOT_FOUND' };
    const row = found.quote;
    if (!isSent(row)) return { ok: false, code: 'QUOTE_NOT_SENT' };
    const view = this.viewOf(row, found.lines);
    try {
      const body = await this.pdf.render(view, { lang, quote: { validUntil: row.valid_until } });
      return {
        ok: true,
        body,
        contentType: 'application/pdf',
        filename: `quote-${row.number.replace(/[^A-Za-z0-9._-]+/g, '_')}.pdf`,
      };
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

  /** A sent quote as its PDF and hosted page show it: the invoice's view, asking for no payment. */
  private viewOf(row: SentQuoteRow, lines: QuoteLineRow[]): DocumentView {
    return documentViewOf({
      typeCode: '380',
      number: row.number,
      issueDate: row.issue_date,
      dueDate: null,
      currency: row.currency,
      pricesIncludeTax: row.prices_include_tax === 1,
      buyerReference: row.buyer_reference,
      purchaseOrderReference: row.purchase_order_reference,
      note: row.note,
      // No payment means and no payment terms: a quote asks for no payment.
      extras: { ...extrasOf({ ...row, payment_means: null }), paymentTerms: null },
      seller: sellerFromSnapshot(row.seller_snapshot),
      buyer: buyerFromSnapshot(row.buyer_snapshot),
      lines: lines.map((line) => draftLineOf(line)),
      precedingInvoice: null,
      draft: false,
      test: row.livemode === 0,
      stored: { roundingAmount: row.rounding_amount, payable: row.payable },
      pdfNote: row.note,
    });
  }

  /**
   * What the hosted page of a sent quote shows: its view, its state now (expired read as the API
   * reads it), its validity and when it was answered; undefined for no such quote or a draft.
   */
  async pageFacts(owner: Owner, id: string, now: Date = new Date()): Promise<QuotePageFacts | undefined> {
    const found = await this.quotes.findById(owner, id);
    if (!found) return undefined;
    const row = found.quote;
    if (!isSent(row)) return undefined;
    const status = quoteStatusOf(row, todayUtc(now));
    if (status === 'draft') return undefined;
    return {
      view: this.viewOf(row, found.lines),
      status,
      validUntil: row.valid_until,
      answeredAt: row.accepted_at ?? row.declined_at,
    };
  }

  private async company(companyId: string, trx?: Kysely<Database>) {
    const company = await this.companies.findById(companyId, trx);
    if (!company) throw new Error(`The company ${companyId} of an authenticated key does not exist`);
    return company;
  }

  /** POST /quote: sent at once (numbered, status open) or a draft. */
  async create(
    scope: Scope,
    input: CreateQuoteInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<QuoteResult> {
    const company = await this.company(scope.companyId, trx);
    const { status, ...body } = input;
    const read = readQuoteContent(body, company.currency);
    if (!read.ok) return read;
    const content = read.value;
    const organization = await this.organizations.findById(scope, content.organizationId, trx);
    if (!organization) return { ok: false, code: 'ORGANIZATION_NOT_FOUND' };
    if (organization.archived_at !== null) return { ok: false, code: 'ORGANIZATION_ARCHIVED' };

    const draft = status === 'draft';
    const dates = draft
      ? { ok: true as const, issueDate: content.issueDate, dueDate: content.dueDate }
      : datesAtIssue(content, now);
    if (!dates.ok) return { ok: false, code: 'VALIDATION_ERROR', details: asQuoteDetails(dates.details) };
    const computed = computeContent(content.lines, content, adjustmentsOf(content));
    const oversized = oversizedAmounts(computed, content.digits, 'quote');
    if (oversized.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: oversized };

    const id = newId('quo');
    const at = now.toISOString();
    const { payment_means: _none, ...extras } = extrasColumns(content);
    const row: QuoteRow = {
      id,
      company_id: scope.companyId,
      livemode: modeColumn(scope),
      organization_id: organization.id,
      number: null,
      status: draft ? 'draft' : 'open',
      issue_date: dates.issueDate,
      valid_until: dates.dueDate,
      currency: content.currency,
      prices_include_tax: content.pricesIncludeTax ? 1 : 0,
      buyer_reference: content.buyerReference,
      purchase_order_reference: content.purchaseOrderReference,
      note: content.note,
      buyer_snapshot: draft ? null : JSON.stringify(buyerOf(organization)),
      seller_snapshot: draft ? null : JSON.stringify(sellerOf(company)),
      ...extras,
      ...computed.totals,
      sent_at: draft ? null : at,
      accepted_at: null,
      declined_at: null,
      invoiced_at: null,
      invoice_id: null,
      version: 1,
      created_at: at,
      updated_at: at,
    };
    const lines = computed.lines.map((line) => ({ ...line, quote_id: id, company_id: scope.companyId }));
    const today = todayUtc(now);
    return inTransaction(this.db, trx, async (t) => {
      if (!draft)
        row.number = await this.quotes.nextNumber(t, this.sequenceOf(scope, row.issue_date!), this.formatOf(scope));
      await this.quotes.insert(t, row, lines);
      const quote = quoteFromRows(row, lines, {
        today,
        ...(draft ? { current: { buyer: buyerOf(organization), seller: sellerOf(company) } } : {}),
        hosted: await this.hostedOf(scope, id, row.status, t),
      });
      await this.events.record(t, scope, 'quote.created', quote, now);
      if (!draft) await this.events.record(t, scope, 'quote.sent', quote, now);
      return { ok: true, value: quote };
    });
  }

  private sequenceOf(owner: Owner, issueDate: string) {
    return { companyId: owner.companyId, livemode: modeColumn(owner), sequence: 'quote', year: yearOf(issueDate) };
  }

  private formatOf(owner: Owner) {
    return owner.livemode ? formatQuoteNumber : formatTestQuoteNumber;
  }

  /**
   * POST /quote/{id}/send: a draft gets its number, dates and snapshots and is open. The draft is
   * claimed (draft → open) before its number is taken, so a send that lost a race takes none.
   */
  async send(scope: Scope, id: string, now: Date = new Date(), trx?: Kysely<Database>): Promise<QuoteResult> {
    const company = await this.company(scope.companyId, trx);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const found = await this.quotes.findById(scope, id, trx);
      if (!found) return { ok: false, code: 'NOT_FOUND' };
      const draft = found.quote;
      if (draft.status !== 'draft') return { ok: false, code: 'QUOTE_NOT_DRAFT' };
      const organization = await this.organizations.findById(scope, draft.organization_id, trx);
      if (!organization) return { ok: false, code: 'ORGANIZATION_NOT_FOUND' };
      if (organization.archived_at !== null) return { ok: false, code: 'ORGANIZATION_ARCHIVED' };
      const dates = datesAtIssue({ issueDate: draft.issue_date, dueDate: draft.valid_until }, now);
      if (!dates.ok) return { ok: false, code: 'VALIDATION_ERROR', details: asQuoteDetails(dates.details) };
      const at = now.toISOString();
      const sent = await inTransaction(this.db, trx, async (t): Promise<QuoteResult | null> => {
        // Sent only as it was read: an edit that slipped in between is read again.
        const claimed = await this.quotes.send(t, scope, id, draft.version, {
          issue_date: dates.issueDate,
          valid_until: dates.dueDate,
          buyer_snapshot: JSON.stringify(buyerOf(organization)),
          seller_snapshot: JSON.stringify(sellerOf(company)),
          sent_at: at,
          updated_at: at,
        });
        if (!claimed) return null;
        await this.quotes.setNumber(
          t,
          scope,
          id,
          await this.quotes.nextNumber(t, this.sequenceOf(scope, dates.issueDate), this.formatOf(scope)),
        );
        const quote = (await this.get(scope, id, now, t))!;
        await this.events.record(t, scope, 'quote.sent', quote, now);
        return { ok: true, value: quote };
      });
      if (sent) return sent;
    }
    return { ok: false, code: 'QUOTE_NOT_DRAFT' };
  }

  /**
   * PATCH /quote/{id}: a draft's content, merged with what is sent (`lines`, when sent, replace
   * all lines), checked as a create body is. The edit is written only if the draft is still the
   * one read (its version): racing edits each apply to the other's result, and a send that won
   * the race leaves the edit refused with 409 QUOTE_NOT_DRAFT.
   */
  async update(
    scope: Scope,
    id: string,
    patch: UpdateQuoteInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<QuoteResult> {
    const company = await this.company(scope.companyId, trx);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const found = await this.quotes.findById(scope, id, trx);
      if (!found) return { ok: false, code: 'NOT_FOUND' };
      if (found.quote.status !== 'draft') return { ok: false, code: 'QUOTE_NOT_DRAFT' };
      const merged: QuoteContentInput = { ...contentInputOf(found.quote, found.lines), ...withoutUndefined(patch) };
      // A field sent as null falls back to its default, as in a create body.
      if (patch.currency === null) merged.currency = company.currency;
      const read = readQuoteContent(merged, company.currency);
      if (!read.ok) return read;
      const content = read.value;
      if (patch.organizationId !== undefined) {
        const organization = await this.organizations.findById(scope, content.organizationId, trx);
        if (!organization) return { ok: false, code: 'ORGANIZATION_NOT_FOUND' };
        if (organization.archived_at !== null) return { ok: false, code: 'ORGANIZATION_ARCHIVED' };
      }
      const computed = computeContent(content.lines, content, adjustmentsOf(content));
      const oversized = oversizedAmounts(computed, content.digits, 'quote');
      if (oversized.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: oversized };
      const { payment_means: _none, ...extras } = extrasColumns(content);
      const updated = await inTransaction(this.db, trx, async (t) => {
        const done = await this.quotes.replaceDraft(
          t,
          scope,
          id,
          found.quote.version,
          {
            organization_id: content.organizationId,
            issue_date: content.issueDate,
            valid_until: content.dueDate,
            currency: content.currency,
            prices_include_tax: content.pricesIncludeTax ? 1 : 0,
            buyer_reference: content.buyerReference,
            purchase_order_reference: content.purchaseOrderReference,
            note: content.note,
            ...extras,
            ...computed.totals,
            updated_at: now.toISOString(),
          },
          computed.lines.map((line) => ({ ...line, quote_id: id, company_id: scope.companyId })),
        );
        if (!done) return null;
        const quote = (await this.get(scope, id, now, t))!;
        await this.events.record(t, scope, 'quote.updated', quote, now);
        return quote;
      });
      if (updated) return { ok: true, value: updated };
    }
    return { ok: false, code: 'QUOTE_NOT_DRAFT' };
  }

  /** DELETE /quote/{id}: drafts only (a sent quote has a number, which is never given back). */
  async delete(
    scope: Scope,
    id: string,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<{ ok: true } | { ok: false; code: 'NOT_FOUND' | 'QUOTE_NOT_DRAFT' }> {
    return inTransaction(this.db, trx, async (t) => {
      // The draft as it was is the deleted event's object.
      const draft = await this.get(scope, id, now, t);
      if (!draft) return { ok: false, code: 'NOT_FOUND' };
      if (draft.status !== 'draft' || !(await this.quotes.deleteDraft(t, scope, id)))
        return { ok: false, code: 'QUOTE_NOT_DRAFT' };
      await this.events.record(t, scope, 'quote.deleted', draft, now);
      return { ok: true };
    });
  }

  /** POST /quote/{id}/accept and /decline: an open quote, while valid, gets the buyer's answer. */
  async answer(
    scope: Scope,
    id: string,
    answer: 'accepted' | 'declined',
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<QuoteResult> {
    const today = todayUtc(now);
    return inTransaction(this.db, trx, async (t): Promise<QuoteResult> => {
      if (!(await this.quotes.answer(t, scope, id, answer, today, now.toISOString()))) {
        const found = await this.quotes.findById(scope, id, t);
        if (!found) return { ok: false, code: 'NOT_FOUND' };
        const { status, valid_until } = found.quote;
        return {
          ok: false,
          code: status === 'open' && valid_until !== null && valid_until < today ? 'QUOTE_EXPIRED' : 'QUOTE_NOT_OPEN',
        };
      }
      const quote = (await this.get(scope, id, now, t))!;
      await this.events.record(t, scope, answer === 'accepted' ? 'quote.accepted' : 'quote.declined', quote, now);
      return { ok: true, value: quote };
    });
  }

  /**
   * POST /quote/{id}/invoice: an accepted quote becomes an invoice (issued, or a draft) with its
   * content, exactly once. The quote is claimed first in the transaction that creates the
   * invoice: of racing calls one claims it, the others find it claimed (PostgreSQL: after the
   * winner's commit, by its row lock; SQLite: the writer's turns) and are refused. An invoice
   * refused (an archived buyer, dates out of order) writes nothing, and the claim is released
   * in the same transaction.
   */
  async invoice(
    scope: Scope,
    id: string,
    input: QuoteToInvoiceInput = {},
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<{ ok: true; value: { quote: Quote; invoice: Invoice } } | QuoteFailure | InvoiceFailure> {
    const at = now.toISOString();
    return inTransaction(this.db, trx, async (t) => {
      if (!(await this.quotes.claimForInvoice(t, scope, id, at))) {
        const found = await this.quotes.findById(scope, id, t);
        if (!found) return { ok: false as const, code: 'NOT_FOUND' as const };
        if (found.quote.invoiced_at !== null) {
          const invoiceId = found.quote.invoice_id ?? '';
          return {
            ok: false as const,
            code: 'QUOTE_ALREADY_INVOICED' as const,
            details: [
              {
                field: 'invoiceId',
                code: 'already_invoiced',
                message: `The quote was made into the invoice ${invoiceId}.`,
              },
            ],
          };
        }
        return { ok: false as const, code: 'QUOTE_NOT_ACCEPTED' as const };
      }
      const found = (await this.quotes.findById(scope, id, t))!;
      const quote = found.quote;
      const created = await this.invoices.create(
        scope,
        {
          ...apiExtras(extrasOf({ ...quote, payment_means: null })),
          organizationId: quote.organization_id,
          issueDate: input.issueDate ?? null,
          dueDate: input.dueDate ?? null,
          currency: quote.currency,
          pricesIncludeTax: quote.prices_include_tax === 1,
          buyerReference: quote.buyer_reference,
          // BT-13 is the buyer's order number, if there is one; the quote's number is BT-17.
          purchaseOrderReference: input.purchaseOrderReference ?? quote.purchase_order_reference,
          note: quote.note,
          lines: found.lines.map(lineFieldsOf),
          status: input.status ?? 'issued',
        },
        now,
        t,
        { quoteId: quote.id, tenderReference: quote.number },
      );
      if (!created.ok) {
        await this.quotes.releaseClaim(t, scope, id);
        return created;
      }
      await this.quotes.setInvoice(t, scope, id, created.value.id);
      const invoiced = (await this.get(scope, id, now, t))!;
      await this.events.record(t, scope, 'quote.invoiced', invoiced, now);
      return { ok: true as const, value: { quote: invoiced, invoice: created.value } };
    });
  }
}
