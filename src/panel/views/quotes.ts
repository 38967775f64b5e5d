import type { Quote } from '../../schemas/quote.js';
import { html, type SafeHtml } from '../html.js';
import type { Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { facts, linesTable, party, vatAndTotals } from './document-parts.js';
import { amount } from './format.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { emptyState, pager } from './records.js';
import { scrollTable } from './table.js';

// The quotes the API made, read-only: a list with each one's state, and one quote's page.

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

export function quotesPage(chrome: Chrome & { user: PanelUser }, page: Page<Quote>): string {
  const base = `${PANEL_PATH}/quotes`;
  return layout(
    'Quotes',
    { ...chrome, active: 'quotes' },
    html`<hgroup><h1>Quotes</h1><p>Offers your integrations made through POST /quote, newest first, with their state. Read-only.</p></hgroup>
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

export function quotePage(chrome: Chrome & { user: PanelUser }, quote: Quote): string {
  const title = quote.number === null ? 'Draft quote' : `Quote ${quote.number}`;
  const t = quote.statusTransitions;
  return layout(
    title,
    { ...chrome, active: 'quotes' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/quotes">Quotes</a></li><li>${quote.number ?? 'Draft'}</li></ul></nav>
<hgroup><h1>${quote.number === null ? 'Draft quote' : html`Quote <span class="doc-number">${quote.number}</span>`} ${quoteStatus(quote.status)}</h1>
<p>${quote.issueDate ? html`<span class="nowrap">issued ${quote.issueDate}</span> · ` : ''}${quote.validUntil ? html`<span class="nowrap">valid until ${quote.validUntil}</span> · ` : ''}${quote.currency}${quote.pricesIncludeTax ? ' · prices include VAT' : ''}</p></hgroup>
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
<p class="muted">Created ${time(quote.createdAt)} · id <code>${quote.id}</code></p>`,
  );
}
