import { sql, type Kysely, type OnConflictBuilder } from 'kysely';
import { prepareQuery, preparedInsert } from '../db/prepared-query.js';
import type { Database, InvoiceLinesTable, InvoicesTable } from '../db/schema.js';

export type InvoiceRow = InvoicesTable;
export type InvoiceLineRow = InvoiceLinesTable;

/** How the invoice gets its number: the next of the company's yearly sequence, or the client's. */
export type Numbering =
  | { kind: 'sequence'; year: number; format: (year: number, value: number) => string }
  | { kind: 'given'; number: string };

export type InsertInvoiceResult = { ok: true; number: string } | { ok: false; reason: 'number_taken' };

// Lines go in a few statements of bounded size (parameter limits: SQLite 32766, PostgreSQL 65535).
const LINES_PER_STATEMENT = 100;

export class InvoiceRepository {
  // The statements of every invoice creation, compiled once (see src/db/prepared-query.ts).
  private readonly insertLines;
  private readonly insertInvoiceIfNumberFree;
  private readonly advanceCounter;

  constructor(private readonly db: Kysely<Database>) {
    this.insertLines = preparedInsert(db, 'invoice_lines');
    this.insertInvoiceIfNumberFree = preparedInsert<{ id: string }>(db, 'invoices', (builder) =>
      builder.onConflict((oc: OnConflictBuilder<Database, 'invoices'>) => oc.columns(['company_id', 'number']).doNothing()).returning('id'),
    );
    this.advanceCounter = prepareQuery<{ companyId: string; year: number; first: number }, { last_value: number }>(db, (d, param) =>
      d
        .insertInto('invoice_counters')
        .values({ company_id: param('companyId'), year: param('year'), last_value: param('first') })
        .onConflict((oc) => oc.columns(['company_id', 'year']).doUpdateSet({ last_value: sql<number>`invoice_counters.last_value + 1` }))
        .returning('last_value'),
    );
  }

  /**
   * Inserts the invoice and its lines in one transaction (the given one, or its own), numbered
   * as asked. A sequence number is taken from the counter row in the same transaction, so a
   * rollback gives it back and the counter's row lock (PostgreSQL) makes concurrent creations
   * wait their turn. `ON CONFLICT DO NOTHING` on (company_id, number) means a number already
   * used never raises an error (which would abort a PostgreSQL transaction): a given number is
   * then refused, and a sequence number that a client took earlier is skipped for the next one.
   */
  async insertWithNumber(
    invoice: Omit<InvoiceRow, 'number'>,
    lines: InvoiceLineRow[],
    numbering: Numbering,
    trx?: Kysely<Database>,
  ): Promise<InsertInvoiceResult> {
    const work = async (t: Kysely<Database>): Promise<InsertInvoiceResult> => {
      let number: string;
      if (numbering.kind === 'given') {
        number = numbering.number;
        if (!(await this.insertIfNumberFree(t, { ...invoice, number }))) return { ok: false, reason: 'number_taken' };
      } else {
        do {
          const value = await this.takeNextValue(t, invoice.company_id, numbering.year);
          number = numbering.format(numbering.year, value);
        } while (!(await this.insertIfNumberFree(t, { ...invoice, number })));
      }
      for (let i = 0; i < lines.length; i += LINES_PER_STATEMENT) {
        await this.insertLines(lines.slice(i, i + LINES_PER_STATEMENT), t);
      }
      return { ok: true, number };
    };
    if (trx?.isTransaction) return work(trx);
    return (trx ?? this.db).transaction().execute(work);
  }

  /** Advances the company's counter for the year (creating it at 1) and returns the new value. */
  private async takeNextValue(t: Kysely<Database>, companyId: string, year: number): Promise<number> {
    const { rows } = await this.advanceCounter({ companyId, year, first: 1 }, t);
    if (!rows[0]) throw new Error('The invoice counter returned no value');
    return Number(rows[0].last_value);
  }

  private async insertIfNumberFree(t: Kysely<Database>, row: InvoiceRow): Promise<boolean> {
    const { rows } = await this.insertInvoiceIfNumberFree([row], t);
    return rows.length > 0;
  }

  async findById(companyId: string, id: string, trx: Kysely<Database> = this.db): Promise<{ invoice: InvoiceRow; lines: InvoiceLineRow[] } | undefined> {
    const invoice = await trx.selectFrom('invoices').selectAll().where('company_id', '=', companyId).where('id', '=', id).executeTakeFirst();
    if (!invoice) return undefined;
    const lines = await trx
      .selectFrom('invoice_lines')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('invoice_id', '=', id)
      .orderBy('position')
      .execute();
    return { invoice, lines };
  }

  /** The last value handed out by the company's counter for the year; 0 when none was. */
  async lastNumberValue(companyId: string, year: number, trx: Kysely<Database> = this.db): Promise<number> {
    const row = await trx
      .selectFrom('invoice_counters')
      .select('last_value')
      .where('company_id', '=', companyId)
      .where('year', '=', year)
      .executeTakeFirst();
    return row ? Number(row.last_value) : 0;
  }
}
