import type { CreditNote } from '../../schemas/credit-note.js';
import { html } from '../html.js';
import { amount } from './format.js';
import { scrollTable } from './table.js';
import type { CreditNoteListItem, Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { facts, linesTable, party, vatAndTotals } from './document-parts.js';
import { documentDownloads } from './document-downloads.js';
import { sendingSection, type SendingModel } from './deliveries.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { emptyState, pager, searchForm } from './records.js';

export function creditNotesPage(
  chrome: Chrome & { user: PanelUser },
  search: string,
  page: Page<CreditNoteListItem>,
): string {
  const base = `${PANEL_PATH}/credit-notes`;
  return layout(
    'Credit notes',
    { ...chrome, active: 'credit-notes' },
    html`<hgroup><h1>Credit notes</h1><p>Corrections of issued invoices, from POST /credit-note or from voiding an invoice, newest first. Read-only.</p></hgroup>
${searchForm(base, search, 'Search credit notes by their number or the invoice number', 'Search by number or invoice number')}
${
  page.items.length === 0
    ? emptyState(
        search,
        'credit notes',
        'They appear here when an application credits or voids an invoice with one of your keys.',
      )
    : html`<p class="muted">${page.total} ${page.total === 1 ? 'credit note' : 'credit notes'}</p>
${scrollTable(
  'Credit notes',
  html`<table class="striped credit-notes">
  <thead><tr><th scope="col">Number</th><th scope="col">Invoice</th><th scope="col">Buyer</th><th scope="col" class="nowrap">Issue date</th><th scope="col">Reason</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody>${page.items.map(
    (n) => html`<tr>
    <th scope="row" class="nowrap"><a href="${base}/${n.id}">${n.number}</a></th>
    <td class="nowrap"><a href="${PANEL_PATH}/invoices/${n.invoiceId}">${n.invoiceNumber}</a></td>
    <td>${n.buyerName}</td>
    <td class="nowrap">${n.issueDate}</td>
    <td>${n.reason}</td>
    <td class="num">${amount(n.amount, n.currency)}</td>
  </tr>`,
  )}</tbody>
</table>`,
)}
${pager(base, search, page)}`
}`,
  );
}

export function creditNotePage(chrome: Chrome & { user: PanelUser }, note: CreditNote, sending: SendingModel): string {
  const invoiceHref = `${PANEL_PATH}/invoices/${note.invoiceId}`;
  return layout(
    `Credit note ${note.number}`,
    { ...chrome, active: 'credit-notes' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/credit-notes">Credit notes</a></li><li>${note.number}</li></ul></nav>
<hgroup><h1>Credit note <span class="doc-number">${note.number}</span></h1>
<p>Credits invoice <a href="${invoiceHref}" class="credited-invoice doc-number">${note.invoiceNumber}</a> · <span class="nowrap">issued ${note.issueDate}</span> · ${note.currency}${note.pricesIncludeTax ? ' · prices include VAT' : ''}</p></hgroup>
${documentDownloads('credit-note', note.id, { draft: false, einvoice: note.einvoice })}
${sendingSection(chrome.csrf, sending)}
${facts([
  ['Reason', note.reason],
  ['Note', note.note],
])}
<div class="grid parties">
  ${party('Buyer', note.buyer)}
  ${party('Seller', note.seller)}
</div>
${linesTable(note.lines, note.currency)}
${vatAndTotals(note, 'Total credited')}
<p class="muted">Created ${time(note.createdAt)} · id <code>${note.id}</code></p>`,
  );
}
