import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import type { DocumentReader } from '../documents/read/read-pool.js';
import type { ReceivedDocument } from '../documents/read/received.js';
import { CREDIT_NOTE_TYPE_CODES_UBL } from '../documents/rules/code-list-data.js';
import type { ErrorDetail } from '../errors/app-error.js';
import type { EventRecorder } from '../events/event-recorder.js';
import { newId } from '../lib/ids.js';
import { WorkerJobError } from '../lib/worker-pool.js';
import type { PurchaseInvoice } from '../schemas/purchase-invoice.js';
import { modeColumn, type Scope } from '../db/scope.js';
import { decimalOf, storedModel, type StoredVerdict } from './purchase-invoice-mapping.js';
import type { PurchaseInvoiceReads } from './purchase-invoice-reads.js';
import type { PurchaseFileRow, PurchaseInvoiceRepository, PurchaseInvoiceRow } from './purchase-invoice-repository.js';
import type { PurchaseLedger } from './purchase-ledger.js';
import type { SupplierMatcher } from './supplier-matching.js';

// A received document in: read and judged off the event loop (the reading pool), then stored in
// one transaction with its supplier, its original and its files, its verdict, and its event.
// Reading happens before the transaction (it may take seconds and needs no database); what
// happens inside cannot fail for a reason the sender could have fixed, except a duplicate, which
// the unique index decides.

export type Channel = 'api' | 'panel';

export interface Upload {
  /** The body exactly as it arrived: stored unchanged. */
  bytes: Buffer;
  /** The Content-Type it was sent with, if any (its words only; the content decides what it is). */
  contentType: string | null;
  channel: Channel;
}

export type ReadUploadResult =
  | { ok: true; value: ReceivedDocument }
  | { ok: false; code: 'EINVOICE_REFUSED'; message: string; details: ErrorDetail[] }
  | { ok: false; code: 'SERVICE_UNAVAILABLE'; message: string; retryAfterSeconds: number };

export type StoreResult =
  | { ok: true; value: PurchaseInvoice }
  | { ok: false; code: 'EINVOICE_INVALID' | 'DUPLICATE_DOCUMENT'; message: string; details: ErrorDetail[] };

export interface StoreOptions {
  /** ?require=valid: an invalid document is refused (and nothing stored) instead of stored and flagged. */
  requireValid: boolean;
}

/** The content type an original is answered with: what it is, not what it was sent as. */
const contentTypeOf = (read: ReceivedDocument) =>
  read.container.type === 'pdf' ? 'application/pdf' : 'application/xml';

const text = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

export class Intake {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly reader: DocumentReader,
    private readonly repository: PurchaseInvoiceRepository,
    private readonly suppliers: SupplierMatcher,
    private readonly ledger: PurchaseLedger,
    private readonly events: EventRecorder,
    private readonly reads: PurchaseInvoiceReads,
  ) {}

  /** Reads and judges an upload in the reading pool; a refusal says what was found. */
  async read(upload: Upload): Promise<ReadUploadResult> {
    let result;
    try {
      result = await this.reader.read(upload.bytes, upload.contentType);
    } catch (error) {
      if (!(error instanceof WorkerJobError)) throw error;
      switch (error.reason) {
        case 'busy':
        case 'closed':
          return {
            ok: false,
            code: 'SERVICE_UNAVAILABLE',
            message: `${error.message} Retry shortly.`,
            retryAfterSeconds: 1,
          };
        case 'timeout':
        case 'memory': {
          const message = `${error.message} It is not read: a document that takes this much to read is not an e-invoice this service accepts.`;
          return {
            ok: false,
            code: 'EINVOICE_REFUSED',
            message,
            details: [{ field: 'body', code: error.reason === 'timeout' ? 'read_timeout' : 'read_memory', message }],
          };
        }
        default:
          throw error;
      }
    }
    if (!result.ok)
      return {
        ok: false,
        code: 'EINVOICE_REFUSED',
        message: result.message,
        details: [{ field: 'body', code: result.code.toLowerCase(), message: result.message }],
      };
    return { ok: true, value: result };
  }

  /** Stores a read document for the scope's company: supplier, duplicate check, files, verdict, links, event. */
  async store(
    scope: Scope,
    read: ReceivedDocument,
    upload: Upload,
    options: StoreOptions,
    now: Date = new Date(),
    trx?: Kysely<Database>,
  ): Promise<StoreResult> {
    const { judgement } = read;
    if (options.requireValid && judgement.verdict === 'invalid') {
      const all = [...judgement.structure.findings, ...judgement.findings];
      const fatal = all.filter((f) => f.severity === 'fatal').length;
      return {
        ok: false,
        code: 'EINVOICE_INVALID',
        message: `The e-invoice is invalid: it breaks ${fatal} ${fatal === 1 ? 'rule' : 'rules'} (${[...new Set(all.filter((f) => f.severity === 'fatal').map((f) => f.rule))].slice(0, 5).join(', ')}${fatal > 5 ? ', …' : ''}). Nothing was stored.`,
        details: all.map((f) => ({
          field: f.location,
          code: f.rule,
          message: f.message,
          severity: f.severity,
          term: f.term,
        })),
      };
    }
    const model = read.model;
    const kind =
      read.kind === 'credit-note' || CREDIT_NOTE_TYPE_CODES_UBL.has(text(model.typeCode) ?? '')
        ? 'credit-note'
        : 'invoice';
    const number = text(model.number);
    const correctsNumber = kind === 'credit-note' ? text(model.precedingInvoice?.number) : null;
    const payable = decimalOf(model.totals.payable);
    const at = now.toISOString();
    const sha256 = createHash('sha256').update(upload.bytes).digest('hex');

    return inTransaction(this.db, trx, async (t): Promise<StoreResult> => {
      const supplier = await this.suppliers.match(scope, model.seller, now, t);
      const organizationId = supplier.organization.id;
      const duplicate = async (): Promise<StoreResult | null> => {
        const first =
          number === null ? undefined : await this.repository.findByNumber(scope, organizationId, kind, number, t);
        if (!first) return null;
        const what = kind === 'invoice' ? 'invoice' : 'credit note';
        const message = `${supplier.organization.name} already sent ${what} ${number}: it was received on ${first.created_at.slice(0, 10)} as ${first.id}.`;
        return {
          ok: false,
          code: 'DUPLICATE_DOCUMENT',
          message,
          details: [{ field: 'number', code: 'duplicate_document', message, existingId: first.id }],
        };
      };
      // An invoice and the credit note correcting it, arriving at once: the second to take this
      // lock sees the first, so one of them links the pair (tested with parallel uploads).
      const linkingNumber = kind === 'invoice' ? number : correctsNumber;
      if (linkingNumber !== null) await this.repository.serializeLinking(t, scope, organizationId, linkingNumber);
      const earlier = await duplicate();
      if (earlier) return earlier;
      const corrected =
        correctsNumber === null
          ? undefined
          : await this.repository.findByNumber(scope, organizationId, 'invoice', correctsNumber, t);

      const id = newId('pin');
      const verdict: StoredVerdict = {
        rulesApplied: read.claims,
        structure: judgement.structure,
        findings: judgement.findings,
      };
      const row: PurchaseInvoiceRow = {
        id,
        company_id: scope.companyId,
        livemode: modeColumn(scope),
        organization_id: organizationId,
        supplier_matched_by: supplier.matchedBy,
        document_kind: kind,
        number,
        type_code: text(model.typeCode),
        issue_date: text(model.issueDate),
        due_date: text(model.dueDate),
        currency: text(model.currency.code),
        seller_name: text(model.seller.name),
        totals: JSON.stringify(model.totals),
        payable: payable === null ? null : payable.toFixed(),
        amount_paid: '0',
        amount_credited: '0',
        owing: kind === 'invoice' && payable !== null && payable.greaterThan(0) ? 1 : 0,
        state: 'received',
        dispute_reason: null,
        approved_at: null,
        disputed_at: null,
        paid_at: null,
        corrects_number: correctsNumber,
        corrects_id: corrected?.id ?? null,
        syntax: read.syntax,
        profile: read.profile,
        specification_id: text(model.specificationId),
        container: read.container.type,
        verdict: judgement.verdict,
        findings: JSON.stringify(verdict),
        document: JSON.stringify(storedModel(model)),
        unmapped: JSON.stringify(read.unmapped),
        content_type: contentTypeOf(read),
        original_sha256: sha256,
        original_size: upload.bytes.byteLength,
        channel: upload.channel,
        created_at: at,
        updated_at: at,
      };
      const owner = { company_id: scope.companyId, livemode: modeColumn(scope), purchase_invoice_id: id };
      const files: PurchaseFileRow[] = [
        {
          ...owner,
          position: 0,
          source: 'upload',
          name: null,
          mime_type: row.content_type,
          description: null,
          sha256,
          size: upload.bytes.byteLength,
          content: upload.bytes,
        },
        ...read.attachments.map((file, index): PurchaseFileRow => ({
          ...owner,
          position: index + 1,
          source: file.source,
          name: file.name,
          mime_type: file.mimeType,
          description: file.description,
          sha256: createHash('sha256').update(file.content).digest('hex'),
          size: file.content.byteLength,
          content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
        })),
      ];
      // Two uploads of one document at once: the unique index lets one in, the other is a duplicate.
      if (!(await this.repository.insert(t, row, files))) {
        const first = await duplicate();
        if (!first)
          throw new Error(
            `Receiving ${number}: the unique index refused it, but no earlier document of that number is visible`,
          );
        return first;
      }

      // A credit note reduces what we owe on the invoice it corrects; an invoice takes the credit
      // notes that named it before it arrived.
      if (corrected && kind === 'credit-note') await this.ledger.credit(scope, corrected.id, payable, now, t);
      if (kind === 'invoice' && number !== null) {
        for (const note of await this.repository.unlinkedCreditNotes(scope, organizationId, number, t)) {
          if (await this.repository.link(t, scope, note.id, id))
            await this.ledger.credit(scope, id, decimalOf(note.payable), now, t);
        }
      }
      const received = (await this.reads.get(scope, id, t))!;
      const { judgement: _judgement, document: _document, unmappedCount: _unmappedCount, ...summary } = received;
      await this.events.record(t, scope, 'purchase_invoice.received', summary, now);
      return { ok: true, value: received };
    });
  }
}
