import type { Quote } from '../../schemas/quote.js';
import { html, type SafeHtml } from '../html.js';
import type { Page } from '../records.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { facts, linesTable, party, vatAndTotals } from './document-parts.js';
import { amount } from './format.js';
import { csrfField, field, formErrorSummary, textareaField, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';
import { emptyState, pager } from './records.js';
import { scrollTable } from './table.js';

// The quotes the API made: a list with each one's state, and one quote's page; a draft's page lets
// owners and admins edit its validity, references and note, and delete it.

/** What the draft form shows: the values sent (after a refusal), else the draft's own. */
export interface DraftQuoteValues {
  validUntil: string;
  buyerReference: string;
  purchaseOrderReference: string;
  note: string;
}

const STATUS_LABELS: Record<Quote['status'], string> = {
  draft: 'Draft',
  open: 'Open',
  accepted: 'Accepted',
  declined: 'Declined',
  expired: 'Expired',
};

function quoteStatus(status: Quote['status']): SafeHtml {
  return html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>`;
}

function quoteLabel(number: string | null): SafeHtml {
  return number === null ? html`<span class="muted">Draft</span>` : html`${number}`;
}

export function quotesPage(chrome: Chrome & { user: PanelUser }, page: Page<Quote>, done?: Notice): string {
  const base = `${PANEL_PATH}/quotes`;
  return layout(
    'Quotes',
    { ...chrome, active: 'quotes' },
    html`<hgroup><h1>Quotes</h1><p>Offers your integrations made through POST /quote, newest first, with their state. Owners and admins edit and delete drafts.</p></hgroup>
${notice(done)}
${
  page.items.length === 0
    ? emptyState('', 'quotes', 'They appear here when an application calls POST /quote with one of your keys.')
    : html`<p class="muted">${page.total} ${page.total === 1 ? 'quote' : 'quotes'}</p>
${scrollTable(
  'Quotes',
  html`<table class="striped quotes">
  <thead><tr><th scope="col">Number</th><th scope="col">Buyer</th><th scope="col">Status</th><th scope="col" class="nowrap">Issue date</th><th scope="col" class="nowrap">Valid until</th><th scope="col" class="num">Total</th><th scope="col">Invoice</th></tr></thead>
  <tbody>${page.items.map(
    (q) => html`<tr>
    <th scope="row" class="nowrap"><a href="${base}/${q.id}">${quoteLabel(q.number)}</a></th>
    <td>${q.buyer.name}</td>
    <td class="nowrap">${quoteStatus(q.status)}</td>
    <td class="nowrap">${q.issueDate ?? html`<span class="muted">—</span>`}</td>
    <td class="nowrap">${q.validUntil ?? html`<span class="muted">—</span>`}</td>
    <td class="num">${amount(q.totals.payable, q.currency)}</td>
    <td class="nowrap">${q.invoiceId ? html`<a href="${PANEL_PATH}/invoices/${q.invoiceId}">Invoice</a>` : html`<span class="muted">—</span>`}</td>
  </tr>`,
  )}</tbody>
</table>`,
)}
${pager(base, '', page)}`
}`,
  );
}

/** A draft's form (owners and admins): validity, references and note; its lines stay with the API. */
function draftForm(
  chrome: Chrome & { user: PanelUser },
  quote: Quote,
  form: { values?: DraftQuoteValues; errors?: FieldErrors },
): SafeHtml {
  if (quote.status !== 'draft' || !isPrivileged(chrome.user.role)) return html``;
  const v = form.values ?? {
    validUntil: quote.validUntil ?? '',
    buyerReference: quote.buyerReference ?? '',
    purchaseOrderReference: quote.purchaseOrderReference ?? '',
    note: quote.note ?? '',
  };
  const errors = form.errors;
  const base = `${PANEL_PATH}/quotes/${quote.id}`;
  return html`<section class="draft-quote" aria-labelledby="draft-title"><h2 id="draft-title">Edit draft</h2>
<p class="muted">Lines are edited through PATCH /quote/{id}; the quote gets its number when it is sent (POST /quote/{id}/send).</p>
${formErrorSummary(errors)}
<form method="post" action="${base}/edit">${csrfField(chrome.csrf)}
<div class="grid">
<div>${field({ name: 'validUntil', label: 'Valid until', type: 'date', value: v.validUntil, ...(errors ? { errors } : {}), hint: 'The last day it can be accepted; empty: 30 days after it is sent.' })}</div>
<div>${field({ name: 'buyerReference', label: 'Buyer reference', value: v.buyerReference, maxlength: 500, ...(errors ? { errors } : {}) })}</div>
<div>${field({ name: 'purchaseOrderReference', label: "Buyer's request or order", value: v.purchaseOrderReference, maxlength: 500, ...(errors ? { errors } : {}) })}</div>
</div>
${textareaField({ name: 'note', label: 'Note', value: v.note, maxlength: 500, rows: 2, ...(errors ? { errors } : {}) })}
<div class="actions"><button type="submit">Save draft</button> <a href="${base}/delete" role="button" class="secondary outline">Delete draft…</a></div>
</form></section>`;
}

/** The buyer's page of a sent quote, where they accept or decline it (docs/hosted-pages.md), when the operator set PUBLIC_BASE_URL. */
function hostedPage(quote: Quote): SafeHtml {
  if (!quote.hostedUrl) return html``;
  return html`<p class="hosted-link">Customer page: <a href="${quote.hostedUrl}" rel="noopener noreferrer" target="_blank">open the page your customer sees</a> (to read, accept or decline the quote)${quote.viewedAt ? html`, first viewed ${time(quote.viewedAt)}` : html` <span class="muted">(not viewed yet)</span>`}.</p>`;
}

export function quotePage(
  chrome: Chrome & { user: PanelUser },
  quote: Quote,
  form: { notice?: Notice | null; values?: DraftQuoteValues; errors?: FieldErrors } = {},
): string {
  const title = quote.number === null ? 'Draft quote' : `Quote ${quote.number}`;
  const t = quote.statusTransitions;
  return layout(
    title,
    { ...chrome, active: 'quotes' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/quotes">Quotes</a></li><li>${quote.number ?? 'Draft'}</li></ul></nav>
<hgroup><h1>${quote.number === null ? 'Draft quote' : html`Quote <span class="doc-number">${quote.number}</span>`} ${quoteStatus(quote.status)}</h1>
<p>${quote.issueDate ? html`<span class="nowrap">issued ${quote.issueDate}</span> · ` : ''}${quote.validUntil ? html`<span class="nowrap">valid until ${quote.validUntil}</span> · ` : ''}${quote.currency}${quote.pricesIncludeTax ? ' · prices include VAT' : ''}</p></hgroup>
${notice(form.notice)}
${hostedPage(quote)}
${quote.invoiceId ? html`<p>Made into <a class="quote-invoice" href="${PANEL_PATH}/invoices/${quote.invoiceId}">an invoice</a>${t.invoicedAt ? html` ${time(t.invoicedAt)}` : ''}.</p>` : ''}
${facts([
  ['Buyer reference', quote.buyerReference],
  ['Purchase order', quote.purchaseOrderReference],
  ['Payment terms', quote.paymentTerms],
  ['Delivery date', quote.deliveryDate],
  ['Note', quote.note],
  ['Sent', t.sentAt],
  ['Accepted', t.acceptedAt],
  ['Declined', t.declinedAt],
])}
<div class="grid parties">
  ${party('Buyer', quote.buyer, `${PANEL_PATH}/organizations/${quote.organizationId}`)}
  ${party('Seller', quote.seller)}
</div>
${linesTable(quote.lines, quote.currency)}
${vatAndTotals(quote, 'Total')}
${draftForm(chrome, quote, form)}
<p class="muted">Created ${time(quote.createdAt)} · id <code>${quote.id}</code></p>`,
  );
}

export function deleteQuotePage(chrome: Chrome & { user: PanelUser }, quote: Quote): string {
  const base = `${PANEL_PATH}/quotes/${quote.id}`;
  return layout(
    'Delete draft quote',
    { ...chrome, active: 'quotes' },
    html`<article class="narrow">
  <header><h1>Delete this draft quote?</h1></header>
  <p>The draft to ${quote.buyer.name} over ${amount(quote.totals.payable, quote.currency)} is deleted with its lines. It has no number yet, so none is lost. This cannot be undone.</p>
  <form method="post" action="${base}/delete">
    ${csrfField(chrome.csrf)}
    <div class="actions">
      <button type="submit" class="danger">Delete draft</button>
      <a href="${base}" role="button" class="secondary outline">Cancel</a>
    </div>
  </form>
</article>`,
  );
}
