import type { PdfLanguage } from '../../documents/index.js';
import type { EinvoiceProfile, EinvoiceReadiness } from '../../schemas/einvoice-readiness.js';
import type { ErrorDetail } from '../../errors/app-error.js';
import { ERRORS } from '../../errors/codes.js';
import { html, type SafeHtml } from '../html.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';

// The documents of an invoice or credit note, as the customer received them: the PDF (as issued,
// and a status copy) in each language, and the e-invoices. The files come from the panel's own
// routes (routes/documents.ts), which render them exactly as the API does.

export type DownloadKind = 'invoice' | 'credit-note';

/** The language the API renders when none is asked for comes first; documents carry no language of their own. */
const LANGUAGES: { lang: PdfLanguage; name: string }[] = [
  { lang: 'en', name: 'English' },
  { lang: 'de', name: 'Deutsch' },
  { lang: 'fr', name: 'Français' },
];

/** The e-invoices, each with the readiness profile that says whether it exports. */
export const EINVOICE_FORMATS: { path: string; name: string; profile: EinvoiceProfile }[] = [
  { path: 'ubl', name: 'UBL · Peppol BIS 3.0', profile: 'peppol' },
  { path: 'ubl?profile=xrechnung', name: 'UBL · XRechnung 3.0', profile: 'xrechnung' },
  { path: 'cii', name: 'CII · EN 16931 (Factur-X)', profile: 'en16931' },
  { path: 'cii?profile=xrechnung', name: 'CII · XRechnung 3.0', profile: 'xrechnung' },
];

const PROFILE_NAMES: Record<string, string> = {
  'ubl/peppol': 'UBL (Peppol BIS Billing 3.0)',
  'ubl/xrechnung': 'UBL XRechnung 3.0',
  'cii/en16931': 'CII EN 16931 (Factur-X / ZUGFeRD)',
  'cii/xrechnung': 'CII XRechnung 3.0',
};

export function profileName(format: 'ubl' | 'cii', profile: string): string {
  return PROFILE_NAMES[`${format}/${profile}`] ?? `${format.toUpperCase()} ${profile}`;
}

export function documentPath(kind: DownloadKind, id: string): string {
  return `${PANEL_PATH}/${kind === 'invoice' ? 'invoices' : 'credit-notes'}/${encodeURIComponent(id)}`;
}

function languageLinks(base: string, what: string, query: string): SafeHtml {
  return html`${LANGUAGES.map(
    ({ lang, name }, i) =>
      html`${i ? html`<span aria-hidden="true"> · </span>` : ''}<a href="${base}/pdf?lang=${lang}${query}" hreflang="${lang}" class="download" aria-label="${what}, ${name}"><span lang="${lang}">${name}</span></a>`,
  )}`;
}

/** The gaps of one profile, in a few words: which fields to set. */
function gapsOf(readiness: EinvoiceReadiness, profile: EinvoiceProfile): string[] {
  return [...new Set(readiness.missing[profile].map((gap) => gap.field))];
}

/**
 * The Documents section. A draft has only its PDF, marked DRAFT; an issued document has the
 * PDF as issued, a status copy, and every e-invoice, each either a link or what it lacks.
 */
export function documentDownloads(
  kind: DownloadKind,
  id: string,
  options: { draft: boolean; einvoice: EinvoiceReadiness | null },
): SafeHtml {
  const base = documentPath(kind, id);
  const noun = kind === 'invoice' ? 'invoice' : 'credit note';
  if (options.draft) {
    return html`<section class="downloads" aria-labelledby="documents-heading"><h2 id="documents-heading">Documents</h2>
<dl class="download-list">
  <dt>Draft PDF</dt><dd>${languageLinks(base, 'Draft PDF', '')}<br><small class="muted">Marked DRAFT and asking for no payment. A draft has no e-invoice until it is finalized.</small></dd>
</dl></section>`;
  }
  const readiness = options.einvoice;
  return html`<section class="downloads" aria-labelledby="documents-heading"><h2 id="documents-heading">Documents</h2>
<dl class="download-list">
  <dt>PDF as issued</dt><dd>${languageLinks(base, 'PDF as issued', '')}<br><small class="muted">The ${noun} the customer received, the same file at every download.</small></dd>
  <dt>Status copy (PDF)</dt><dd>${languageLinks(base, 'Status copy', '&copy=status')}<br><small class="muted">Marked COPY, with what was paid and credited since and the balance today.</small></dd>
  <dt>E-invoice (XML)</dt><dd><ul class="einvoice-downloads">${EINVOICE_FORMATS.map((format) => {
    const gaps = readiness ? gapsOf(readiness, format.profile) : [];
    return html`<li><a href="${base}/${format.path}" class="download">${format.name}</a>${
      gaps.length ? html` <small class="muted einvoice-gaps">incomplete: lacks ${gaps.join(', ')}</small>` : ''
    }</li>`;
  })}</ul></dd>
</dl></section>`;
}

/** The page a refused e-invoice answers: which fields the document lacks, each with the rule it would break. */
export function incompleteEinvoicePage(
  chrome: Chrome,
  kind: DownloadKind,
  id: string,
  format: 'ubl' | 'cii',
  profile: string,
  details: ErrorDetail[],
): string {
  const noun = kind === 'invoice' ? 'invoice' : 'credit note';
  const name = profileName(format, profile);
  return layout(
    `No ${name} e-invoice`,
    { ...chrome, active: kind === 'invoice' ? 'invoices' : 'credit-notes' },
    html`<article class="narrow">
  <header><h1>This ${noun} cannot be a ${name} e-invoice</h1></header>
  <p>It lacks what this e-invoice needs. An issued ${noun} never changes, so it lacks it for good: set these in the company profile or the organization for the next documents (or issue a credit note and a new invoice).</p>
  <ul class="einvoice-gaps">${details.map((d) => html`<li><strong><code>${d.field}</code></strong>: ${d.message} <small class="muted">(${d.code})</small></li>`)}</ul>
  <p><a href="${documentPath(kind, id)}">Back to the ${noun}</a></p>
  <footer><small class="muted">Error ${ERRORS.EINVOICE_INCOMPLETE.status} · EINVOICE_INCOMPLETE</small></footer>
</article>`,
  );
}
