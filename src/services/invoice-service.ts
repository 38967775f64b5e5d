import type { Reminder } from '../schemas/reminder.js';
import type { EmailDelivery } from '../schemas/email-delivery.js';
import {
  NO_HOSTED_LINK,
  NO_NEW_HOSTED_LINK,
  hostedLinkUnlessDraft,
  type NewHostedLink,
  type HostedLinkFacts,
  type HostedLinkOf,
  type KnownHostedLink,
} from './hosted-link-port.js';
import type { Kysely } from 'kysely';
import type { Database, EmailDeliveriesTable, InvoiceRemindersTable } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import type { EventRecorder } from '../events/event-recorder.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { newId } from '../lib/ids.js';
import type { CompanyRepository } from '../repositories/company-repository.js';
import type {
  CreditNoteCreation,
  InvoiceAnswerRows,
  InvoiceLineRow,
  InvoiceRepository,
  InvoiceRow,
  Numbering,
  NumberResult,
  PaymentRow,
} from '../repositories/invoice-repository.js';
import type { NumberedChange } from '../db/dialect.js';
import type { OrganizationRepository, OrganizationRow } from '../repositories/organization-repository.js';
import type { CreateInvoiceInput, Invoice, UpdateInvoiceInput } from '../schemas/invoice.js';
import { adjustmentsOf, apiExtras, extrasColumns, extrasOf, withCompanyDefaults } from './document-extras.js';
import { gapsFor, type EinvoiceTarget } from './einvoice-readiness.js';
import { computeContent, draftLineOf, oversizedAmounts } from './invoice-content.js';
import { lineFieldsOf } from './stored-line.js';
import { minorUnitDigits } from '../money/currency.js';
import {
  datesAtIssue,
  readInvoiceContent,
  todayUtc,
  type InvoiceContent,
  type InvoiceContentInput,
} from './invoice-input.js';
import { invoiceFromRows } from './invoice-mapping.js';
import {
  NUMBER_WIDTH,
  formatInvoiceNumber,
  formatTestInvoiceNumber,
  invoiceNumberPrefix,
  yearOf,
} from './invoice-numbering.js';
import { buyerOf, sellerOf } from './parties.js';
import { modeColumn, type Owner, type Scope } from '../db/scope.js';

// Invoices from creation to issue: created issued at once (numbered in the same transaction), or
// as drafts that are edited, deleted or finalized. Everything that can refuse is checked before
// the transaction that takes a number, so a refused invoice never takes one; drafts take none.

export type InvoiceFailure =
  | { ok: false; code: 'VALIDATION_ERROR' | 'EINVOICE_INCOMPLETE'; details: ErrorDetail[] }
  | {
      ok: false;
      code:
        | 'NOT_FOUND'
        | 'ORGANIZATION_NOT_FOUND'
        | 'ORGANIZATION_ARCHIVED'
        | 'INVOICE_NUMBER_CONFLICT'
        | 'INVOICE_NOT_DRAFT';
    };

export type InvoiceResult = { ok: true; value: Invoice } | InvoiceFailure;

/** Where an invoice came from when it was made of a quote: the quote, and its number (BT-17). */
export interface InvoiceOrigin {
  quoteId: string;
  tenderReference: string | null;
}

/** Thrown inside a finalize's transaction to roll it back when the draft's own number is taken. */
class NumberTaken extends Error {}

/** How often a change retries after another change to the same draft slipped in between. */
const MAX_ATTEMPTS = 8;

/** A stored draft as its create body would be: what a PATCH is merged into. */
function contentInputOf(row: InvoiceRow, lines: InvoiceLineRow[]): InvoiceContentInput {
  const extras = apiExtras(extrasOf(row));
  return {
    ...extras,
    organizationId: row.organization_id,
    number: row.draft_number,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    pricesIncludeTax: row.prices_include_tax === 1,
    buyerReference: row.buyer_reference,
    purchaseOrderReference: row.purchase_order_reference,
    note: row.note,
    // A stored line as the create body had it: what a PATCH without `lines` keeps.
    lines: lines.map(lineFieldsOf),
  };
}

/** What a change adds to an invoice's lists: its payment or refund, its credit note. */
export interface AddedToInvoice {
  payments?: readonly PaymentRow[];
  creditNotes?: readonly CreditNoteCreation[];
}

/** An invoice's row and lines as read. */
export interface FoundInvoice {
  invoice: InvoiceRow;
  lines: InvoiceLineRow[];
}

/** An invoice as the API shows it after a change: its row overridden by `patch`, with what the change `added`. */
export type InvoiceAnswer = (patch: Partial<InvoiceRow>, added?: AddedToInvoice) => Invoice;

type Created = { id: string; created_at: string };

/** Rows in the order the repository lists them: by creation time, then id. */
function byCreation(a: Created, b: Created): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Rows read, with rows a change added where a read would list them; the rows read keep the database's order. */
function withAdded<T extends Created>(read: T[], added: readonly T[] = []): T[] {
  const rows = [...read];
  for (const row of added) {
    const at = rows.findIndex((other) => byCreation(other, row) > 0);
    rows.splice(at === -1 ? rows.length : at, 0, row);
  }
  return rows;
}

/** A document's messages as its answer shows them, from their rows (read with the invoice, newest first). */
export type DeliveriesFrom = (rows: EmailDeliveriesTable[]) => EmailDelivery[];

/** An invoice's reminders as its answer shows them, from their rows (read with the invoice, newest level first). */
export type RemindersFrom = (rows: InvoiceRemindersTable[]) => Reminder[];

export class InvoiceService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly invoices: InvoiceRepository,
    private readonly organizations: OrganizationRepository,
    private readonly companies: CompanyRepository,
    private readonly events: EventRecorder,
    /** The messages an invoice was sent with (delivery/, which sits above the services, maps them). */
    private readonly deliveriesFrom: DeliveriesFrom,
    /** An issued invoice's hosted page link (hosted/, above the services, fills it in). */
    private readonly hostedLinkOf: HostedLinkOf = NO_HOSTED_LINK,
    /** Its reminders (delivery/ maps them too). */
    private readonly remindersFrom: RemindersFrom = () => [],
    /** The hosted link of an invoice issued at once, written with it (hosted/ makes it). */
    private readonly newHostedLink: NewHostedLink = NO_NEW_HOSTED_LINK,
  ) {}

  /** The hosted link facts of an invoice in `status`: none for a draft. */
  private hostedOf(
    owner: Owner,
    id: string,
    status: string,
    trx: Kysely<Database>,
    known?: KnownHostedLink,
  ): Promise<HostedLinkFacts> {
    return hostedLinkUnlessDraft(this.hostedLinkOf, owner, 'invoice', id, status, trx, known);
  }

  /** The invoice as the API shows it, read in `trx` when given. */
  async get(
    owner: Owner,
    id: string,
    now: Date = new Date(),
    trx: Kysely<Database> = this.db,
  ): Promise<Invoice | undefined> {
    return (await this.read(owner, id, now, trx))?.({});
  }

  /**
   * Reads an invoice and what its answer shows, and answers a function that maps them, with the
   * row's columns overridden by `patch` (finalize reads before it takes the number). The row, its
   * lines and the rows its answer shows are one statement; a draft's current buyer and seller a
   * second, an issued invoice's first link (made on first ask) a write.
   */
  private async read(owner: Owner, id: string, now: Date, trx: Kysely<Database>): Promise<InvoiceAnswer | undefined> {
    const found = await this.invoices.findWithAnswerRows(owner, id, trx);
    return found ? this.answerFrom(owner, found, found.answer, now, trx) : undefined;
  }

  /**
   * An invoice read for a change, with its lines and what its answer shows, in one statement, so
   * they agree: a payment or credit note read here is in the row the change's compare-and-set
   * expects. `answer()` maps them once the change is checked (an issued invoice's first link is
   * made then): a change that writes the row's columns (`patch`) and adds a payment, refund or
   * credit note (`added`) builds its answer from what was read and what it wrote, as a read after
   * it would show it.
   */
  async readForChange(
    owner: Owner,
    id: string,
    now: Date,
    trx: Kysely<Database> = this.db,
  ): Promise<(FoundInvoice & { answer: () => Promise<InvoiceAnswer> }) | undefined> {
    const found = await this.invoices.findWithAnswerRows(owner, id, trx);
    if (!found) return undefined;
    const { invoice, lines } = found;
    return { invoice, lines, answer: () => this.answerFrom(owner, found, found.answer, now, trx) };
  }

  private async answerFrom(
    owner: Owner,
    found: FoundInvoice,
    rows: InvoiceAnswerRows,
    now: Date,
    trx: Kysely<Database>,
  ): Promise<InvoiceAnswer> {
    const { invoice } = found;
    const draft = invoice.status === 'draft';
    const [hosted, current] = await Promise.all([
      this.hostedOf(owner, invoice.id, invoice.status, trx, rows.hostedLink),
      draft ? this.currentParties(owner, invoice.organization_id, trx) : undefined,
    ]);
    return this.answerOf(found, rows, now, hosted, current);
  }

  /** The answer of an invoice read with `rows`, its link's facts `hosted` and a draft's `current` parties. */
  private answerOf(
    { invoice, lines }: FoundInvoice,
    rows: InvoiceAnswerRows,
    now: Date,
    hosted: HostedLinkFacts,
    current: Awaited<ReturnType<InvoiceService['currentParties']>> | undefined,
  ): InvoiceAnswer {
    const deliveries = this.deliveriesFrom(rows.deliveries);
    const reminders = this.remindersFrom(rows.reminders);
    return (patch, added = {}) =>
      invoiceFromRows({ ...invoice, ...patch }, lines, {
        payments: withAdded(rows.payments, added.payments),
        creditNoteIds: withAdded(rows.creditNotes, added.creditNotes).map((creditNote) => creditNote.id),
        ...(current ? { current } : {}),
        today: todayUtc(now),
        deliveries,
        hosted,
        reminders,
      });
  }

  /** A draft's buyer and seller as they are now. */
  async currentParties(owner: Owner, organizationId: string, trx: Kysely<Database> = this.db) {
    const [organization, company] = await Promise.all([
      this.organizations.findById(owner, organizationId, trx),
      this.companies.findById(owner.companyId, trx),
    ]);
    if (!organization || !company) throw new Error(`The buyer or company of a draft of ${owner.companyId} is gone`);
    return { buyer: buyerOf(organization), seller: sellerOf(company) };
  }

  private async company(companyId: string, trx?: Kysely<Database>) {
    const company = await this.companies.findById(companyId, trx);
    if (!company) throw new Error(`The company ${companyId} of an authenticated key does not exist`);
    return company;
  }

  /** The buyer of a new invoice or draft: an organization of the company, not archived. */
  private async buyer(
    owner: Owner,
    organizationId: string,
    trx?: Kysely<Database>,
  ): Promise<OrganizationRow | InvoiceFailure> {
    return buyerFound(await this.organizations.findById(owner, organizationId, trx));
  }

  /**
   * The company and an organization of it, in one read: the organization is the buyer that a
   * write's checks look at later (buyerFound), whether or not the body that named it is valid.
   */
  private async companyAndOrganization(owner: Owner, organizationId: string, trx?: Kysely<Database>) {
    const { company, organization } = await this.organizations.findWithCompany(owner, organizationId, trx);
    if (!company) throw new Error(`The company ${owner.companyId} of an authenticated key does not exist`);
    return { company, organization };
  }

  /**
   * POST /invoice: issues at once (numbered in the insert's own statement or transaction), or creates a draft with
   * `status: "draft"`. With `trx` (an idempotent request's transaction) every read and write runs
   * in it, and the caller commits.
   */
  async create(
    scope: Scope,
    input: CreateInvoiceInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
    origin: InvoiceOrigin | null = null,
  ): Promise<InvoiceResult> {
    const { companyId } = scope;
    const { status, ...body } = input;
    // The buyer the body names is read with the company (whose currency the body defaults to).
    const named = typeof body.organizationId === 'string' ? body.organizationId : '';
    const { company, organization: found } = await this.companyAndOrganization(scope, named, trx);
    const read = readInvoiceContent(body, { currency: company.currency });
    if (!read.ok) return { ok: false, code: 'VALIDATION_ERROR', details: read.details };
    const content = read.value;
    const organization =
      content.organizationId === named ? buyerFound(found) : await this.buyer(scope, content.organizationId, trx);
    if ('ok' in organization) return organization;

    const draft = status === 'draft';
    const dates = draft
      ? { ok: true as const, issueDate: content.issueDate, dueDate: content.dueDate }
      : datesAtIssue(content, now);
    if (!dates.ok) return { ok: false, code: 'VALIDATION_ERROR', details: dates.details };
    if (!draft && input.validateFor?.length) {
      const gaps = gapsFor(
        input.validateFor,
        { ...content, issueDate: dates.issueDate!, dueDate: dates.dueDate },
        company,
        organization,
      );
      if (gaps.length > 0) return { ok: false, code: 'EINVOICE_INCOMPLETE', details: gaps };
    }

    const id = newId('inv');
    const computed = computeContent(content.lines, content, adjustmentsOf(content));
    const oversized = oversizedAmounts(computed, content.digits, 'invoice');
    if (oversized.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: oversized };
    const extras = draft ? content : withCompanyDefaults(content, company, content.currency);
    const at = now.toISOString();
    const row: Omit<InvoiceRow, 'number'> = {
      id,
      company_id: companyId,
      organization_id: organization.id,
      draft_number: draft ? content.number : null,
      status: draft ? 'draft' : 'issued',
      issue_date: dates.issueDate,
      due_date: dates.dueDate,
      currency: content.currency,
      prices_include_tax: content.pricesIncludeTax ? 1 : 0,
      buyer_reference: content.buyerReference,
      purchase_order_reference: content.purchaseOrderReference,
      note: content.note,
      buyer_snapshot: draft ? null : JSON.stringify(buyerOf(organization)),
      seller_snapshot: draft ? null : JSON.stringify(sellerOf(company)),
      ...extrasColumns(extras),
      ...computed.totals,
      amount_paid: '0',
      amount_credited: '0',
      amount_refunded: '0',
      finalized_at: draft ? null : at,
      paid_at: null,
      voided_at: null,
      version: 1,
      livemode: modeColumn(scope),
      created_at: at,
      updated_at: at,
      quote_id: origin?.quoteId ?? null,
      tender_reference: origin?.tenderReference ?? null,
    };
    const lines = computed.lines.map((line) => ({ ...line, invoice_id: id, company_id: companyId }));
    const answerWith = (number: string | null, hosted: HostedLinkFacts) =>
      // The answer is made from what was just written (a new invoice has no payments or credit
      // notes yet), not read back: four reads fewer on the hottest write.
      invoiceFromRows({ ...row, number }, lines, {
        payments: [],
        creditNoteIds: [],
        ...(draft ? { current: { buyer: buyerOf(organization), seller: sellerOf(company) } } : {}),
        today: todayUtc(now),
        deliveries: [],
        hosted,
        reminders: [],
      });
    if (draft) {
      // A draft takes no number (its own is checked when it is finalized), so nothing can refuse
      // it: the invoice, its lines, its event and its outbox row are one INSERT with its event,
      // one statement on PostgreSQL (with no BEGIN and COMMIT unless the caller's transaction),
      // steps in one transaction on SQLite.
      const executor = trx ?? this.db;
      const invoice = answerWith(null, await this.hostedOf(scope, id, row.status, executor, null));
      const change = this.invoices.draftInsert(row, lines);
      await this.events.recordWithInsert(executor, change, scope, 'invoice.created', invoice, now);
      return { ok: true, value: invoice };
    }
    const numbering = numberingOf(scope, content.number, dates.issueDate!);
    if (numbering.kind === 'sequence') {
      // Issued at once is issued all the same: whoever listens for issued invoices hears of it.
      // The invoice, its lines, its hosted link, its number and both events: one statement on
      // PostgreSQL, with no BEGIN or COMMIT unless the caller's transaction (so the company's
      // counter lock is held for that statement alone), steps in one transaction on SQLite.
      const link = this.newHostedLink(scope, 'invoice', id, now);
      const objectOf = madeOnce((stand: string) => answerWith(stand, link.facts));
      const sequence = sequenceOf(scope, numbering);
      const number = await this.events.recordWithNumberedInsert(
        trx ?? this.db,
        scope,
        [
          { type: 'invoice.created', objectOf },
          { type: 'invoice.finalized', objectOf },
        ],
        { ...sequence, ...this.invoices.numberedInsert(row, lines), alongside: link.change },
        { inSteps: async (t) => sequenceNumber(await this.invoices.insert(t, row, lines, numbering), id) },
        now,
      );
      return { ok: true, value: objectOf.withNumber(number) };
    }
    return inTransaction(this.db, trx, async (t) => {
      const inserted = await this.invoices.insert(t, row, lines, numbering);
      if (!inserted.ok) return { ok: false, code: 'INVOICE_NUMBER_CONFLICT' };
      const invoice = answerWith(inserted.number, await this.hostedOf(scope, id, row.status, t, null));
      await this.events.record(t, scope, 'invoice.created', invoice, now);
      await this.events.record(t, scope, 'invoice.finalized', invoice, now);
      return { ok: true, value: invoice };
    });
  }

  /** PATCH /invoice/{id}: a draft's content, merged with what is sent; `lines` replace all lines. */
  async update(
    scope: Scope,
    id: string,
    patch: UpdateInvoiceInput,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<InvoiceResult> {
    const { companyId } = scope;
    const company = await this.company(companyId, trx);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const found = await this.invoices.findById(scope, id, trx);
      if (!found) return { ok: false, code: 'NOT_FOUND' };
      if (found.invoice.status !== 'draft') return { ok: false, code: 'INVOICE_NOT_DRAFT' };
      const merged: InvoiceContentInput = { ...contentInputOf(found.invoice, found.lines), ...withoutUndefined(patch) };
      // A field sent as null falls back to its default, as in a create body.
      if (patch.currency === null) merged.currency = company.currency;
      const read = readInvoiceContent(merged, { currency: company.currency });
      if (!read.ok) return { ok: false, code: 'VALIDATION_ERROR', details: read.details };
      const content = read.value;
      if (content.organizationId !== found.invoice.organization_id || patch.organizationId !== undefined) {
        const organization = await this.buyer(scope, content.organizationId, trx);
        if ('ok' in organization) return organization;
      }
      const computed = computeContent(content.lines, content, adjustmentsOf(content));
      const oversized = oversizedAmounts(computed, content.digits, 'invoice');
      if (oversized.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: oversized };
      const replaced = await inTransaction(this.db, trx, async (t) => {
        const done = await this.invoices.replaceDraft(
          t,
          scope,
          id,
          found.invoice.version,
          {
            organization_id: content.organizationId,
            draft_number: content.number,
            issue_date: content.issueDate,
            due_date: content.dueDate,
            currency: content.currency,
            prices_include_tax: content.pricesIncludeTax ? 1 : 0,
            buyer_reference: content.buyerReference,
            purchase_order_reference: content.purchaseOrderReference,
            note: content.note,
            ...extrasColumns(content),
            ...computed.totals,
            updated_at: now.toISOString(),
          },
          computed.lines.map((line) => ({ ...line, invoice_id: id, company_id: companyId })),
        );
        if (!done) return null;
        const invoice = (await this.get(scope, id, now, t))!;
        await this.events.record(t, scope, 'invoice.updated', invoice, now);
        return invoice;
      });
      if (replaced) return { ok: true, value: replaced };
    }
    return { ok: false, code: 'INVOICE_NOT_DRAFT' };
  }

  /** DELETE /invoice/{id}: drafts only. */
  async delete(
    scope: Scope,
    id: string,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<{ ok: true } | { ok: false; code: 'NOT_FOUND' | 'INVOICE_NOT_DRAFT' }> {
    return inTransaction(this.db, trx, async (t) => {
      // The draft as it was is the deleted event's object.
      const draft = await this.get(scope, id, now, t);
      if (!draft) return { ok: false, code: 'NOT_FOUND' };
      if (draft.status !== 'draft' || !(await this.invoices.deleteDraft(t, scope, id)))
        return { ok: false, code: 'INVOICE_NOT_DRAFT' };
      await this.events.record(t, scope, 'invoice.deleted', draft, now);
      return { ok: true };
    });
  }

  /**
   * POST /invoice/{id}/finalize: draft → issued. The issue date (today when the draft had none),
   * the due date, the buyer and seller snapshots and the number (the next of the sequence, or the
   * draft's own) are set in one write, after every check: a compare-and-set of the draft as it was
   * read, so of concurrent finalizes of one draft exactly one succeeds; the others find it issued.
   * With the sequence's number, the claim, the number, the hosted link and the event are one
   * statement on PostgreSQL (no BEGIN or COMMIT unless the caller's transaction).
   */
  async finalize(
    scope: Scope,
    id: string,
    now: Date = new Date(),
    trx?: Kysely<Database>,
    options: { validateFor?: EinvoiceTarget[] } = {},
  ): Promise<InvoiceResult> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      // Everything the answer shows is read with the draft: nothing is read once the number is taken.
      const found = await this.invoices.findWithAnswerRows(scope, id, trx);
      if (!found) return { ok: false, code: 'NOT_FOUND' };
      const draft = found.invoice;
      if (draft.status !== 'draft') return { ok: false, code: 'INVOICE_NOT_DRAFT' };
      const read = await this.companyAndOrganization(scope, draft.organization_id, trx);
      const { company } = read;
      const organization = buyerFound(read.organization);
      if ('ok' in organization) return organization;
      const dates = datesAtIssue({ issueDate: draft.issue_date, dueDate: draft.due_date }, now);
      if (!dates.ok) return { ok: false, code: 'VALIDATION_ERROR', details: dates.details };
      // A draft stored before the amount limit was enforced is held to it before it is issued.
      const oversized = oversizedAmounts(
        { lines: found.lines, totals: draft },
        minorUnitDigits(draft.currency),
        'invoice',
      );
      if (oversized.length > 0) return { ok: false, code: 'VALIDATION_ERROR', details: oversized };
      if (options.validateFor?.length) {
        const content = {
          ...extrasOf(draft),
          number: draft.draft_number,
          issueDate: dates.issueDate,
          dueDate: dates.dueDate,
          currency: draft.currency,
          pricesIncludeTax: draft.prices_include_tax === 1,
          buyerReference: draft.buyer_reference,
          purchaseOrderReference: draft.purchase_order_reference,
          note: draft.note,
          lines: found.lines.map((line) => draftLineOf(line)),
        };
        const gaps = gapsFor(options.validateFor, content, company, organization);
        if (gaps.length > 0) return { ok: false, code: 'EINVOICE_INCOMPLETE', details: gaps };
      }
      const at = now.toISOString();
      const extras = withCompanyDefaults(extrasOf(draft), company, draft.currency);
      const fields = {
        issue_date: dates.issueDate,
        due_date: dates.dueDate,
        payment_means: extrasColumns(extras).payment_means,
        payment_terms: extras.paymentTerms,
        buyer_snapshot: JSON.stringify(buyerOf(organization)),
        seller_snapshot: JSON.stringify(sellerOf(company)),
        finalized_at: at,
        updated_at: at,
      };
      const claim = this.invoices.draftClaim(scope, id, draft.version, fields);
      // The answer is the draft as the claim leaves it, with what was read with it.
      const issued = (hosted: HostedLinkFacts) => {
        const answer = this.answerOf(found, found.answer, now, hosted, undefined);
        return (number: string | null) => answer({ ...claim.set, number });
      };
      const claimInSteps = (t: Kysely<Database>) => this.invoices.claimDraft(t, scope, id, draft.version, fields);
      const numbering = numberingOf(scope, draft.draft_number, dates.issueDate);
      if (numbering.kind === 'sequence') {
        // A draft has no link: it is made here and written with the number (one found is kept).
        const known = found.answer.hostedLink;
        const link = known
          ? { facts: await this.hostedOf(scope, id, 'issued', trx ?? this.db, known), change: null }
          : this.newHostedLink(scope, 'invoice', id, now);
        const numbered = madeOnce(issued(link.facts));
        const number = await this.events.recordNumbered(
          trx ?? this.db,
          scope,
          ['invoice.finalized'],
          numbered,
          { invoiceId: id, ...sequenceOf(scope, numbering), claim, alongside: link.change },
          {
            inSteps: async (t) =>
              (await claimInSteps(t))
                ? sequenceNumber(await this.invoices.numberClaimed(t, scope, id, numbering), id)
                : null,
          },
          now,
        );
        if (number !== null) return { ok: true, value: numbered.withNumber(number) };
        continue;
      }
      const result = await inTransaction(this.db, trx, async (t) => {
        if (!(await claimInSteps(t))) return null;
        const numbered = await this.invoices.numberClaimed(t, scope, id, numbering);
        // The draft was already marked issued in this transaction: a taken number undoes it all.
        if (!numbered.ok) throw new NumberTaken();
        const invoice = issued(await this.hostedOf(scope, id, 'issued', t, null))(numbered.number);
        await this.events.record(t, scope, 'invoice.finalized', invoice, now);
        return { ok: true as const, value: invoice };
      }).catch((error: unknown) => {
        if (error instanceof NumberTaken) return { ok: false as const, code: 'INVOICE_NUMBER_CONFLICT' as const };
        throw error;
      });
      if (result) return result;
    }
    return { ok: false, code: 'INVOICE_NOT_DRAFT' };
  }
}

/**
 * An answer made once with the number's stand-in (for the events' object) and then given the
 * number: the number is the answer's `number` and nothing in it is worked out from its text
 * (EventRecorder.recordNumbered), so the answer need not be made (and checked for e-invoice
 * readiness) a second time.
 */
function madeOnce(answerOf: (number: string) => Invoice) {
  let made: Invoice | undefined;
  const objectOf = (stand: string) => (made = answerOf(stand));
  return Object.assign(objectOf, {
    withNumber: (number: string): Invoice => ({ ...(made ?? answerOf(number)), number }),
  });
}

/** The buyer of a new invoice or draft, as read: an organization of the company, not archived. */
function buyerFound(organization: OrganizationRow | undefined): OrganizationRow | InvoiceFailure {
  if (!organization) return { ok: false, code: 'ORGANIZATION_NOT_FOUND' };
  if (organization.archived_at !== null) return { ok: false, code: 'ORGANIZATION_ARCHIVED' };
  return organization;
}

type SequenceNumbering = Extract<Numbering, { kind: 'sequence' }>;

/** The sequence a numbered write takes its number from, as the dialect's one statement needs it. */
function sequenceOf(owner: Owner, { key }: SequenceNumbering): Omit<NumberedChange, 'placeholder' | 'invoiceId'> {
  return {
    companyId: key.companyId,
    livemode: key.livemode,
    sequence: key.sequence,
    year: key.year,
    prefix: invoiceNumberPrefix(key.year, owner.livemode),
    width: NUMBER_WIDTH,
  };
}

/** A sequence's number: a sequence skips numbers already taken, so it is never refused. */
function sequenceNumber(result: NumberResult, id: string): string {
  if (!result.ok || result.number === null) throw new Error(`No sequence number for ${id}`);
  return result.number;
}

function numberingOf(owner: Owner, number: string | null, issueDate: string): Numbering {
  return number === null
    ? {
        kind: 'sequence',
        key: { companyId: owner.companyId, livemode: modeColumn(owner), sequence: 'invoice', year: yearOf(issueDate) },
        format: owner.livemode ? formatInvoiceNumber : formatTestInvoiceNumber,
      }
    : { kind: 'given', number };
}

/** The fields of a PATCH body that were sent (undefined ones are not). */
function withoutUndefined<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export type { InvoiceContent, EinvoiceTarget };
