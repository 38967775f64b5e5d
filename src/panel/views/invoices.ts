import { html, type SafeHtml } from '../html.js';
import { amount } from './format.js';
import { scrollTable } from './table.js';
import type { InvoiceListItem, Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { emptyState, pager, searchForm } from './records.js';
import { invoiceLabel, statusBadges } from './status.js';

/** A table of invoices, each row linking to its page; an organization's own list leaves out the buyer. */
export function invoiceTable(items: InvoiceListItem[], options: { withBuyer: boolean }): SafeHtml {
  const buyer = options.withBuyer;
  return html`${scrollTable(
    'Invoices',
    html`<table class="striped invoices">
  <thead><tr><th scope="col">Number</th>${buyer ? html`<th scope="col">Buyer</th>` : ''}<th scope="col">Status</th><th scope="col" class="nowrap">Issue date</th><th scope="col" class="nowrap">Due date</th><th scope="col" class="num">Payable</th><th scope="col" class="num">Amount due</th>${buyer ? html`<th scope="col">Created</th>` : ''}</tr></thead>
  <tbody>${items.map(
    (i) => html`<tr>
    <th scope="row" class="nowrap"><a href="${PANEL_PATH}/invoices/${i.id}">${invoiceLabel(i.number)}</a></th>
    ${buyer ? html`<td>${i.buyerName}</td>` : ''}
    <td class="nowrap">${statusBadges(i.status, i.isOverdue)}</td>
    <td class="nowrap">${i.issueDate ?? html`<span class="muted">—</span>`}</td>
    <td class="nowrap">${i.dueDate ?? html`<span class="muted">—</span>`}</td>
    <td class="num">${amount(i.payable, i.currency)}</td>
    <td class="num">${amount(i.amountDue, i.currency)}</td>
    ${buyer ? html`<td>${time(i.createdAt)}</td>` : ''}
  </tr>`,
  )}</tbody>
</table>`,
  )}`;
}

export function invoicesPage(
  chrome: Chrome & { user: PanelUser },
  search: string,
  page: Page<InvoiceListItem>,
): string {
  const base = `${PANEL_PATH}/invoices`;
  return layout(
    'Invoices',
    { ...chrome, active: 'invoices' },
    html`<hgroup><h1>Invoices</h1><p>Invoices and drafts your integrations created through the API, newest first. Read-only.</p></hgroup>
${searchForm(base, search, 'Search invoices by number or buyer name', 'Search by number or buyer')}
${
  page.items.length === 0
    ? emptyState(search, 'invoices', 'They appear here when an application calls POST /invoice with one of your keys.')
    : html`<p class="muted">${page.total} ${page.total === 1 ? 'invoice' : 'invoices'}</p>
${invoiceTable(page.items, { withBuyer: true })}
${pager(base, search, page)}`
}`,
  );
}
