import type { Einvoice } from '../documents/einvoice-model.js';
import type { Judgement } from '../documents/read/index.js';
import { isKnownCurrency, minorUnitDigits } from '../money/currency.js';
import { Decimal } from '../money/decimal.js';
import type { PurchaseInvoice, PurchaseInvoiceSummary } from '../schemas/purchase-invoice.js';
import type {
  PurchaseFileInfo,
  PurchaseInvoiceListRow,
  PurchaseInvoiceRow,
  PurchasePaymentRow,
} from './purchase-invoice-repository.js';

// Rows of received documents as the API answers them, and the model as it is stored: the
// embedded attachments' bytes are kept as files, so the stored model names the file instead.

/** The model as stored and answered: an embedded attachment names its file (1-based), not its bytes. */
export type StoredEinvoice = Omit<Einvoice, 'attachments'> & {
  attachments?: (Omit<NonNullable<Einvoice['attachments']>[number], 'embedded'> & {
    embedded: { mimeCode: string | null; filename: string | null; file: number } | null;
  })[];
};

/** The stored form of a read model: BG-24 attachments with bytes become references to files 1, 2, … in their order. */
export function storedModel(model: Einvoice): StoredEinvoice {
  let file = 0;
  const { attachments, ...rest } = model;
  if (attachments === undefined) return rest;
  return {
    ...rest,
    attachments: attachments.map(({ embedded, ...attachment }) => ({
      ...attachment,
      embedded: embedded ? { mimeCode: embedded.mimeCode, filename: embedded.filename, file: ++file } : null,
    })),
  };
}

/** The verdict as stored: the judgement and the rule sets it was judged by. */
export interface StoredVerdict {
  rulesApplied: ('en16931' | 'peppol' | 'xrechnung')[];
  structure: Judgement['structure'];
  findings: Judgement['findings'];
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A decimal text as a Decimal, or null for none or text that is no decimal. */
export function decimalOf(text: string | null | undefined): Decimal | null {
  const trimmed = text?.trim();
  return trimmed && DECIMAL.test(trimmed) ? new Decimal(trimmed) : null;
}

/** The minor-unit digits amounts of this currency are shown with (2 for a code we do not know). */
export function digitsOf(currency: string | null): number {
  return currency && isKnownCurrency(currency) ? minorUnitDigits(currency) : 2;
}

/** An amount with the currency's digits, or more where the value has more (exact, never rounded). */
export function money(value: Decimal, digits: number): string {
  const shown = value.isZero() ? new Decimal(0) : value;
  return shown.toFixed(Math.max(digits, shown.decimalPlaces()));
}

/** What is still owed on a row: payable − paid − credited; null when it states no payable amount. */
export function amountDueOf(
  row: Pick<PurchaseInvoiceRow, 'payable' | 'amount_paid' | 'amount_credited'>,
): Decimal | null {
  const payable = decimalOf(row.payable);
  return payable === null ? null : payable.minus(row.amount_paid).minus(row.amount_credited);
}

export interface RowExtras {
  files: PurchaseFileInfo[];
  payments: PurchasePaymentRow[];
  creditNoteIds: string[];
}

export function summaryOf(row: PurchaseInvoiceListRow, extras: RowExtras): PurchaseInvoiceSummary {
  const digits = digitsOf(row.currency);
  const due = amountDueOf(row);
  return {
    id: row.id,
    livemode: row.livemode === 1,
    kind: row.document_kind,
    number: row.number,
    typeCode: row.type_code,
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    supplier: { organizationId: row.organization_id, name: row.seller_name, matchedBy: row.supplier_matched_by },
    totals: JSON.parse(row.totals) as PurchaseInvoiceSummary['totals'],
    amountPaid: money(new Decimal(row.amount_paid), digits),
    amountCredited: money(new Decimal(row.amount_credited), digits),
    amountDue: due === null ? null : money(due, digits),
    state: row.state,
    disputeReason: row.dispute_reason,
    correctsNumber: row.corrects_number,
    correctsId: row.corrects_id,
    creditNoteIds: extras.creditNoteIds,
    syntax: row.syntax,
    profile: row.profile,
    container: row.container,
    verdict: row.verdict,
    original: { contentType: row.content_type, size: row.original_size, sha256: row.original_sha256 },
    attachments: extras.files
      .filter((f) => f.position > 0)
      .map((f) => ({
        n: f.position,
        source: f.source === 'pdf' ? 'pdf' : 'xml',
        name: f.name,
        mimeType: f.mime_type,
        description: f.description,
        size: f.size,
        sha256: f.sha256,
      })),
    payments: extras.payments.map((p) => ({
      id: p.id,
      amount: money(new Decimal(p.amount), digits),
      date: p.date,
      method: p.method as PurchaseInvoiceSummary['payments'][number]['method'],
      reference: p.reference,
      createdAt: p.created_at,
    })),
    channel: row.channel,
    receivedAt: row.created_at,
    approvedAt: row.approved_at,
    disputedAt: row.disputed_at,
    paidAt: row.paid_at,
  };
}

export function purchaseInvoiceOf(row: PurchaseInvoiceRow, extras: RowExtras): PurchaseInvoice {
  const verdict = JSON.parse(row.findings) as StoredVerdict;
  return {
    ...summaryOf(row, extras),
    judgement: {
      verdict: row.verdict,
      rulesApplied: verdict.rulesApplied,
      structure: {
        valid: verdict.structure.valid,
        check: 'schema-less',
        findings: verdict.structure.findings.map(findingOf),
      },
      findings: verdict.findings.map(findingOf),
    },
    document: JSON.parse(row.document) as PurchaseInvoice['document'],
    unmappedCount: (JSON.parse(row.unmapped) as unknown[]).length,
  };
}

function findingOf(f: Judgement['findings'][number]): PurchaseInvoice['judgement']['findings'][number] {
  return { rule: f.rule, severity: f.severity, term: f.term, location: f.location, message: f.message };
}
