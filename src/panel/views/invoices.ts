import type { Invoice } from '../../schemas/invoice.js';
import { html, type SafeHtml } from '../html.js';
import type { InvoiceListItem, Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { emptyState, pager, searchForm } from './records.js';

export function invoicesPage(chrome: Chrome & { user: PanelUser }, search: string, page: Page<InvoiceListItem>): string {
  const base = `${PANEL_PATH}/invoices`;
  return layout(
    'Invoices',
    { ...chrome, active: 'invoices' },
    html`<hgroup><h1>Invoices</h1><p>Invoices your integrations issued through the API, newest first. Read-only.</p></hgroup>
${searchForm(base, search, 'Search invoices by number or buyer name', 'Search by number or buyer')}
${page.items.length === 0
  ? emptyState(search, 'invoices', 'They appear here when an application calls POST /invoice with one of your keys.')
  : html`<p class="muted">${page.total} ${page.total === 1 ? 'invoice' : 'invoices'}</p>
<div class="table-scroll"><table class="striped">
  <thead><tr><th scope="col">Number</th><th scope="col">Buyer</th><th scope="col">Issued</th><th scope="col">Due</th><th scope="col" class="num">Payable</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
  <tbody>${page.items.map(
    (i) => html`<tr>
    <th scope="row"><a href="${base}/${i.id}">${i.number}</a></th>
    <td>${i.buyerName}</td>
    <td>${i.issueDate}</td>
    <td>${i.dueDate}</td>
    <td class="num">${i.payable} ${i.currency}</td>
    <td><span class="badge badge-active">${i.status}</span></td>
    <td>${time(i.createdAt)}</td>
  </tr>`,
  )}</tbody>
</table></div>
${pager(base, search, page)}`}`,
  );
}

function party(title: string, p: { name: string; vatId: string | null } & Record<string, unknown>): SafeHtml {
  const address = (p.address ?? null) as { line1?: string | null; line2?: string | null; city?: string | null; postalCode?: string | null; countryCode?: string | null } | null;
  return html`<div><h3>${title}</h3><p><strong>${p.name}</strong>${p.vatId ? html`<br>VAT ID ${p.vatId}` : ''}${address
    ? html`<br>${[address.line1, address.line2].filter(Boolean).join(', ')}<br>${[address.postalCode, address.city].filter(Boolean).join(' ')} ${address.countryCode ?? ''}`
    : ''}</p></div>`;
}

export function invoicePage(chrome: Chrome & { user: PanelUser }, invoice: Invoice): string {
  const c = invoice.currency;
  const t = invoice.totals;
  return layout(
    `Invoice ${invoice.number}`,
    { ...chrome, active: 'invoices' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/invoices">Invoices</a></li><li>${invoice.number}</li></ul></nav>
<hgroup><h1>Invoice ${invoice.number}</h1><p>Issued ${invoice.issueDate} · due ${invoice.dueDate} · ${c}${invoice.pricesIncludeTax ? ' · prices include VAT' : ''} · <span class="badge badge-active">${invoice.status}</span></p></hgroup>
<div class="grid">
  ${party('Buyer', invoice.buyer as never)}
  ${party('Seller', invoice.seller as never)}
</div>
${invoice.buyerReference || invoice.purchaseOrderReference || invoice.note
  ? html`<dl class="refs">${invoice.buyerReference ? html`<dt>Buyer reference</dt><dd>${invoice.buyerReference}</dd>` : ''}${invoice.purchaseOrderReference ? html`<dt>Purchase order</dt><dd>${invoice.purchaseOrderReference}</dd>` : ''}${invoice.note ? html`<dt>Note</dt><dd>${invoice.note}</dd>` : ''}</dl>`
  : ''}
<h2>Lines</h2>
<div class="table-scroll"><table class="striped">
  <thead><tr><th scope="col">#</th><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Discount</th><th scope="col">VAT</th><th scope="col" class="num">Net amount</th></tr></thead>
  <tbody>${invoice.lines.map(
    (l) => html`<tr>
    <td>${l.position}</td>
    <th scope="row">${l.name}${l.description ? html`<br><small class="muted">${l.description}</small>` : ''}</th>
    <td class="num">${l.quantity} ${l.unitCode}</td>
    <td class="num">${l.unitPrice}</td>
    <td class="num">${l.discountPercent ? `${l.discountPercent} %` : '—'}</td>
    <td>${l.vatCategory} ${l.vatRate} %${l.exemptionReason ? html`<br><small class="muted">${l.exemptionReason}</small>` : ''}</td>
    <td class="num">${l.netAmount}</td>
  </tr>`,
  )}</tbody>
</table></div>
<div class="grid">
  <section><h2>VAT breakdown</h2>
  <table><thead><tr><th scope="col">Category</th><th scope="col" class="num">Rate</th><th scope="col" class="num">Taxable</th><th scope="col" class="num">VAT</th></tr></thead>
  <tbody>${invoice.vatBreakdown.map((v) => html`<tr><td>${v.vatCategory}</td><td class="num">${v.vatRate} %</td><td class="num">${v.taxableAmount}</td><td class="num">${v.taxAmount}</td></tr>`)}</tbody></table></section>
  <section><h2>Totals</h2>
  <table class="totals"><tbody>
    <tr><th scope="row">Sum of lines</th><td class="num">${t.lineNetTotal} ${c}</td></tr>
    <tr><th scope="row">Total without VAT</th><td class="num">${t.taxExclusive} ${c}</td></tr>
    <tr><th scope="row">VAT</th><td class="num">${t.taxTotal} ${c}</td></tr>
    <tr><th scope="row">Total with VAT</th><td class="num">${t.taxInclusive} ${c}</td></tr>
    <tr><th scope="row">Rounding</th><td class="num">${t.roundingAmount} ${c}</td></tr>
    <tr><th scope="row"><strong>Payable</strong></th><td class="num"><strong>${t.payable} ${c}</strong></td></tr>
  </tbody></table></section>
</div>
<p class="muted">Created ${time(invoice.createdAt)} · id <code>${invoice.id}</code></p>`,
  );
}
