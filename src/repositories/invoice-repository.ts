import type { Kysely, OnConflictBuilder } from 'kysely';
import { prepareQuery, preparedInsert } from '../db/prepared-query.js';
import type {
  Database,
  InvoiceLinesTable,
  InvoicesTable,
  InvoiceStatusColumn,
  PaymentsTable,
  PdfDigestLanguage,
} from '../db/schema.js';
import { writeUnlessTaken } from '../db/transactions.js';
import type { Dialect, GuardedUpdate, InsertChange, NumberedInsert } from '../db/dialect.js';
import { modeColumn, type Owner } from '../db/scope.js';
import { NumberSequences, type SequenceKey } from './number-sequences.js';
import { afterCursor, numberStartsWith, type Cursor } from './keyset.js';
import { containsPattern, type CountedPage, type PageAt } from './search.js';
import {
  LINE_COLUMNS,
  answerRowsFrom,
  answerSelections,
  type AnswerColumns,
  type InvoiceAnswerRows,
} from './invoice-answer-rows.js';
import { sql } from 'kysely';

export type InvoiceRow = InvoicesTable;
export type InvoiceLineRow = InvoiceLinesTable;
export type PaymentRow = PaymentsTable;
export type { InvoiceAnswerRows } from './invoice-answer-rows.js';

/** How an invoice gets its number: the next of a sequence, the client's, or none yet (a draft). */
/** What a row of the panel's invoice list is read with: a few columns, and the buyer's current name. */
export const INVOICE_LIST_COLUMNS = [
  'invoices.id',
  'invoices.number',
  'invoices.status',
  'invoices.issue_date',
  'invoices.due_date',
  'invoices.currency',
  'invoices.payable',
  'invoices.buyer_snapshot',
  'invoices.created_at',
  'invoices.amount_paid',
  'invoices.amount_credited',
  'invoices.amount_refunded',
] as const;

export type InvoiceListRow = Pick<
  InvoiceRow,
  | 'id'
  | 'number'
  | 'status'
  | 'issue_date'
  | 'due_date'
  | 'currency'
  | 'payable'
  | 'buyer_snapshot'
  | 'created_at'
  | 'amount_paid'
  | 'amount_credited'
  | 'amount_refunded'
> & { organization_name: string | null };

/** Which invoices a list shows. */
export interface InvoiceRowFilter {
  organizationId?: string;
  /** The start of the number, exactly (case-sensitive). */
  number?: string;
  /** YYYY-MM-DD, inclusive. */
  issueDateFrom?: string;
  /** YYYY-MM-DD, inclusive. */
  issueDateTo?: string;
  status?: InvoiceStatusColumn;
  /** Issued and due before `today` (true), or not (false). */
  overdue?: { is: boolean; today: string };
}

export type Numbering =
  | { kind: 'sequence'; key: SequenceKey; format: (year: number, value: number) => string }
  | { kind: 'given'; number: string };

export type NumberResult = { ok: true; number: string | null } | { ok: false; reason: 'number_taken' };

/** What finalizing writes besides the status and the number. */
export type IssueFields = Pick<
  InvoiceRow,
  | 'issue_date'
  | 'due_date'
  | 'buyer_snapshot'
  | 'seller_snapshot'
  | 'payment_means'
  | 'payment_terms'
  | 'finalized_at'
  | 'updated_at'
>;

/** A credit note as an invoice lists it: its id, in the order of creation. */
export interface CreditNoteCreation {
  id: string;
  created_at: string;
}

/** What a settlement's compare-and-set expects of the invoice as it was read: its status and amounts. */
export const SETTLEMENT_GUARDED = ['status', 'amount_paid', 'amount_credited', 'amount_refunded'] as const;
export type SettlementGuarded = Pick<InvoiceRow, (typeof SETTLEMENT_GUARDED)[number]>;

/** The amounts a settlement (a payment, a refund, a credit note) read, and those it writes. */
export interface SettlementChange {
  expected: SettlementGuarded;
  next: Pick<
    InvoiceRow,
    'status' | 'amount_paid' | 'amount_credited' | 'amount_refunded' | 'paid_at' | 'voided_at' | 'updated_at'
  >;
}

// Lines go in a few statements of bounded size (parameter limits: SQLite 32766, PostgreSQL 65535).
const LINES_PER_STATEMENT = 100;

/**
 * Invoices, their lines and payments; every statement names the company and the mode (live or
 * test) of the data it reaches; lines, reached through their invoice, name the company. Changes that race
 * (finalizing a draft, editing it, paying or crediting an invoice) are compare-and-set updates:
 * the row changes only if it is still as it was read, so of two racing changes exactly one wins
 * (on PostgreSQL the second waits for the first's row lock, then finds the row changed).
 */
export class InvoiceRepository {
  private readonly insertLines;
  private readonly insertInvoiceIfNumberFree;
  private readonly selectWithLines;
  private readonly selectAnswer;
  private readonly sequences = new NumberSequences();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    const { json } = dialect;
    this.insertLines = preparedInsert(db, 'invoice_lines');
    this.insertInvoiceIfNumberFree = preparedInsert<{ id: string }>(db, 'invoices', (builder) =>
      builder
        .onConflict((oc: OnConflictBuilder<Database, 'invoices'>) =>
          oc.columns(['company_id', 'livemode', 'number']).doNothing(),
        )
        .returning('id'),
    );
    // An invoice's lines, as one JSON column of its row.
    const linesColumn = sql`(select ${json.rows('l', LINE_COLUMNS, sql`l.position`)} from invoice_lines l
      where l.company_id = i.company_id and l.invoice_id = i.id)`.as('answer_lines');
    this.selectWithLines = prepareQuery<
      { companyId: string; livemode: number; id: string },
      InvoiceRow & { answer_lines: unknown }
    >(db, (d, param) =>
      d
        .selectFrom('invoices as i')
        .selectAll('i')
        .select([linesColumn])
        .where('i.company_id', '=', param('companyId'))
        .where('i.livemode', '=', param('livemode'))
        .where('i.id', '=', param('id')),
    );
    type AnswerRow = InvoiceRow & AnswerColumns & { answer_lines: unknown };
    this.selectAnswer = prepareQuery<{ companyId: string; livemode: number; id: string }, AnswerRow>(db, (d, param) =>
      d
        .selectFrom('invoices as i')
        .selectAll('i')
        .select([
          linesColumn,
          ...answerSelections(json, {
            companyId: sql.ref('i.company_id'),
            livemode: sql.ref('i.livemode'),
            id: sql.ref('i.id'),
          }),
        ])
        .where('i.company_id', '=', param('companyId'))
        .where('i.livemode', '=', param('livemode'))
        .where('i.id', '=', param('id')),
    );
  }

  /**
   * Inserts the invoice and its lines, numbered as asked, in `t` (a transaction). A sequence
   * number is taken from the counter row in the same transaction, so a rollback gives it back and
   * the counter's row lock (PostgreSQL) makes concurrent numberings wait their turn. A number
   * already used never raises an error (which would abort a PostgreSQL transaction): a given
   * number is refused, and a sequence number a client took earlier is skipped.
   */
  async insert(
    t: Kysely<Database>,
    invoice: Omit<InvoiceRow, 'number'>,
    lines: InvoiceLineRow[],
    numbering: Numbering,
  ): Promise<NumberResult> {
    let number: string;
    if (numbering.kind === 'given') {
      number = numbering.number;
      if (!(await this.insertIfNumberFree(t, { ...invoice, number }))) return { ok: false, reason: 'number_taken' };
    } else {
      do {
        number = numbering.format(numbering.key.year, await this.sequences.next(t, numbering.key));
      } while (!(await this.insertIfNumberFree(t, { ...invoice, number })));
    }
    await this.insertLinesOf(t, lines);
    return { ok: true, number };
  }

  /**
   * A new invoice and its lines as the numbered insert the event writer sends
   * (EventRecorder.recordWithNumberedInsert): its number is the series' next one not taken.
   */
  numberedInsert(
    invoice: Omit<InvoiceRow, 'number'>,
    lines: InvoiceLineRow[],
  ): Pick<NumberedInsert, 'insert' | 'numberColumn' | 'belonging' | 'unlessTaken'> {
    return {
      insert: { table: 'invoices', row: { ...invoice, number: null } },
      numberColumn: 'number',
      belonging: { table: 'invoice_lines', rows: lines },
      unlessTaken: true,
    };
  }

  /**
   * A new draft and its lines as the INSERT the event writer sends with its event
   * (EventRecorder.recordWithInsert). A draft has no number yet (its own, if given, is kept as
   * `draft_number` and checked when it is finalized), so nothing here can be taken.
   */
  draftInsert(invoice: Omit<InvoiceRow, 'number'>, lines: InvoiceLineRow[]): InsertChange {
    return {
      table: 'invoices',
      row: { ...invoice, number: null },
      belonging: { table: 'invoice_lines', rows: lines },
    };
  }

  private async insertLinesOf(t: Kysely<Database>, lines: InvoiceLineRow[]): Promise<void> {
    for (let i = 0; i < lines.length; i += LINES_PER_STATEMENT)
      await this.insertLines(lines.slice(i, i + LINES_PER_STATEMENT), t);
  }

  private async insertIfNumberFree(t: Kysely<Database>, row: InvoiceRow): Promise<boolean> {
    const { rows } = await this.insertInvoiceIfNumberFree([row], t);
    return rows.length > 0;
  }

  /** The invoice and its lines, in one statement (the lines as a JSON column of its row). */
  async findById(
    owner: Owner,
    id: string,
    trx: Kysely<Database> = this.db,
  ): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] } | undefined> {
    const row = (await this.selectWithLines({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx))
      .rows[0];
    if (!row) return undefined;
    const { answer_lines, ...invoice } = row;
    return { invoice, lines: this.dialect.json.parse(answer_lines) };
  }

  /**
   * The invoice with its lines and what its answer shows (InvoiceAnswerRows), in one statement:
   * the children come as JSON columns of the invoice's row, in the order their own queries had.
   */
  async findWithAnswerRows(
    owner: Owner,
    id: string,
    trx: Kysely<Database> = this.db,
  ): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[]; answer: InvoiceAnswerRows } | undefined> {
    const row = (await this.selectAnswer({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx)).rows[0];
    if (!row) return undefined;
    const {
      answer_lines,
      answer_payments,
      answer_credit_notes,
      answer_deliveries,
      answer_hosted_link,
      answer_reminders,
      ...invoice
    } = row;
    const { json } = this.dialect;
    return {
      invoice,
      lines: json.parse(answer_lines),
      answer: answerRowsFrom(json, {
        answer_payments,
        answer_credit_notes,
        answer_deliveries,
        answer_hosted_link,
        answer_reminders,
      }),
    };
  }

  /** Up to `limit + 1` invoices (without lines) after the cursor, newest first. */
  async page(owner: Owner, filter: InvoiceRowFilter, page: { limit: number; after?: Cursor }): Promise<InvoiceRow[]> {
    let query = this.db
      .selectFrom('invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    if (filter.number !== undefined) query = query.where(numberStartsWith(filter.number));
    if (filter.issueDateFrom !== undefined) query = query.where('issue_date', '>=', filter.issueDateFrom);
    if (filter.issueDateTo !== undefined) query = query.where('issue_date', '<=', filter.issueDateTo);
    if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const overdue = filter.overdue;
    if (overdue?.is === true) query = query.where('status', '=', 'issued').where('due_date', '<', overdue.today);
    if (overdue?.is === false)
      query = query.where((eb) => eb.or([eb('status', '!=', 'issued'), eb('due_date', '>=', overdue.today)]));
    if (page.after) query = query.where(afterCursor(page.after));
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }

  /**
   * The panel's list, newest first, counted: one buyer's invoices, or those whose number contains
   * `search` (lower-cased) or whose buyer's current name key contains `nameKey`.
   */
  async searchListRows(
    owner: Owner,
    filter: { organizationId?: string; search?: { number: string; nameKey: string } },
    at: PageAt,
  ): Promise<CountedPage<InvoiceListRow>> {
    let query = this.db
      .selectFrom('invoices')
      .leftJoin('organizations', (join) =>
        join
          .onRef('organizations.id', '=', 'invoices.organization_id')
          .on('organizations.company_id', '=', owner.companyId),
      )
      .where('invoices.company_id', '=', owner.companyId)
      .where('invoices.livemode', '=', modeColumn(owner));
    if (filter.organizationId !== undefined)
      query = query.where('invoices.organization_id', '=', filter.organizationId);
    if (filter.search) {
      const numberPattern = containsPattern(filter.search.number);
      const namePattern = containsPattern(filter.search.nameKey);
      query = query.where(
        sql<boolean>`(lower(invoices.number) like ${numberPattern} escape '\\' or organizations.name_key like ${namePattern} escape '\\')`,
      );
    }
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    const { offset, limit } = at(total);
    const rows = await query
      .select([...INVOICE_LIST_COLUMNS, 'organizations.name as organization_name'])
      .orderBy('invoices.created_at', 'desc')
      .orderBy('invoices.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total, rows };
  }

  /** The lines of these invoices, in order, by invoice. */
  async linesOf(
    companyId: string,
    invoiceIds: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<Map<string, InvoiceLineRow[]>> {
    const lines = await trx
      .selectFrom('invoice_lines')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('position')
      .execute();
    const linesOf = new Map<string, InvoiceLineRow[]>();
    for (const line of lines) {
      const list = linesOf.get(line.invoice_id);
      if (list) list.push(line);
      else linesOf.set(line.invoice_id, [line]);
    }
    return linesOf;
  }

  /** The payments and refunds of these invoices, oldest first per invoice. */
  async paymentsOf(
    owner: Owner,
    invoiceIds: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<Map<string, PaymentRow[]>> {
    const byInvoice = new Map<string, PaymentRow[]>();
    if (invoiceIds.length === 0) return byInvoice;
    const rows = await trx
      .selectFrom('payments')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const row of rows) byInvoice.set(row.invoice_id, [...(byInvoice.get(row.invoice_id) ?? []), row]);
    return byInvoice;
  }

  /** The ids of the credit notes of these invoices, oldest first per invoice. */
  async creditNoteIdsOf(
    owner: Owner,
    invoiceIds: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<Map<string, string[]>> {
    const creditNotes = await this.creditNotesOf(owner, invoiceIds, trx);
    return new Map([...creditNotes].map(([invoiceId, rows]) => [invoiceId, rows.map((row) => row.id)]));
  }

  /** The ids and creation times of the credit notes of these invoices, oldest first per invoice. */
  async creditNotesOf(
    owner: Owner,
    invoiceIds: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<Map<string, CreditNoteCreation[]>> {
    const byInvoice = new Map<string, CreditNoteCreation[]>();
    if (invoiceIds.length === 0) return byInvoice;
    const rows = await trx
      .selectFrom('credit_notes')
      .select(['id', 'invoice_id', 'created_at'])
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', 'in', invoiceIds)
      .orderBy('invoice_id')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    for (const { invoice_id, ...row } of rows) byInvoice.set(invoice_id, [...(byInvoice.get(invoice_id) ?? []), row]);
    return byInvoice;
  }

  /**
   * Replaces a draft's content and lines, if it is still the draft of `expectedVersion`; false
   * when it was edited, finalized or deleted meanwhile.
   */
  async replaceDraft(
    t: Kysely<Database>,
    owner: Owner,
    id: string,
    expectedVersion: number,
    fields: Omit<Partial<InvoiceRow>, 'id' | 'company_id' | 'status' | 'version' | 'number'>,
    lines: InvoiceLineRow[] | null,
  ): Promise<boolean> {
    const result = await t
      .updateTable('invoices')
      .set({ ...fields, version: expectedVersion + 1 })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    if (lines) {
      await t
        .deleteFrom('invoice_lines')
        .where('company_id', '=', owner.companyId)
        .where('invoice_id', '=', id)
        .execute();
      await this.insertLinesOf(t, lines);
    }
    return true;
  }

  /** Deletes a draft and its lines; false when it is no draft (any more). */
  async deleteDraft(t: Kysely<Database>, owner: Owner, id: string): Promise<boolean> {
    // Claim the draft first: the update locks its row (PostgreSQL) and checks its status in one
    // statement, so a finalize racing this delete either waits for it or has already won, and
    // the lines are never deleted from an invoice that was issued meanwhile.
    const claimed = await t
      .updateTable('invoices')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return false;
    // A draft made from a quote gives the quote back: it can be made into an invoice again.
    await t
      .updateTable('quotes')
      .set({ invoice_id: null, invoiced_at: null })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', '=', id)
      .execute();
    await t
      .deleteFrom('invoice_lines')
      .where('company_id', '=', owner.companyId)
      .where('invoice_id', '=', id)
      .execute();
    await t.deleteFrom('invoices').where('company_id', '=', owner.companyId).where('id', '=', id).execute();
    return true;
  }

  /**
   * Marks a draft that is still at `expectedVersion` issued, with its dates and snapshots but no
   * number yet: the row lock that makes a racing finalize wait. False when the draft changed or is
   * no draft any more, so that nothing was written.
   */
  async claimDraft(
    t: Kysely<Database>,
    owner: Owner,
    id: string,
    expectedVersion: number,
    fields: IssueFields,
  ): Promise<boolean> {
    return this.applyGuard(t, this.draftClaim(owner, id, expectedVersion, fields));
  }

  /** Runs a compare-and-set of an invoice in `t`: whether it changed the row. */
  private async applyGuard(t: Kysely<Database>, guard: GuardedUpdate): Promise<boolean> {
    let query = t.updateTable('invoices').set(guard.set as Partial<InvoiceRow>);
    for (const [column, value] of Object.entries(guard.where))
      query = query.where(column as keyof InvoiceRow, '=', value as never);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * A draft's claim as a compare-and-set (`claimDraft`'s), for the event writer to send with the
   * number and the events (EventRecorder.recordNumbered): the draft becomes issued, where it is
   * still the draft of `expectedVersion`.
   */
  draftClaim(
    owner: Owner,
    id: string,
    expectedVersion: number,
    fields: IssueFields,
  ): GuardedUpdate & { set: Partial<InvoiceRow>; where: Partial<InvoiceRow> } {
    return {
      table: 'invoices',
      set: { ...fields, status: 'issued', draft_number: null, version: expectedVersion + 1 },
      where: {
        company_id: owner.companyId,
        livemode: modeColumn(owner),
        id,
        status: 'draft',
        version: expectedVersion,
      },
    };
  }

  /**
   * Numbers an invoice claimed in `t`: the draft's own number, or the next of the sequence. Meant
   * to be the transaction's last step but the event, because the counter row's lock (PostgreSQL)
   * is held from here to the commit and serializes the company's numberings: the statements
   * between are the savepoint's release and the event only. A sequence number a client took
   * earlier is skipped (the counter keeps its step); a client's number still uncommitted at that
   * instant fails the savepoint, which gives the step back, and the next try sees it taken.
   */
  async numberClaimed(t: Kysely<Database>, owner: Owner, id: string, numbering: Numbering): Promise<NumberResult> {
    const setNumber = (number: string) =>
      t
        .updateTable('invoices')
        .set({ number })
        .where('company_id', '=', owner.companyId)
        .where('id', '=', id)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('invoices as taken')
                .select('taken.id')
                .where('taken.company_id', '=', owner.companyId)
                .where('taken.livemode', '=', modeColumn(owner))
                .where('taken.number', '=', number),
            ),
          ),
        )
        .executeTakeFirst()
        .then((result) => Number(result.numUpdatedRows) === 1);
    if (numbering.kind === 'given') {
      let free = false;
      const written = await writeUnlessTaken(t, async () => {
        free = await setNumber(numbering.number);
      });
      return written && free ? { ok: true, number: numbering.number } : { ok: false, reason: 'number_taken' };
    }
    for (;;) {
      let number: string | null = null;
      await writeUnlessTaken(t, async () => {
        for (;;) {
          const candidate = numbering.format(numbering.key.year, await this.sequences.next(t, numbering.key));
          if (await setNumber(candidate)) {
            number = candidate;
            return;
          }
        }
      });
      if (number !== null) return { ok: true, number };
    }
  }

  /** Applies a payment's, refund's or credit note's effect if the invoice is still as it was read; false otherwise. */
  async settle(t: Kysely<Database>, owner: Owner, id: string, change: SettlementChange): Promise<boolean> {
    return this.applyGuard(t, this.settlementGuard(owner, id, change));
  }

  /**
   * The same compare-and-set as `settle`, as a guard that the event writer sends with the
   * change's INSERT and events (EventRecorder.recordWithGuardedChange).
   */
  settlementGuard(owner: Owner, id: string, change: SettlementChange): GuardedUpdate {
    return {
      table: 'invoices',
      set: change.next,
      where: {
        company_id: owner.companyId,
        livemode: modeColumn(owner),
        id,
        ...Object.fromEntries(SETTLEMENT_GUARDED.map((column) => [column, change.expected[column]])),
      },
    };
  }

  /** A payment or refund row as the INSERT the event writer sends with its guard. */
  paymentInsert(payment: PaymentRow): InsertChange {
    return { table: 'payments', row: payment };
  }

  async insertPayment(t: Kysely<Database>, payment: PaymentRow): Promise<void> {
    await t.insertInto('payments').values(payment).execute();
  }

  /** Records the SHA-256 of the issued invoice's PDF in a language, unless one was recorded first. */
  async recordPdfDigest(owner: Owner, id: string, lang: PdfDigestLanguage, sha256: string): Promise<void> {
    const column = `pdf_sha256_${lang}` as const;
    await this.db
      .updateTable('invoices')
      .set({ [column]: sha256 })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '!=', 'draft')
      .where(column, 'is', null)
      .execute();
  }

  /** The last value handed out by a sequence for the year; 0 when none was. */
  lastNumberValue(owner: Owner, year: number, trx: Kysely<Database> = this.db, sequence = 'invoice'): Promise<number> {
    return this.sequences.last(trx, { companyId: owner.companyId, livemode: modeColumn(owner), sequence, year });
  }
}
