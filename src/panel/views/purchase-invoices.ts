import type { PurchaseInvoiceState } from '../../db/schema.js';
import type { PurchaseInvoiceSummary } from '../../schemas/purchase-invoice.js';
import { html, type SafeHtml } from '../html.js';
import { isPrivileged, type PanelUser } from '../users.js';
import type { SupplierChoice } from '../records.js';
import { amount } from './format.js';
import { csrfField, time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { scrollTable } from './table.js';

// The inbox: received e-invoices and supplier credit notes, newest first, filtered by state,
// supplier and verdict; above them, for owners and admins, the upload form. It is a plain
// multipart form with a file picker; panel.js lets a file be dropped onto it as well.

export interface InboxFilter {
  state?: PurchaseInvoiceState | undefined;
  verdict?: PurchaseInvoiceSummary['verdict'] | undefined;
  supplier?: string | undefined;
}

export interface UploadOutcome {
  kind: 'error';
  title: string;
  detail: string;
  /** The document received before, for a duplicate. */
  link?: string;
}

export interface Inbox {
  items: PurchaseInvoiceSummary[];
  /** The cursor of the next (older) page, if there is one. */
  next: string | null;
  /** Whether this is a later page (a link back to the first is shown). */
  first: boolean;
  filter: InboxFilter;
  suppliers: SupplierChoice[];
  outcome?: UploadOutcome | undefined;
}

const BASE = `${PANEL_PATH}/purchase-invoices`;

export const STATE_LABELS: Record<PurchaseInvoiceState, string> = {
  received: 'Received',
  approved: 'Approved',
  disputed: 'Disputed',
  paid: 'Paid',
};
export const VERDICT_LABELS: Record<PurchaseInvoiceSummary['verdict'], string> = {
  valid: 'Valid',
  'valid with warnings': 'Valid with warnings',
  invalid: 'Invalid',
};

export function stateBadge(state: PurchaseInvoiceState): SafeHtml {
  return html`<span class="badge badge-pi-${state}">${STATE_LABELS[state]}</span>`;
}

export function verdictBadge(verdict: PurchaseInvoiceSummary['verdict']): SafeHtml {
  return html`<span class="badge badge-verdict-${verdict.replace(/ /g, '-')}">${VERDICT_LABELS[verdict]}</span>`;
}

const dash = html`<span class="muted">—</span>`;

function options<T extends string>(
  values: readonly T[],
  labels: Record<T, string>,
  chosen: string | undefined,
  any: string,
): SafeHtml {
  return html`<option value="">${any}</option>${values.map((v) => html`<option value="${v}"${v === chosen ? html` selected` : ''}>${labels[v]}</option>`)}`;
}

function filterForm(inbox: Inbox): SafeHtml {
  const f = inbox.filter;
  const states = Object.keys(STATE_LABELS) as PurchaseInvoiceState[];
  const verdicts = Object.keys(VERDICT_LABELS) as PurchaseInvoiceSummary['verdict'][];
  return html`<form method="get" action="${BASE}" class="filters" role="search" aria-label="Filter purchase invoices">
  <div class="grid">
    <label>State <select name="state">${options(states, STATE_LABELS, f.state, 'Any state')}</select></label>
    <label>Supplier <select name="supplier"><option value="">Any supplier</option>${inbox.suppliers.map((s) => html`<option value="${s.id}"${s.id === f.supplier ? html` selected` : ''}>${s.name}</option>`)}</select></label>
    <label>Verdict <select name="verdict">${options(verdicts, VERDICT_LABELS, f.verdict, 'Any verdict')}</select></label>
  </div>
  <button type="submit" class="secondary">Filter</button>
</form>`;
}

function uploadForm(csrf: string, outcome: UploadOutcome | undefined): SafeHtml {
  return html`<section class="upload" aria-labelledby="upload-title">
<h2 id="upload-title">Upload a document</h2>
${
  outcome
    ? html`<div class="notice notice-error" role="alert"><p><strong>${outcome.title}.</strong> ${outcome.detail}</p>${outcome.link ? html`<p><a href="${outcome.link}">Open the document received before</a></p>` : ''}</div>`
    : ''
}
<form method="post" action="${BASE}" enctype="multipart/form-data" class="dropzone" data-dropzone>
  ${csrfField(csrf)}
  <label for="document">E-invoice file <small id="document-hint">UBL or CII XML, or a PDF with the XML inside (Factur-X, ZUGFeRD, XRechnung). Choose a file, or drop it here.</small></label>
  <input id="document" name="document" type="file" accept=".xml,.pdf,application/xml,text/xml,application/pdf" required aria-describedby="document-hint">
  <button type="submit">Upload</button>
</form>
</section>`;
}

function table(items: PurchaseInvoiceSummary[]): SafeHtml {
  return scrollTable(
    'Purchase invoices',
    html`<table class="striped purchase-invoices">
  <thead><tr><th scope="col">Number</th><th scope="col">Supplier</th><th scope="col">State</th><th scope="col">Verdict</th><th scope="col" class="nowrap">Issue date</th><th scope="col" class="nowrap">Due date</th><th scope="col" class="num">Payable</th><th scope="col" class="num">Amount due</th><th scope="col">Received</th></tr></thead>
  <tbody>${items.map(
    (p) => html`<tr>
    <th scope="row" class="nowrap"><a href="${BASE}/${p.id}">${p.number ?? p.id}</a>${p.kind === 'credit-note' ? html` <span class="badge badge-credit-note">Credit note</span>` : ''}</th>
    <td>${p.supplier.name ?? dash}</td>
    <td class="nowrap">${stateBadge(p.state)}</td>
    <td class="nowrap">${verdictBadge(p.verdict)}</td>
    <td class="nowrap">${p.issueDate ?? dash}</td>
    <td class="nowrap">${p.dueDate ?? dash}</td>
    <td class="num">${p.totals.payable !== null && p.currency ? amount(p.totals.payable, p.currency) : dash}</td>
    <td class="num">${p.amountDue !== null && p.currency ? amount(p.amountDue, p.currency) : dash}</td>
    <td>${time(p.receivedAt)}</td>
  </tr>`,
  )}</tbody>
</table>`,
  );
}

function pager(inbox: Inbox): SafeHtml {
  if (!inbox.next && !inbox.first) return html``;
  const query = (extra: Record<string, string>) => {
    const f = inbox.filter;
    const params = new URLSearchParams({
      ...(f.state ? { state: f.state } : {}),
      ...(f.supplier ? { supplier: f.supplier } : {}),
      ...(f.verdict ? { verdict: f.verdict } : {}),
      ...extra,
    });
    const text = params.toString();
    return text ? `${BASE}?${text}` : BASE;
  };
  return html`<nav aria-label="Pages" class="pager">
  ${inbox.first ? html`<a href="${query({})}">← Newest</a>` : html`<span></span>`}
  ${inbox.next ? html`<a href="${query({ cursor: inbox.next })}" rel="next">Older →</a>` : html`<span></span>`}
</nav>`;
}

export function inboxPage(chrome: Chrome & { user: PanelUser }, inbox: Inbox): string {
  const filtered = Boolean(inbox.filter.state || inbox.filter.supplier || inbox.filter.verdict);
  return layout(
    'Purchase invoices',
    { ...chrome, active: 'purchase-invoices' },
    html`<hgroup><h1>Purchase invoices</h1><p>E-invoices and credit notes your suppliers sent, received through the API or uploaded here, newest first, each judged by the EN 16931 rules.</p></hgroup>
${isPrivileged(chrome.user.role) ? uploadForm(chrome.csrf, inbox.outcome) : ''}
${filterForm(inbox)}
${
  inbox.items.length === 0
    ? html`<div class="empty-state">${
        filtered
          ? html`<p><strong>No purchase invoices match these filters.</strong></p><p><a href="${BASE}">Show all</a></p>`
          : html`<p><strong>No purchase invoices yet.</strong></p><p>They appear here when a document is uploaded above, or an application calls POST /purchase-invoice with one of your keys.</p>`
      }</div>`
    : html`${table(inbox.items)}${pager(inbox)}`
}`,
  );
}
