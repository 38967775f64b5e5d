import type { Invoice } from '../../schemas/invoice.js';
import { html, type SafeHtml } from '../html.js';
import { amount } from './format.js';
import { scrollTable } from './table.js';
import type { CreditNoteListItem } from '../records.js';
import type { PanelUser } from '../users.js';
import { facts, linesTable, party, vatAndTotals } from './document-parts.js';
import { documentDownloads } from './document-downloads.js';
import { sendingSection, type SendingModel } from './deliveries.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { statusBadges } from './status.js';

// One invoice: its documents to download, where it stands (status, what is due, what was paid
// and credited, when it changed), then the document itself.

const METHOD_LABELS: Record<Invoice['payments'][number]['method'], string> = {
  credit_transfer: 'Credit transfer',
  card: 'Card',
  cash: 'Cash',
  direct_debit: 'Direct debit',
  other: 'Other',
};

/** A draft's number is not final: it has none yet, or the one it asked for when it is issued. */
function draftNumber(invoice: Invoice): string {
  return invoice.number === null ? 'Draft — no number yet' : `Draft — to be issued as ${invoice.number}`;
}

function heading(invoice: Invoice): SafeHtml {
  const draft = invoice.status === 'draft';
  // Each fact stays on one line (a date never breaks at its hyphens); the list wraps between them.
  const dates = [
    invoice.issueDate ? `Issued ${invoice.issueDate}` : 'Issue date set when finalized',
    invoice.dueDate ? `due ${invoice.dueDate}` : '',
    invoice.currency,
    invoice.pricesIncludeTax ? 'prices include VAT' : '',
  ]
    .filter(Boolean)
    .map((fact, i) => html`${i ? ' · ' : ''}<span class="nowrap">${fact}</span>`);
  return html`<hgroup><h1>${draft ? 'Draft invoice' : html`Invoice <span class="doc-number">${invoice.number}</span>`}</h1>
<p>${statusBadges(invoice.status, invoice.isOverdue)}${draft ? html` <strong class="draft-number">${draftNumber(invoice)}</strong>` : ''} · ${dates}</p></hgroup>`;
}

function amounts(invoice: Invoice): SafeHtml {
  const c = invoice.currency;
  const refund = invoice.amountDue.startsWith('-');
  return html`<section><h2>Amounts</h2>
<table class="amounts"><tbody>
  <tr><th scope="row">Payable</th><td class="num">${amount(invoice.totals.payable, c)}</td></tr>
  <tr><th scope="row">Credited</th><td class="num">${amount(invoice.amountCredited, c)}</td></tr>
  <tr><th scope="row">Paid</th><td class="num">${amount(invoice.amountPaid, c)}</td></tr>
  <tr class="amount-due"><th scope="row"><strong>Amount due</strong></th><td class="num"><strong>${amount(invoice.amountDue, c)}</strong></td></tr>
</tbody></table>
${refund ? html`<p class="muted">More was paid than is now owed: the buyer is due a refund.</p>` : ''}</section>`;
}

function history(invoice: Invoice): SafeHtml {
  const s = invoice.statusTransitions;
  const steps: [string, string | null][] = [
    ['Created', invoice.createdAt],
    ['Issued', s.finalizedAt],
    ['Paid', s.paidAt],
    ['Voided', s.voidedAt],
  ];
  return html`<section><h2>Status history</h2>
<dl class="facts history">${steps.filter(([, at]) => at !== null).map(([step, at]) => html`<dt>${step}</dt><dd>${time(at)}</dd>`)}</dl></section>`;
}

function payments(invoice: Invoice): SafeHtml {
  if (invoice.payments.length === 0) return html`<h2>Payments</h2><p class="muted">No payments recorded.</p>`;
  return html`<h2>Payments</h2>
${scrollTable(
  'Payments',
  html`<table class="striped payments">
  <thead><tr><th scope="col">Date</th><th scope="col">Method</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody>${invoice.payments.map(
    (p) =>
      html`<tr><td class="nowrap">${p.date}</td><td>${METHOD_LABELS[p.method]}</td><td>${p.reference ?? html`<span class="muted">—</span>`}</td><td class="num">${amount(p.amount, invoice.currency)}</td></tr>`,
  )}</tbody>
</table>`,
)}`;
}

/** The reminders of an issued invoice (docs/reminders.md): each level sent or skipped, with what it stated. */
function reminders(invoice: Invoice): SafeHtml {
  if (invoice.status === 'draft') return html``;
  const rows = invoice.reminders ?? [];
  if (rows.length === 0)
    return html`<h2>Reminders</h2><p class="muted">No reminders yet. Open invoices with a billing email are reminded on the levels of the company's reminder policy.</p>`;
  return html`<h2>Reminders</h2>
${scrollTable(
  'Reminders',
  html`<table class="striped reminders">
  <thead><tr><th scope="col">Day</th><th scope="col">Level</th><th scope="col">Status</th><th scope="col" class="num">Open balance</th><th scope="col" class="num">Fee</th><th scope="col" class="num">Interest</th></tr></thead>
  <tbody>${rows.map(
    (r) =>
      html`<tr><td class="nowrap">${r.asOf}</td><td>${r.level} (${r.days > 0 ? `+${r.days}` : String(r.days)} days)</td><td>${r.status === 'sent' ? 'sent' : `skipped (${r.skipReason ?? ''})`}</td><td class="num">${amount(r.openBalance, r.currency)}</td><td class="num">${r.fee ? amount(r.fee, r.currency) : html`<span class="muted">—</span>`}</td><td class="num">${r.interest ? amount(r.interest, r.currency) : html`<span class="muted">—</span>`}</td></tr>`,
  )}</tbody>
</table>`,
)}`;
}

function creditNotes(notes: CreditNoteListItem[]): SafeHtml {
  if (notes.length === 0) return html`<h2>Credit notes</h2><p class="muted">No credit notes.</p>`;
  return html`<h2>Credit notes</h2>
${scrollTable(
  'Credit notes',
  html`<table class="striped credit-notes">
  <thead><tr><th scope="col">Number</th><th scope="col">Date</th><th scope="col">Reason</th><th scope="col" class="num">Amount</th></tr></thead>
  <tbody>${notes.map(
    (n) =>
      html`<tr><th scope="row" class="nowrap"><a href="${PANEL_PATH}/credit-notes/${n.id}">${n.number}</a></th><td class="nowrap">${n.issueDate}</td><td>${n.reason}</td><td class="num">${amount(n.amount, n.currency)}</td></tr>`,
  )}</tbody>
</table>`,
)}`;
}

export function invoicePage(
  chrome: Chrome & { user: PanelUser },
  invoice: Invoice,
  notes: CreditNoteListItem[],
  sending: SendingModel,
): string {
  const draft = invoice.status === 'draft';
  const label = draft ? 'Draft' : (invoice.number ?? '');
  return layout(
    draft ? 'Draft invoice' : `Invoice ${invoice.number}`,
    { ...chrome, active: 'invoices' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/invoices">Invoices</a></li><li>${label}</li></ul></nav>
${heading(invoice)}
${documentDownloads('invoice', invoice.id, { draft, einvoice: invoice.einvoice })}
${sendingSection(chrome.csrf, sending)}
<div class="grid">
  ${amounts(invoice)}
  ${history(invoice)}
</div>
<div class="grid parties">
  ${party('Buyer', invoice.buyer, `${PANEL_PATH}/organizations/${invoice.organizationId}`)}
  ${party('Seller', invoice.seller)}
</div>
${facts([
  ['Buyer reference', invoice.buyerReference],
  ['Purchase order', invoice.purchaseOrderReference],
  ['Note', invoice.note],
])}
${linesTable(invoice.lines, invoice.currency)}
${vatAndTotals(invoice)}
${draft ? '' : html`${payments(invoice)}${reminders(invoice)}${creditNotes(notes)}`}
<p class="muted">id <code>${invoice.id}</code></p>`,
  );
}
