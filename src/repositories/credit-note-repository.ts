import type { Kysely } from 'kysely';
import { prepareQuery, preparedInsert } from '../db/prepared-query.js';
import type { Dialect, NumberedInsert } from '../db/dialect.js';
import type {
  CreditNoteLinesTable,
  CreditNotesTable,
  Database,
  EmailDeliveriesTable,
  HostedLinksTable,
  InvoiceLinesTable,
  PdfDigestLanguage,
} from '../db/schema.js';
import { DOCUMENT_LINE_COLUMNS, documentSelections } from './invoice-answer-rows.js';
import { modeColumn, type Owner } from '../db/scope.js';
import { afterCursor, numberStartsWith, type Cursor } from './keyset.js';
import { containsPattern, type CountedPage, type PageAt } from './search.js';
import { sql } from 'kysely';

export type CreditNoteRow = CreditNotesTable;
export type CreditNoteLineRow = CreditNoteLinesTable;

const LINES_PER_STATEMENT = 100;

// A credit note's line has an invoice line's columns, with the credit note's id for the invoice's:
// `linesAlike` fails to compile when they differ in any other column.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
const linesAlike: SameKeys<Omit<CreditNoteLinesTable, 'credit_note_id'>, Omit<InvoiceLinesTable, 'invoice_id'>> = true;
const LINE_COLUMNS = linesAlike && ['credit_note_id', ...DOCUMENT_LINE_COLUMNS];

/** A credit note with its lines, and the rows its answer shows besides: its messages (newest first) and hosted link. */
export interface CreditNoteWithAnswerRows {
  creditNote: CreditNoteRow;
  lines: CreditNoteLineRow[];
  deliveries: EmailDeliveriesTable[];
  hostedLink: HostedLinksTable | null;
}

type Key = { companyId: string; livemode: number; id: string };

/** Credit notes and their lines; every statement names the company (and the mode, for credit notes). */
/** What a row of the panel's credit-note lists is read with. */
export const CREDIT_NOTE_LIST_COLUMNS = [
  'id',
  'number',
  'invoice_id',
  'invoice_number',
  'issue_date',
  'reason',
  'currency',
  'payable',
  'buyer_snapshot',
  'created_at',
] as const;

export type CreditNoteListRow = Pick<CreditNoteRow, (typeof CREDIT_NOTE_LIST_COLUMNS)[number]>;

export class CreditNoteRepository {
  private readonly insertLines;
  private readonly selectWithLines;
  private readonly selectAnswer;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {
    const { json } = dialect;
    this.insertLines = preparedInsert(db, 'credit_note_lines');
    // A credit note's lines, as one JSON column of its row.
    const linesColumn = sql`(select ${json.rows('l', LINE_COLUMNS, sql`l.position`)} from credit_note_lines l
      where l.company_id = c.company_id and l.credit_note_id = c.id)`.as('answer_lines');
    this.selectWithLines = prepareQuery<Key, CreditNoteRow & { answer_lines: unknown }>(db, (d, param) =>
      d
        .selectFrom('credit_notes as c')
        .selectAll('c')
        .select([linesColumn])
        .where('c.company_id', '=', param('companyId'))
        .where('c.livemode', '=', param('livemode'))
        .where('c.id', '=', param('id')),
    );
    this.selectAnswer = prepareQuery<
      Key,
      CreditNoteRow & { answer_lines: unknown; answer_deliveries: unknown; answer_hosted_link: unknown }
    >(db, (d, param) =>
      d
        .selectFrom('credit_notes as c')
        .selectAll('c')
        .select([
          linesColumn,
          ...documentSelections(json, {
            companyId: sql.ref('c.company_id'),
            livemode: sql.ref('c.livemode'),
            id: sql.ref('c.id'),
          }),
        ])
        .where('c.company_id', '=', param('companyId'))
        .where('c.livemode', '=', param('livemode'))
        .where('c.id', '=', param('id')),
    );
  }

  async insert(t: Kysely<Database>, creditNote: CreditNoteRow, lines: CreditNoteLineRow[]): Promise<void> {
    await t.insertInto('credit_notes').values(creditNote).execute();
    for (let i = 0; i < lines.length; i += LINES_PER_STATEMENT)
      await this.insertLines(lines.slice(i, i + LINES_PER_STATEMENT), t);
  }

  /** A credit note and its lines as the numbered insert the event writer sends (EventRecorder.recordWithNumberedInsert). */
  numberedInsert(
    creditNote: CreditNoteRow,
    lines: CreditNoteLineRow[],
  ): Pick<NumberedInsert, 'insert' | 'numberColumn' | 'belonging'> {
    return {
      insert: { table: 'credit_notes', row: creditNote },
      numberColumn: 'number',
      belonging: { table: 'credit_note_lines', rows: lines },
    };
  }

  /** The credit note and its lines, in one statement (the lines as a JSON column of its row). */
  async findById(
    owner: Owner,
    id: string,
    trx: Kysely<Database> = this.db,
  ): Promise<{ creditNote: CreditNoteRow; lines: CreditNoteLineRow[] } | undefined> {
    const row = (await this.selectWithLines({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx))
      .rows[0];
    if (!row) return undefined;
    const { answer_lines, ...creditNote } = row;
    return { creditNote, lines: this.dialect.json.parse(answer_lines) };
  }

  /** The credit note with its lines, its latest messages and its hosted link, in one statement. */
  async findWithAnswerRows(
    owner: Owner,
    id: string,
    trx: Kysely<Database> = this.db,
  ): Promise<CreditNoteWithAnswerRows | undefined> {
    const row = (await this.selectAnswer({ companyId: owner.companyId, livemode: modeColumn(owner), id }, trx)).rows[0];
    if (!row) return undefined;
    const { answer_lines, answer_deliveries, answer_hosted_link, ...creditNote } = row;
    const { json } = this.dialect;
    return {
      creditNote,
      lines: json.parse(answer_lines),
      deliveries: json.parse(answer_deliveries),
      hostedLink: json.parse(answer_hosted_link),
    };
  }

  /** The panel's list, newest first, counted: those whose number or credited invoice's number contains `search` (lower-cased; all for ''). */
  async searchListRows(owner: Owner, search: string, at: PageAt): Promise<CountedPage<CreditNoteListRow>> {
    let query = this.db
      .selectFrom('credit_notes')
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (search !== '') {
      const pattern = containsPattern(search);
      query = query.where(
        sql<boolean>`(lower(number) like ${pattern} escape '\\' or lower(invoice_number) like ${pattern} escape '\\')`,
      );
    }
    const { n } = await query.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
    const total = Number(n);
    const { offset, limit } = at(total);
    const rows = await query
      .select(CREDIT_NOTE_LIST_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return { total, rows };
  }

  /** The list rows of one invoice's credit notes, oldest first (the order of the invoice's creditNoteIds). */
  async listRowsOfInvoice(owner: Owner, invoiceId: string): Promise<CreditNoteListRow[]> {
    return this.db
      .selectFrom('credit_notes')
      .select(CREDIT_NOTE_LIST_COLUMNS)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Up to `limit + 1` credit notes (without lines) after the cursor, newest first; `number` is a prefix. */
  async page(
    owner: Owner,
    filter: { invoiceId?: string; number?: string },
    page: { limit: number; after?: Cursor },
  ): Promise<CreditNoteRow[]> {
    let query = this.db
      .selectFrom('credit_notes')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (filter.invoiceId !== undefined) query = query.where('invoice_id', '=', filter.invoiceId);
    if (filter.number !== undefined) query = query.where(numberStartsWith(filter.number));
    if (page.after) query = query.where(afterCursor(page.after));
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }

  /** The lines of these credit notes (found in the right mode before), in order. */
  async linesOf(
    companyId: string,
    creditNoteIds: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<Map<string, CreditNoteLineRow[]>> {
    const byNote = new Map<string, CreditNoteLineRow[]>();
    if (creditNoteIds.length === 0) return byNote;
    const rows = await trx
      .selectFrom('credit_note_lines')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('credit_note_id', 'in', creditNoteIds)
      .orderBy('credit_note_id')
      .orderBy('position')
      .execute();
    for (const row of rows) byNote.set(row.credit_note_id, [...(byNote.get(row.credit_note_id) ?? []), row]);
    return byNote;
  }

  /** Records the SHA-256 of the credit note's PDF in a language, unless one was recorded first. */
  async recordPdfDigest(owner: Owner, id: string, lang: PdfDigestLanguage, sha256: string): Promise<void> {
    const column = `pdf_sha256_${lang}` as const;
    await this.db
      .updateTable('credit_notes')
      .set({ [column]: sha256 })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where(column, 'is', null)
      .execute();
  }

  /** An invoice's credit notes as its status shows them: number, issue date and amount, oldest first. */
  async summariesOfInvoice(
    owner: Owner,
    invoiceId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<Pick<CreditNoteRow, 'number' | 'issue_date' | 'payable'>[]> {
    return trx
      .selectFrom('credit_notes')
      .select(['number', 'issue_date', 'payable'])
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('invoice_id', '=', invoiceId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Every line of every credit note of an invoice: what voiding must not credit twice. */
  async linesOfInvoice(owner: Owner, invoiceId: string, trx: Kysely<Database> = this.db): Promise<CreditNoteLineRow[]> {
    return trx
      .selectFrom('credit_note_lines')
      .innerJoin('credit_notes', 'credit_notes.id', 'credit_note_lines.credit_note_id')
      .selectAll('credit_note_lines')
      .where('credit_notes.company_id', '=', owner.companyId)
      .where('credit_notes.livemode', '=', modeColumn(owner))
      .where('credit_notes.invoice_id', '=', invoiceId)
      .orderBy('credit_notes.created_at')
      .orderBy('credit_note_lines.credit_note_id')
      .orderBy('credit_note_lines.position')
      .execute();
  }
}
