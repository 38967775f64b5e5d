import type { Invoice } from '../../schemas/invoice.js';
import { html, type SafeHtml } from '../html.js';
import { amount } from './format.js';
import { scrollTable } from './table.js';
import type { CreditNoteListItem } from '../records.js';
import type { PanelUser } from '../users.js';
import { facts, linesTable, party, vatAndTotals } from './document-parts.js';
import { documentDownloads } from './document-downloads.js';
import { sendingSection, type SendingModel } from './deliveries.js';
import { csrfField, time } from './forms.js';
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

/** Whether an issued invoice's reminders are paused, and whether the user may change that. */
export interface ReminderState {
  paused: boolean;
  pauseReason: 'paused' | 'dispute' | null;
  pauseNote: string | null;
  mayChange: boolean;
}

function pauseForm(invoice: Invoice, csrf: string, state: ReminderState): SafeHtml {
  const action = `${PANEL_PATH}/invoices/${invoice.id}/reminders`;
  const said = state.paused
    ? html`<p class="notice notice-warning">Reminders are paused${state.pauseReason === 'dispute' ? ': the buyer disputes the invoice' : ''}${state.pauseNote ? html` (${state.pauseNote})` : ''}.</p>`
    : html``;
  if (!state.mayChange) return said;
  if (state.paused)
    return html`${said}<form method="post" action="${action}" class="inline-form">${csrfField(csrf)}<input type="hidden" name="action" value="resume"><button type="submit" class="secondary">Resume reminders</button></form>`;
  return html`<details class="pause-reminders"><summary>Pause reminders</summary>
<form method="post" action="${action}">${csrfField(csrf)}<input type="hidden" name="action" value="pause">
<fieldset><legend>Why</legend>
<label><input type="radio" name="reason" value="paused" checked> Paused (for example, payment is agreed)</label>
<label><input type="radio" name="reason" value="dispute"> The buyer disputes the invoice</label></fieldset>
<label for="pause-note">Note <span class="optional">(optional)</span></label><input id="pause-note" name="note" maxlength="500">
<button type="submit" class="secondary">Pause reminders</button></form></details>`;
}

/** The reminders of an issued invoice (docs/reminders.md): each level sent or skipped, with what it stated. */
function reminders(invoice: Invoice, csrf: string, state: ReminderState | undefined): SafeHtml {
  if (invoice.status === 'draft') return html``;
  const rows = invoice.reminders ?? [];
  const controls = state ? pauseForm(invoice, csrf, state) : html``;
  if (rows.length === 0)
    return html`<h2 id="reminders">Reminders</h2>${controls}<p class="muted">No reminders yet. Open invoices with a billing email are reminded on the levels of the company's <a href="${PANEL_PATH}/company/reminders">reminder policy</a>.</p>`;
  return html`<h2 id="reminders">Reminders</h2>${controls}
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

/** The customer's page of an issued invoice (docs/hosted-pages.md), when the operator set PUBLIC_BASE_URL. */
function hostedPage(invoice: Invoice): SafeHtml {
  if (!invoice.hostedUrl) return html``;
  return html`<p class="hosted-link">Customer page: <a href="${invoice.hostedUrl}" rel="noopener noreferrer" target="_blank">open the page your customer sees</a>${invoice.viewedAt ? html`, first viewed ${time(invoice.viewedAt)}` : html` <span class="muted">(not viewed yet)</span>`}.</p>`;
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
  reminderState?: ReminderState,
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
${hostedPage(invoice)}
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
${draft ? '' : html`${payments(invoice)}${reminders(invoice, chrome.csrf, reminderState)}${creditNotes(notes)}`}
<p class="muted">id <code>${invoice.id}</code></p>`,
  );
}
