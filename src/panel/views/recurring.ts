import type { RecurringInvoice, RecurringRun } from '../../schemas/recurring-invoice.js';
import { html, type SafeHtml } from '../html.js';
import type { Page } from '../records.js';
import type { PanelUser } from '../users.js';
import { facts } from './document-parts.js';
import { time } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { emptyState, pager } from './records.js';
import { scrollTable } from './table.js';

// Recurring invoices the API made, read-only: a list with each one's schedule, next run and last
// runs, and one recurring invoice's page with its whole history.

/** A recurring invoice with its buyer's name, which the panel looks up. */
export type RecurringShown = RecurringInvoice & { buyerName: string };

const STATUS_LABELS: Record<RecurringInvoice['status'], string> = {
  active: 'Active',
  paused: 'Paused',
  ended: 'Ended',
};

const UNITS: Record<RecurringInvoice['schedule']['interval'], [string, string]> = {
  week: ['week', 'weeks'],
  month: ['month', 'months'],
  quarter: ['quarter', 'quarters'],
  year: ['year', 'years'],
};

function statusBadge(status: RecurringInvoice['status']): SafeHtml {
  return html`<span class="badge badge-${status}">${STATUS_LABELS[status]}</span>`;
}

/** "Every month from 2027-01-31 (Europe/Berlin)". */
export function cadence(r: RecurringInvoice): string {
  const s = r.schedule;
  const [one, many] = UNITS[s.interval];
  const every = s.every === 1 ? `Every ${one}` : `Every ${s.every} ${many}`;
  const end = s.endDate ? `, until ${s.endDate}` : s.count ? `, ${s.count} times` : '';
  return `${every} from ${s.anchorDate}${end} (${s.timeZone})`;
}

function nextRun(r: RecurringInvoice): SafeHtml {
  return r.nextRun ? html`<span class="nowrap">${r.nextRun.date}</span>` : html`<span class="muted">—</span>`;
}

function runOutcome(run: RecurringRun): SafeHtml {
  if (run.status === 'made')
    return html`<span class="badge badge-made">Made</span> <a href="${PANEL_PATH}/invoices/${run.invoiceId ?? ''}">Invoice</a>`;
  return html`<span class="badge badge-failed">Failed</span> ${run.failure?.message ?? ''}`;
}

export function recurringListPage(chrome: Chrome & { user: PanelUser }, page: Page<RecurringShown>): string {
  const base = `${PANEL_PATH}/recurring`;
  return layout(
    'Recurring invoices',
    { ...chrome, active: 'recurring' },
    html`<hgroup><h1>Recurring invoices</h1><p>Templates your integrations made through POST /recurring-invoice, newest first, with their next run and last runs. Read-only.</p></hgroup>
${
  page.items.length === 0
    ? emptyState(
        '',
        'recurring invoices',
        'They appear here when an application calls POST /recurring-invoice with one of your keys.',
      )
    : html`<p class="muted">${page.total} ${page.total === 1 ? 'recurring invoice' : 'recurring invoices'}</p>
${scrollTable(
  'Recurring invoices',
  html`<table class="striped recurring">
  <thead><tr><th scope="col">Buyer</th><th scope="col">Schedule</th><th scope="col">Status</th><th scope="col" class="nowrap">Next run</th><th scope="col">Last runs</th></tr></thead>
  <tbody>${page.items.map(
    (r) => html`<tr>
    <th scope="row"><a href="${base}/${r.id}">${r.buyerName}</a></th>
    <td>${cadence(r)}</td>
    <td class="nowrap">${statusBadge(r.status)}</td>
    <td>${nextRun(r)}</td>
    <td>${
      r.runs.length === 0
        ? html`<span class="muted">none yet</span>`
        : r.runs.map((run) => html`<span class="nowrap">${run.runDate} ${runOutcome(run)}</span><br>`)
    }</td>
  </tr>`,
  )}</tbody>
</table>`,
)}
${pager(base, '', page)}`
}`,
  );
}

export function recurringPage(chrome: Chrome & { user: PanelUser }, r: RecurringShown): string {
  return layout(
    `Recurring invoice to ${r.buyerName}`,
    { ...chrome, active: 'recurring' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/recurring">Recurring invoices</a></li><li>${r.buyerName}</li></ul></nav>
<hgroup><h1>Recurring invoice to <a href="${PANEL_PATH}/organizations/${r.organizationId}">${r.buyerName}</a> ${statusBadge(r.status)}</h1>
<p>${cadence(r)}</p></hgroup>
${facts([
  ['Next run', r.nextRun ? `${r.nextRun.date} (period ${r.nextRun.period.start} to ${r.nextRun.period.end})` : null],
  ['Each run', r.invoiceStatus === 'issued' ? 'issues the invoice' : 'makes a draft'],
  ['Sent by email', r.send ? (r.send.to ? r.send.to.join(', ') : "to the buyer's email") : 'no'],
  ['Missed periods', r.schedule.missedPeriods === 'catch-up' ? 'caught up in order' : 'skipped to the latest'],
  [
    'Invoice period',
    r.schedule.invoicePeriod === 'current' ? 'the period the run starts' : 'the period before the run',
  ],
  ['Paused', r.pausedAt],
  ['Ended', r.endedAt],
])}
${scrollTable(
  'Template lines',
  html`<table class="striped template-lines">
  <caption>Template lines</caption>
  <thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">VAT %</th></tr></thead>
  <tbody>${r.template.lines.map(
    (line) =>
      html`<tr><th scope="row">${line.name}</th><td class="num">${String(line.quantity)}</td><td class="num">${String(line.unitPrice)}</td><td class="num">${String(line.vatRate)}</td></tr>`,
  )}</tbody>
</table>`,
)}
<h2>Runs</h2>
${
  r.runs.length === 0
    ? html`<p class="muted">No runs yet.</p>`
    : scrollTable(
        'Runs',
        html`<table class="striped runs">
  <thead><tr><th scope="col" class="nowrap">Run date</th><th scope="col">Invoice period</th><th scope="col">Outcome</th><th scope="col">Made</th></tr></thead>
  <tbody>${r.runs.map(
    (run) => html`<tr>
    <th scope="row" class="nowrap">${run.runDate}</th>
    <td class="nowrap">${run.period.start} to ${run.period.end}</td>
    <td>${runOutcome(run)}${run.sendError ? html`<br><span class="muted">Not sent: ${run.sendError}</span>` : ''}</td>
    <td>${time(run.createdAt)}</td>
  </tr>`,
  )}</tbody>
</table>`,
      )
}
<p class="muted">Created ${time(r.createdAt)} · id <code>${r.id}</code></p>`,
  );
}
