import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { CreditNoteRepository } from '../../repositories/credit-note-repository.js';
import type { CreditNote } from '../../schemas/credit-note.js';
import { creditNoteFromRows } from '../../services/credit-note-mapping.js';
import { modeColumn, type Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, numberStartsWith, type Cursor, type SerializedPage } from './pagination.js';

const CHUNK = 10;

/** Read side of credit notes; every query is scoped by company and mode. */
export class CreditNoteQueries {
  private readonly creditNotes: CreditNoteRepository;

  constructor(private readonly db: Kysely<Database>) {
    this.creditNotes = new CreditNoteRepository(db);
  }

  async findById(owner: Owner, id: string): Promise<CreditNote | undefined> {
    const found = await this.creditNotes.findById(owner, id);
    return found ? creditNoteFromRows(found.creditNote, found.lines) : undefined;
  }

  /** A page of credit notes, newest first, within `maxBytes` (lines loaded a few notes at a time). */
  async list(owner: Owner, filter: { invoiceId?: string; number?: string }, page: { limit: number; after?: Cursor; maxBytes: number }): Promise<SerializedPage> {
    let query = this.db.selectFrom('credit_notes').selectAll().where('company_id', '=', owner.companyId).where('livemode', '=', modeColumn(owner));
    if (filter.invoiceId !== undefined) query = query.where('invoice_id', '=', filter.invoiceId);
    if (filter.number !== undefined) query = query.where(numberStartsWith(filter.number));
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([eb('created_at', '<', after.createdAt), eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)])]),
      );
    }
    const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
    const candidates = rows.slice(0, page.limit);
    const budget = new PageBudget<CreditNote>(page.maxBytes);
    for (let start = 0; start < candidates.length && !budget.full; start += CHUNK) {
      const chunk = candidates.slice(start, start + CHUNK);
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const lines = await this.creditNotes.linesOf(owner.companyId, chunk.map((row) => row.id));
      for (const row of chunk) if (!budget.offer(creditNoteFromRows(row, lines.get(row.id) ?? []))) break;
    }
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
