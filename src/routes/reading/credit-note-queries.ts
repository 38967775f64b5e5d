import { emailDeliveryOf } from '../../delivery/email-delivery-service.js';
import type { CreditNoteRepository } from '../../repositories/credit-note-repository.js';
import type { HostedLinkOf } from '../../services/hosted-link-port.js';
import type { CreditNote } from '../../schemas/credit-note.js';
import { creditNoteFromRows } from '../../services/credit-note-mapping.js';
import type { Owner } from '../../db/scope.js';
import { PageBudget, cursorAfter, type Cursor, type SerializedPage } from './pagination.js';

const CHUNK = 10;

/** Read side of credit notes: the repository's rows as the API shows them. */
export class CreditNoteQueries {
  constructor(
    private readonly creditNotes: CreditNoteRepository,
    private readonly hostedLinkOf: HostedLinkOf,
  ) {}

  /** The credit note with its lines, messages and hosted link, read in one statement (the link made on first ask). */
  async findById(owner: Owner, id: string): Promise<CreditNote | undefined> {
    const found = await this.creditNotes.findWithAnswerRows(owner, id);
    if (!found) return undefined;
    const hosted = await this.hostedLinkOf(owner, 'credit-note', id, undefined, found.hostedLink);
    return creditNoteFromRows(found.creditNote, found.lines, found.deliveries.map(emailDeliveryOf), hosted);
  }

  /** A page of credit notes, newest first, within `maxBytes` (lines loaded a few notes at a time). */
  async list(
    owner: Owner,
    filter: { invoiceId?: string; number?: string },
    page: { limit: number; after?: Cursor; maxBytes: number },
  ): Promise<SerializedPage> {
    const rows = await this.creditNotes.page(
      owner,
      filter,
      page.after ? { limit: page.limit, after: page.after } : { limit: page.limit },
    );
    const candidates = rows.slice(0, page.limit);
    const budget = new PageBudget<CreditNote>(page.maxBytes);
    for (let start = 0; start < candidates.length && !budget.full; start += CHUNK) {
      const chunk = candidates.slice(start, start + CHUNK);
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const lines = await this.creditNotes.linesOf(
        owner.companyId,
        chunk.map((row) => row.id),
      );
      for (const row of chunk) if (!budget.offer(creditNoteFromRows(row, lines.get(row.id) ?? []))) break;
    }
    return { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, page.limit) };
  }
}
