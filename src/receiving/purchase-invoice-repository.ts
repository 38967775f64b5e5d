import { sql, type Kysely } from 'kysely';
import { bytesOfColumn, type Dialect } from '../db/dialect.js';
import type {
  Database,
  PurchaseInvoiceFilesTable,
  PurchaseInvoicesTable,
  PurchaseInvoiceState,
  PurchasePaymentsTable,
} from '../db/schema.js';
import { writeUnlessTaken } from '../db/transactions.js';
import { modeColumn, type Owner } from '../db/scope.js';

// Every query of received documents, scoped by company and mode. The unique index on (company,
// mode, supplier, kind, number) decides a duplicate; amounts and states change by compare-and-set,
// so racing payments or decisions never both win.

export type PurchaseInvoiceRow = PurchaseInvoicesTable;
export type PurchaseFileRow = PurchaseInvoiceFilesTable;
export type PurchasePaymentRow = PurchasePaymentsTable;
export type PurchaseFileInfo = Omit<PurchaseFileRow, 'content' | 'company_id' | 'livemode'>;

export interface PurchaseInvoiceFilter {
  organizationId?: string;
  state?: PurchaseInvoiceState;
  kind?: 'invoice' | 'credit-note';
  verdict?: PurchaseInvoicesTable['verdict'];
  /** Number prefix, case-sensitive. */
  number?: string;
  /** YYYY-MM-DD, inclusive. */
  dueDateFrom?: string;
  dueDateTo?: string;
  /** true: invoices with something due past their due date; false: all others. */
  overdue?: boolean;
  /** YYYY-MM-DD (UTC), inclusive: when it arrived. */
  receivedFrom?: string;
  receivedTo?: string;
}

/** The columns a state change or payment writes, if the row is still as it was read. */
export interface PurchaseChange {
  expected: Pick<PurchaseInvoiceRow, 'state' | 'amount_paid' | 'amount_credited'>;
  next: Partial<
    Pick<
      PurchaseInvoiceRow,
      | 'state'
      | 'amount_paid'
      | 'amount_credited'
      | 'owing'
      | 'dispute_reason'
      | 'approved_at'
      | 'disputed_at'
      | 'paid_at'
      | 'updated_at'
    >
  >;
}

const LIST_COLUMNS = [
  'id',
  'company_id',
  'livemode',
  'organization_id',
  'supplier_matched_by',
  'document_kind',
  'number',
  'type_code',
  'issue_date',
  'due_date',
  'currency',
  'seller_name',
  'totals',
  'payable',
  'amount_paid',
  'amount_credited',
  'owing',
  'state',
  'dispute_reason',
  'approved_at',
  'disputed_at',
  'paid_at',
  'corrects_number',
  'corrects_id',
  'syntax',
  'profile',
  'specification_id',
  'container',
  'verdict',
  'content_type',
  'original_sha256',
  'original_size',
  'channel',
  'created_at',
  'updated_at',
] as const;

/** A row as lists read it: without the document, its findings and what was not mapped. */
export type PurchaseInvoiceListRow = Pick<PurchaseInvoiceRow, (typeof LIST_COLUMNS)[number]>;

/** Where a page starts: after this row of the previous one. */
export interface ListCursor {
  createdAt: string;
  id: string;
}

/** The number starts with `prefix`, exactly and case-sensitively, the same on both databases (as the invoice list's filter). */
const numberStartsWith = (prefix: string) =>
  sql<boolean>`substr(number, 1, length(cast(${prefix} as text))) = cast(${prefix} as text)`;

/** The next day of a YYYY-MM-DD, as the start of its UTC instant. */
function startOfDayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

export class PurchaseInvoiceRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Until `t` ends, no other transaction links documents of this supplier's invoice `number`: an
   * invoice and a credit note correcting it that arrive at once are stored one after the other,
   * and the second sees the first, whichever it is.
   */
  async serializeLinking(t: Kysely<Database>, owner: Owner, organizationId: string, number: string): Promise<void> {
    await this.dialect.serializeOn(
      t,
      `purchase-invoice-link|${owner.companyId}|${modeColumn(owner)}|${organizationId}|${number}`,
    );
  }

  /**
   * The document, its original and its files, in `t`. False, with nothing written and `t` still
   * usable, when the supplier already sent a document of this kind with this number.
   */
  async insert(t: Kysely<Database>, row: PurchaseInvoiceRow, files: PurchaseFileRow[]): Promise<boolean> {
    const written = await writeUnlessTaken(t, async () => {
      await t.insertInto('purchase_invoices').values(row).execute();
    });
    if (!written) return false;
    for (const file of files) await t.insertInto('purchase_invoice_files').values(file).execute();
    return true;
  }

  /** The document the supplier sent first with this kind and number. */
  async findByNumber(
    owner: Owner,
    organizationId: string,
    kind: PurchaseInvoiceRow['document_kind'],
    number: string,
    trx: Kysely<Database> = this.db,
  ): Promise<PurchaseInvoiceRow | undefined> {
    return trx
      .selectFrom('purchase_invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('organization_id', '=', organizationId)
      .where('document_kind', '=', kind)
      .where('number', '=', number)
      .executeTakeFirst();
  }

  /** The supplier's credit notes that name `number` (BT-25) and were linked to no invoice yet. */
  async unlinkedCreditNotes(
    owner: Owner,
    organizationId: string,
    number: string,
    trx: Kysely<Database>,
  ): Promise<PurchaseInvoiceRow[]> {
    return trx
      .selectFrom('purchase_invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('organization_id', '=', organizationId)
      .where('corrects_number', '=', number)
      .where('document_kind', '=', 'credit-note')
      .where('corrects_id', 'is', null)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Links a credit note to the invoice it corrects, unless it was linked meanwhile. */
  async link(t: Kysely<Database>, owner: Owner, creditNoteId: string, invoiceId: string): Promise<boolean> {
    const result = await t
      .updateTable('purchase_invoices')
      .set({ corrects_id: invoiceId })
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', creditNoteId)
      .where('corrects_id', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async findById(owner: Owner, id: string, trx: Kysely<Database> = this.db): Promise<PurchaseInvoiceRow | undefined> {
    return trx
      .selectFrom('purchase_invoices')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The stored list of values the model has no field for (JSON text), or undefined for no such document. */
  async unmappedOf(owner: Owner, id: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('purchase_invoices')
      .select('unmapped')
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .executeTakeFirst();
    return row?.unmapped;
  }

  /** Writes a change if the row's state and amounts are still those it was read with. */
  async change(t: Kysely<Database>, owner: Owner, id: string, change: PurchaseChange): Promise<boolean> {
    const result = await t
      .updateTable('purchase_invoices')
      .set(change.next)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('id', '=', id)
      .where('state', '=', change.expected.state)
      .where('amount_paid', '=', change.expected.amount_paid)
      .where('amount_credited', '=', change.expected.amount_credited)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertPayment(t: Kysely<Database>, payment: PurchasePaymentRow): Promise<void> {
    await t.insertInto('purchase_payments').values(payment).execute();
  }

  /** The payments of these documents, oldest first. */
  async paymentsOf(owner: Owner, ids: string[], trx: Kysely<Database> = this.db): Promise<PurchasePaymentRow[]> {
    if (ids.length === 0) return [];
    return trx
      .selectFrom('purchase_payments')
      .selectAll()
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('purchase_invoice_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** The credit notes linked to these invoices: (credit note id, invoice id), oldest first. */
  async creditNotesOf(
    owner: Owner,
    ids: string[],
    trx: Kysely<Database> = this.db,
  ): Promise<{ id: string; corrects_id: string | null }[]> {
    if (ids.length === 0) return [];
    return trx
      .selectFrom('purchase_invoices')
      .select(['id', 'corrects_id'])
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('corrects_id', 'in', ids)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** What is known of the files of these documents, without their bytes. */
  async filesOf(owner: Owner, ids: string[], trx: Kysely<Database> = this.db): Promise<PurchaseFileInfo[]> {
    if (ids.length === 0) return [];
    return trx
      .selectFrom('purchase_invoice_files')
      .select(['purchase_invoice_id', 'position', 'source', 'name', 'mime_type', 'description', 'sha256', 'size'])
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('purchase_invoice_id', 'in', ids)
      .orderBy('purchase_invoice_id')
      .orderBy('position')
      .execute();
  }

  /** One file's bytes (position 0: the original). */
  async fileContent(
    owner: Owner,
    id: string,
    position: number,
  ): Promise<(PurchaseFileInfo & { content: Buffer }) | undefined> {
    const row = await this.db
      .selectFrom('purchase_invoice_files')
      .select([
        'purchase_invoice_id',
        'position',
        'source',
        'name',
        'mime_type',
        'description',
        'sha256',
        'size',
        'content',
      ])
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner))
      .where('purchase_invoice_id', '=', id)
      .where('position', '=', position)
      .executeTakeFirst();
    return row ? { ...row, content: bytesOfColumn(row.content) } : undefined;
  }

  /** A page of documents, newest first by when they arrived; `limit + 1` rows to tell whether another page follows. */
  async list(
    owner: Owner,
    filter: PurchaseInvoiceFilter,
    page: { limit: number; after?: ListCursor; today: string },
  ): Promise<PurchaseInvoiceListRow[]> {
    let query = this.db
      .selectFrom('purchase_invoices')
      .select(LIST_COLUMNS)
      .where('company_id', '=', owner.companyId)
      .where('livemode', '=', modeColumn(owner));
    if (filter.organizationId !== undefined) query = query.where('organization_id', '=', filter.organizationId);
    if (filter.state !== undefined) query = query.where('state', '=', filter.state);
    if (filter.kind !== undefined) query = query.where('document_kind', '=', filter.kind);
    if (filter.verdict !== undefined) query = query.where('verdict', '=', filter.verdict);
    if (filter.number !== undefined) query = query.where(numberStartsWith(filter.number));
    if (filter.dueDateFrom !== undefined) query = query.where('due_date', '>=', filter.dueDateFrom);
    if (filter.dueDateTo !== undefined) query = query.where('due_date', '<=', filter.dueDateTo);
    if (filter.receivedFrom !== undefined)
      query = query.where('created_at', '>=', `${filter.receivedFrom}T00:00:00.000Z`);
    if (filter.receivedTo !== undefined) query = query.where('created_at', '<', startOfDayAfter(filter.receivedTo));
    const today = page.today;
    if (filter.overdue === true)
      query = query.where('document_kind', '=', 'invoice').where('owing', '=', 1).where('due_date', '<', today);
    if (filter.overdue === false) {
      query = query.where((eb) =>
        eb.or([
          eb('document_kind', '!=', 'invoice'),
          eb('owing', '=', 0),
          eb('due_date', 'is', null),
          eb('due_date', '>=', today),
        ]),
      );
    }
    const after = page.after;
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('created_at', '<', after.createdAt),
          eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
        ]),
      );
    }
    return query
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
  }
}
