import { sql, type Kysely } from 'kysely';
import type { Database, QuoteLinesTable, QuotesTable } from '../db/schema.js';
import { modeColumn, type Owner } from '../db/scope.js';
import { NumberSequences, type SequenceKey } from '../repositories/number-sequences.js';
import { afterCursor } from '../repositories/keyset.js';

// The queries of quotes, every one scoped by company and mode. State changes are compare-and-set
// UPDATEs (`WHERE status = …`): of two racing changes one finds the row changed, on SQLite
// because transactions take their turns, on PostgreSQL because the second waits for the first's
// row lock and then re-reads the row.

export type QuoteRow = QuotesTable;
export type QuoteLineRow = QuoteLinesTable;

export interface QuoteFilter {
  organizationId?: string;
  /** A prefix of the number. */
  number?: string;
  status?: 'draft' | 'open' | 'accepted' | 'declined' | 'expired';
  issueDateFrom?: string;
  issueDateTo?: string;
  /** YYYY-MM-DD, UTC: what `open` and `expired` are told apart by. */
  today: string;
}

export interface QuotePageCursor {
  createdAt: string;
  id: string;
}

const LINES_PER_STATEMENT = 50;

export class QuoteRepository {
  private readonly sequences = new NumberSequences();

  constructor(private readonly db: Kysely<Database>) {}

  /** The next number of the company's quote sequence for `key`, taken in `t`: a rollback gives it back. */
  async nextNumber(
    t: Kysely<Database>,
    key: SequenceKey,
    format: (year: number, value: number) => string,
  ): Promise<string> {
    for (;;) {
      const number = format(key.year, await this.sequences.next(t, key));
      const taken = await t
        .selectFrom('quotes')
        .select('id')
        .where('company_id', '=', key.companyId)
        .where('livemode', '=', key.livemode)
        .where('number', '=', number)
        .executeTakeFirst();
      if (!taken) return number;
    }
  }

  async insert(t: Kysely<Database>, quote: QuoteRow, lines: QuoteLineRow[]): Promise<void> {
    await t.insertInto('quotes').values(quote).execute();
    for (let i = 0; i < lines.length; i += LINES_PER_STATEMENT)
      await t
        .insertInto('quote_lines')
        .values(lines.slice(i, i + LINES_PER_STATEMENT))
        .execute();
  }

  async findById(
    owner: Owner,
    id: string,
    trx: Kysely<Database> = this.db,
  ): Promise<{ quote: QuoteRow; lines: QuoteLineRow[] } | undefined> {
    const quote = await trx
      .selectFrom('quotes')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
    if (!quote) return undefined;
    const lines = await trx
      .selectFrom('quote_lines')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('quote_id', '=', id)
      .orderBy('position')
      .execute();
    return { quote, lines };
  }

  /** The lines of these quotes, by quote. */
  async linesOf(companyId: string, quoteIds: string[]): Promise<Map<string, QuoteLineRow[]>> {
    const byQuote = new Map<string, QuoteLineRow[]>();
    if (quoteIds.length === 0) return byQuote;
    const rows = await this.db
      .selectFrom('quote_lines')
      .selectAll()
      .where('company_id', '=', companyId)
      .where('quote_id', 'in', quoteIds)
      .orderBy('quote_id')
      .orderBy('position')
      .execute();
    for (const row of rows) byQuote.set(row.quote_id, [...(byQuote.get(row.quote_id) ?? []), row]);
    return byQuote;
  }

  /** Up to `limit + 1` quotes, newest first, strictly after `after`. */
  async page(owner: Owner, filter: QuoteFilter, page: { limit: number; after?: QuotePageCursor }): Promise<QuoteRow[]> {
    let query = this.db
      .selectFrom('quotes')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    if (filter.number !== undefined) {
      const prefix = filter.number;
      query = query.where(sql<boolean>`substr(number, 1, length(cast(${prefix} as text))) = cast(${prefix} as text)`);
    }
    if (filter.issueDateFrom !== undefined) query = query.where('issue_date', '>=', filter.issueDateFrom);
    if (filter.issueDateTo !== undefined) query = query.where('issue_date', '<=', filter.issueDateTo);
    // Expiry is not stored: an open quote past its validUntil is expired.
    if (filter.status === 'open')
      query = query
        .where('status', '=', 'open')
        .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', filter.today)]));
    else if (filter.status === 'expired')
      query = query.where('status', '=', 'open').where('valid_until', '<', filter.today);
    else if (filter.status !== undefined) query = query.where('status', '=', filter.status);
    const after = page.after;
    if (after) query = query.where(afterCursor(after));
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }

  /** How many quotes the company has in this mode. */
  async count(owner: Owner): Promise<number> {
    const row = await this.db
      .selectFrom('quotes')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A page of the company's quotes by position (the panel's numbered pages), newest first. */
  async pageAt(owner: Owner, offset: number, limit: number): Promise<QuoteRow[]> {
    return this.db
      .selectFrom('quotes')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  /** draft → open with its dates and snapshots; false when it is no longer the draft of `expectedVersion`. */
  async send(
    t: Kysely<Database>,
    owner: Owner,
    id: string,
    expectedVersion: number,
    fields: Pick<
      QuoteRow,
      'issue_date' | 'valid_until' | 'buyer_snapshot' | 'seller_snapshot' | 'sent_at' | 'updated_at'
    >,
  ): Promise<boolean> {
    const result = await t
      .updateTable('quotes')
      .set({ ...fields, status: 'open', version: expectedVersion + 1 })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Replaces a draft's content and lines, if it is still the draft of `expectedVersion`; false
   * when it was edited, sent or deleted meanwhile.
   */
  async replaceDraft(
    t: Kysely<Database>,
    owner: Owner,
    id: string,
    expectedVersion: number,
    fields: Omit<Partial<QuoteRow>, 'id' | 'company_id' | 'livemode' | 'status' | 'version' | 'number'>,
    lines: QuoteLineRow[],
  ): Promise<boolean> {
    const result = await t
      .updateTable('quotes')
      .set({ ...fields, version: expectedVersion + 1 })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .where('version', '=', expectedVersion)
      .executeTakeFirst();
    if (result.numUpdatedRows !== 1n) return false;
    await t.deleteFrom('quote_lines').where('company_id', '=', owner.companyId).where('quote_id', '=', id).execute();
    for (let i = 0; i < lines.length; i += LINES_PER_STATEMENT)
      await t
        .insertInto('quote_lines')
        .values(lines.slice(i, i + LINES_PER_STATEMENT))
        .execute();
    return true;
  }

  /** Deletes a draft and its lines; false when it is no draft (any more). */
  async deleteDraft(t: Kysely<Database>, owner: Owner, id: string): Promise<boolean> {
    // Claim the draft first: the update locks its row (PostgreSQL) and checks its status in one
    // statement, so a send racing this delete either waits for it or has already won.
    const claimed = await t
      .updateTable('quotes')
      .set((eb) => ({ version: eb('version', '+', 1) }))
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'draft')
      .executeTakeFirst();
    if (claimed.numUpdatedRows !== 1n) return false;
    await t.deleteFrom('quote_lines').where('company_id', '=', owner.companyId).where('quote_id', '=', id).execute();
    await t.deleteFrom('quotes').where('company_id', '=', owner.companyId).where('id', '=', id).execute();
    return true;
  }

  /** open → accepted or declined, while it is valid on `today`; false when it was not. */
  async answer(
    t: Kysely<Database>,
    owner: Owner,
    id: string,
    answer: 'accepted' | 'declined',
    today: string,
    at: string,
  ): Promise<boolean> {
    const result = await t
      .updateTable('quotes')
      .set(
        answer === 'accepted'
          ? { status: 'accepted', accepted_at: at, updated_at: at }
          : { status: 'declined', declined_at: at, updated_at: at },
      )
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'open')
      .where((eb) => eb.or([eb('valid_until', 'is', null), eb('valid_until', '>=', today)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Claims an accepted quote for the invoice about to be made of it: true for exactly one of any
   * number of racing calls (the row lock on PostgreSQL, the writer's turns on SQLite).
   */
  async claimForInvoice(t: Kysely<Database>, owner: Owner, id: string, at: string): Promise<boolean> {
    const result = await t
      .updateTable('quotes')
      .set({ invoiced_at: at, updated_at: at })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('status', '=', 'accepted')
      .where('invoiced_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async setNumber(t: Kysely<Database>, owner: Owner, id: string, number: string): Promise<void> {
    await t
      .updateTable('quotes')
      .set({ number })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .execute();
  }

  /** Gives back a claim whose invoice was refused (nothing else was written), in the claim's transaction. */
  async releaseClaim(t: Kysely<Database>, owner: Owner, id: string): Promise<void> {
    await t
      .updateTable('quotes')
      .set({ invoiced_at: null })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('invoice_id', 'is', null)
      .execute();
  }

  async setInvoice(t: Kysely<Database>, owner: Owner, id: string, invoiceId: string): Promise<void> {
    await t
      .updateTable('quotes')
      .set({ invoice_id: invoiceId })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .execute();
  }
}
