import type { ErrorDetail } from '../errors/app-error.js';
import type { CompanyRow } from '../repositories/company-repository.js';
import type { OrganizationRow } from '../repositories/organization-repository.js';
import { EINVOICE_PROFILES, type EinvoiceProfile, type EinvoiceReadiness } from '../schemas/einvoice-readiness.js';
import { withCompanyDefaults } from './document-extras.js';
import { documentViewOf, einvoiceProblems, einvoiceProblemsEach, type DocumentSource } from './document-view.js';
import type { InvoiceContent } from './invoice-input.js';
import { buyerOf, sellerOf } from './parties.js';

// What a document can be exported to, said early. Before an invoice is issued, validateFor refuses
// it with its gaps (gapsFor); once issued, its answer carries, for each e-invoice profile, the gaps
// the export would refuse it for (the same check, so the same rule ids and field names as the
// export's 422 EINVOICE_INCOMPLETE), without refusing anything. An issued document never changes,
// so neither does what it lacks (for one version of the rules).

/**
 * Readiness of recently answered documents, by id. An issued document never changes, so its
 * readiness is the same for as long as this code runs: a read of a recent invoice (the view and
 * three rule sets cost about 0.2 ms for five lines) need not work it out again. Ids are never
 * reused; the oldest entry makes room.
 */
const recent = new Map<string, EinvoiceReadiness>();
const RECENT_MAX = 1000;

/** The readiness of the issued document `id`, made by `source` unless it was made recently. */
export function einvoiceReadinessOf(id: string, source: () => DocumentSource): EinvoiceReadiness {
  let readiness = recent.get(id);
  if (readiness === undefined) {
    readiness = einvoiceReadiness(source());
    if (recent.size >= RECENT_MAX) recent.delete(recent.keys().next().value!);
    recent.set(id, readiness);
  }
  return readiness;
}

/** The profiles a document can be exported to, and what each of the others lacks. */
export function einvoiceReadiness(source: DocumentSource): EinvoiceReadiness {
  const [en16931, peppol, xrechnung] = einvoiceProblemsEach(documentViewOf(source), [
    ['en16931'],
    ['peppol'],
    ['xrechnung'],
  ]);
  const missing = { en16931: en16931!, peppol: peppol!, xrechnung: xrechnung! };
  return { exportableTo: EINVOICE_PROFILES.filter((profile) => missing[profile].length === 0), missing };
}

export type EinvoiceTarget = EinvoiceProfile;

/**
 * What would keep the invoice, issued now, from being a valid e-invoice of these kinds: checked
 * before issuing, since an issued invoice can no longer be changed.
 */
export function gapsFor(
  targets: EinvoiceTarget[],
  content: Omit<InvoiceContent, 'organizationId' | 'digits' | 'issueDate'> & { issueDate: string },
  company: CompanyRow,
  organization: OrganizationRow,
): ErrorDetail[] {
  const view = documentViewOf({
    typeCode: '380',
    number: content.number ?? 'PENDING',
    issueDate: content.issueDate,
    dueDate: content.dueDate,
    currency: content.currency,
    pricesIncludeTax: content.pricesIncludeTax,
    buyerReference: content.buyerReference,
    purchaseOrderReference: content.purchaseOrderReference,
    note: content.note,
    extras: withCompanyDefaults(content, company, content.currency),
    seller: sellerOf(company),
    buyer: buyerOf(organization),
    lines: content.lines,
    precedingInvoice: null,
    draft: false,
    test: false,
  });
  return einvoiceProblems(view, targets);
}
