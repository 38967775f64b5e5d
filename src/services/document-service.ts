import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { renderCii, renderPdf, renderUbl, type CiiProfile, type PdfLanguage, type UblProfile } from '../documents/index.js';
import type { ErrorDetail } from '../errors/app-error.js';
import type { CompanyRepository, CompanyRow } from '../repositories/company-repository.js';
import type { CreditNoteRepository } from '../repositories/credit-note-repository.js';
import type { InvoiceRepository } from '../repositories/invoice-repository.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import { extrasOf, withCompanyDefaults } from './document-extras.js';
import { documentViewOf, einvoiceProblems, type DocumentSource } from './document-view.js';
import { draftLineOf } from './invoice-content.js';
import { todayUtc } from './invoice-input.js';
import { buyerOf, sellerOf } from './parties.js';
import { creditNoteSource, issuedInvoiceSource } from './einvoice-readiness.js';
import type { Owner } from './scope.js';

// The documents of an invoice or credit note: UBL (Peppol BIS 3, XRechnung), CII (Factur-X
// EN 16931, XRechnung) and the PDF/A-3 with its CII embedded. A document is rendered from what
// was stored when it was issued; one that would fail the official rules is never answered: the
// gaps are answered instead (422 EINVOICE_INCOMPLETE), each named by its rule. A draft has no
// e-invoice (409), only a PDF marked DRAFT.

export type DocumentKind = 'invoice' | 'credit-note';

export type RenderRequest = { format: 'ubl'; profile: UblProfile } | { format: 'cii'; profile: CiiProfile } | { format: 'pdf'; lang: PdfLanguage };

export type RenderResult =
  | { ok: true; body: string | Buffer; contentType: string; filename: string }
  | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_ISSUED' }
  | { ok: false; code: 'EINVOICE_INCOMPLETE'; details: ErrorDetail[] };

const safeName = (number: string) => number.replace(/[^A-Za-z0-9._-]+/g, '_');

export class DocumentService {
  constructor(
    private readonly invoices: InvoiceRepository,
    private readonly creditNotes: CreditNoteRepository,
    private readonly companies: CompanyRepository,
    private readonly organizations: OrganizationRepository,
  ) {}

  /** What an invoice's documents are made of: its stored content, or a draft's as it is now. */
  async invoiceSource(owner: Owner, id: string, now: Date, trx?: Kysely<Database>): Promise<DocumentSource | undefined> {
    const found = await this.invoices.findById(owner, id, trx);
    if (!found) return undefined;
    const row = found.invoice;
    if (row.status !== 'draft') return issuedInvoiceSource(row, found.lines);
    const [company, organization] = await Promise.all([this.company(owner.companyId, trx), this.organizations.findById(owner, row.organization_id, trx)]);
    return {
      typeCode: '380',
      number: row.draft_number ?? 'DRAFT',
      issueDate: row.issue_date ?? todayUtc(now),
      dueDate: row.due_date,
      currency: row.currency,
      pricesIncludeTax: row.prices_include_tax === 1,
      buyerReference: row.buyer_reference,
      purchaseOrderReference: row.purchase_order_reference,
      note: row.note,
      extras: withCompanyDefaults(extrasOf(row), company, row.currency),
      seller: sellerOf(company),
      buyer: buyerOf(organization!),
      lines: found.lines.map((line) => draftLineOf(line)),
      precedingInvoice: null,
      draft: true,
      test: row.livemode === 0,
      stored: { roundingAmount: row.rounding_amount, payable: row.payable },
    };
  }

  async creditNoteSource(owner: Owner, id: string, trx?: Kysely<Database>): Promise<DocumentSource | undefined> {
    const found = await this.creditNotes.findById(owner, id, trx);
    return found ? creditNoteSource(found.creditNote, found.lines) : undefined;
  }

  private async company(companyId: string, trx?: Kysely<Database>): Promise<CompanyRow> {
    const company = await this.companies.findById(companyId, trx);
    if (!company) throw new Error(`The company ${companyId} of an authenticated key does not exist`);
    return company;
  }

  async render(kind: DocumentKind, owner: Owner, id: string, request: RenderRequest, now: Date = new Date()): Promise<RenderResult> {
    const source = kind === 'invoice' ? await this.invoiceSource(owner, id, now) : await this.creditNoteSource(owner, id);
    if (!source) return { ok: false, code: 'NOT_FOUND' };
    const view = documentViewOf(source);
    const base = `${kind}-${safeName(source.number)}`;
    if (request.format === 'pdf') {
      return { ok: true, body: await renderPdf(view, { lang: request.lang, now }), contentType: 'application/pdf', filename: `${base}.pdf` };
    }
    if (source.draft) return { ok: false, code: 'INVOICE_NOT_ISSUED' };
    const target = request.profile;
    const details = einvoiceProblems(view, [target]);
    if (details.length > 0) return { ok: false, code: 'EINVOICE_INCOMPLETE', details };
    const suffix = request.format === 'cii' ? (target === 'xrechnung' ? '-cii-xrechnung' : '-cii') : target === 'xrechnung' ? '-xrechnung' : '';
    const body = request.format === 'ubl' ? renderUbl(view, { profile: request.profile }) : renderCii(view, { profile: request.profile });
    return { ok: true, body, contentType: 'application/xml; charset=utf-8', filename: `${base}${suffix}.xml` };
  }
}
