import type { EinvoiceAddress, EinvoiceParty } from '../../documents/einvoice-model.js';
import { UNCL4461 } from '../../documents/code-lists.js';
import type { PurchaseInvoice } from '../../schemas/purchase-invoice.js';
import { html, type SafeHtml } from '../html.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { amount, codeLegend, formatDecimal, unit, vatCategory } from './format.js';
import { csrfField, textareaField, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';
import { stateBadge, verdictBadge } from './purchase-invoices.js';
import { scrollTable } from './table.js';

// One received document, readable: where it stands and what to do with it (approve, dispute with
// a reason), the rules' verdict in plain words with each failed rule, its downloads (the original
// and our rendering), then the document: parties, lines, VAT breakdown, totals, payment details.
// Everything shown is the supplier's text, escaped; amounts stay the decimal text it wrote.

const BASE = `${PANEL_PATH}/purchase-invoices`;
const dash = html`<span class="muted">—</span>`;
type Doc = PurchaseInvoice['document'];

function money(value: string | null | undefined, currency: string | null): SafeHtml {
  if (value === null || value === undefined) return dash;
  return currency ? amount(value, currency) : html`${value}`;
}

function address(a: EinvoiceAddress | null): SafeHtml {
  if (!a) return html``;
  const street = [a.line1, a.line2, a.line3].filter(Boolean).join(', ');
  const city = [a.postalCode, a.city].filter(Boolean).join(' ');
  return html`${street ? html`<br>${street}` : ''}${city || a.countryCode ? html`<br>${city} ${a.countryCode ?? ''}` : ''}`;
}

function party(title: string, p: EinvoiceParty, href?: string): SafeHtml {
  const name = p.name ?? p.tradingName ?? '(no name)';
  const e = p.electronicAddress;
  return html`<div><h2 class="party-title">${title}</h2><p><strong>${href ? html`<a href="${href}">${name}</a>` : name}</strong>${p.vatId ? html`<br>VAT ID ${p.vatId}` : ''}${p.legalRegistrationId?.id ? html`<br>Registration ${p.legalRegistrationId.id}` : ''}${e?.id ? html`<br>Electronic address ${e.schemeId ? `${e.schemeId}:` : ''}${e.id}` : ''}${address(p.address)}${p.contact?.email ? html`<br>${p.contact.email}` : ''}</p></div>`;
}

/** The verdict in words, and every failed rule. */
function verdict(pi: PurchaseInvoice): SafeHtml {
  const j = pi.judgement;
  const all = [...j.structure.findings, ...j.findings];
  const fatal = all.filter((f) => f.severity === 'fatal').length;
  const warnings = all.length - fatal;
  const rules = j.rulesApplied
    .map((r) => ({ en16931: 'EN 16931', peppol: 'Peppol BIS 3', xrechnung: 'XRechnung' })[r])
    .join(', ');
  const sentence =
    pi.verdict === 'valid'
      ? `Valid: it passes every rule of ${rules}.`
      : pi.verdict === 'valid with warnings'
        ? `Valid with ${warnings} ${warnings === 1 ? 'warning' : 'warnings'}: it passes every rule of ${rules} that must hold, and falls short of ${warnings === 1 ? 'one that should' : 'some that should'}.`
        : `Invalid: it breaks ${fatal} ${fatal === 1 ? 'rule' : 'rules'} of ${rules}${j.structure.valid ? '' : ', and its structure is not what the syntax requires'}. It is kept all the same; check it with the supplier before paying.`;
  return html`<section class="verdict verdict-${pi.verdict.replace(/ /g, '-')}" aria-labelledby="verdict-title"><h2 id="verdict-title">Verdict ${verdictBadge(pi.verdict)}</h2>
<p>${sentence}</p>
${
  all.length === 0
    ? ''
    : scrollTable(
        'Failed rules',
        html`<table class="striped findings"><thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col">Business term</th><th scope="col">What is wrong</th><th scope="col">Where</th></tr></thead>
<tbody>${all.map(
          (f) =>
            html`<tr><th scope="row" class="nowrap">${f.rule}</th><td>${f.severity === 'fatal' ? 'Must be fixed' : 'Warning'}</td><td class="nowrap">${f.term ?? dash}</td><td>${f.message}</td><td><code class="xpath">${f.location}</code></td></tr>`,
        )}</tbody></table>`,
      )
}
</section>`;
}

function decisions(pi: PurchaseInvoice, chrome: Chrome & { user: PanelUser }, errors?: FieldErrors): SafeHtml {
  if (!isPrivileged(chrome.user.role) || pi.state === 'paid') return html``;
  return html`<section class="decide" aria-labelledby="decide-title"><h2 id="decide-title">Decide</h2>
<div class="grid">
${
  pi.state === 'approved'
    ? html`<p class="muted">Approved ${time(pi.approvedAt)}: it is to be paid.</p>`
    : html`<form method="post" action="${BASE}/${pi.id}/approve">${csrfField(chrome.csrf)}<p>${pi.kind === 'invoice' ? 'The goods or services arrived as invoiced: it is to be paid.' : 'The credit is as agreed.'}</p><button type="submit">Approve</button></form>`
}
<form method="post" action="${BASE}/${pi.id}/dispute">${csrfField(chrome.csrf)}
${textareaField({ name: 'reason', label: 'Reason for a dispute', required: true, maxlength: 1000, rows: 2, ...(errors ? { errors } : {}), hint: 'What is wrong with it, for your records and the supplier.' })}
<button type="submit" class="secondary">Dispute</button></form>
</div></section>`;
}

function downloads(pi: PurchaseInvoice): SafeHtml {
  const original = pi.original.contentType === 'application/pdf' ? 'PDF' : 'XML';
  return html`<section class="downloads" aria-labelledby="downloads-title"><h2 id="downloads-title">Documents</h2><ul>
<li><a href="${BASE}/${pi.id}/original" download>Original as received (${original}, ${pi.original.size.toLocaleString('en')} bytes)</a></li>
<li>Rendering as PDF, marked RECEIVED: <a href="${BASE}/${pi.id}/pdf?lang=en" download>English</a> · <a href="${BASE}/${pi.id}/pdf?lang=de" download>German</a> · <a href="${BASE}/${pi.id}/pdf?lang=fr" download>French</a></li>
</ul></section>`;
}

function amounts(pi: PurchaseInvoice): SafeHtml {
  const c = pi.currency;
  return html`<section><h2>Amounts</h2>
<table class="amounts"><tbody>
  <tr><th scope="row">Payable</th><td class="num">${money(pi.totals.payable, c)}</td></tr>
  ${
    pi.kind === 'invoice'
      ? html`<tr><th scope="row">Credited</th><td class="num">${money(pi.amountCredited, c)}</td></tr>
  <tr><th scope="row">Paid</th><td class="num">${money(pi.amountPaid, c)}</td></tr>
  <tr class="amount-due"><th scope="row"><strong>Amount due</strong></th><td class="num"><strong>${money(pi.amountDue, c)}</strong></td></tr>`
      : ''
  }
</tbody></table></section>`;
}

function lines(doc: Doc, currency: string | null): SafeHtml {
  return html`<h2>Lines</h2>
${scrollTable(
  'Lines',
  html`<table class="striped">
  <thead><tr><th scope="col">#</th><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col">VAT</th><th scope="col" class="num">Net amount</th></tr></thead>
  <tbody>${doc.lines.map(
    (l) => html`<tr>
    <td>${l.id ?? ''}</td>
    <th scope="row">${l.name ?? dash}${l.description ? html`<br><small class="muted">${l.description}</small>` : ''}</th>
    <td class="num">${l.quantity ? formatDecimal(l.quantity) : dash} ${l.unitCode ? unit(l.unitCode) : ''}</td>
    <td class="num">${money(l.price?.amount, currency)}</td>
    <td><span class="nowrap">${l.vatCategory ? vatCategory(l.vatCategory) : ''} ${l.vatRate ? `${formatDecimal(l.vatRate)} %` : ''}</span></td>
    <td class="num">${money(l.netAmount, currency)}</td>
  </tr>`,
  )}</tbody>
</table>`,
)}
${codeLegend(
  doc.lines.map((l) => l.unitCode).filter((u): u is string => Boolean(u)),
  doc.lines.map((l) => l.vatCategory).filter((v): v is string => Boolean(v)),
)}`;
}

function vatAndTotals(doc: Doc, currency: string | null): SafeHtml {
  const t = doc.totals;
  const row = (label: string, value: string | null | undefined) =>
    value === null || value === undefined
      ? ''
      : html`<tr><th scope="row">${label}</th><td class="num">${money(value, currency)}</td></tr>`;
  return html`<div class="grid">
  <section><h2>VAT breakdown</h2>
  ${scrollTable(
    'VAT breakdown',
    html`<table class="vat-breakdown"><thead><tr><th scope="col">Category</th><th scope="col" class="num">Rate</th><th scope="col" class="num">Taxable</th><th scope="col" class="num">VAT</th></tr></thead>
  <tbody>${doc.vatBreakdown.map((v) => html`<tr><td>${v.vatCategory ? vatCategory(v.vatCategory) : dash}${v.exemptionReason ? html`<br><small class="muted">${v.exemptionReason}</small>` : ''}</td><td class="num">${v.vatRate ? `${formatDecimal(v.vatRate)} %` : dash}</td><td class="num">${money(v.taxableAmount, currency)}</td><td class="num">${money(v.taxAmount, currency)}</td></tr>`)}</tbody></table>`,
  )}</section>
  <section><h2>Totals</h2>
  <table class="totals"><tbody>
    ${row('Sum of lines', t.lineNetTotal)}${row('Allowances', t.allowanceTotal)}${row('Charges', t.chargeTotal)}${row('Total without VAT', t.taxExclusive)}${row('VAT', t.taxTotal)}${row('Total with VAT', t.taxInclusive)}${row('Paid in advance', t.prepaid)}${row('Rounding', t.roundingAmount)}
    <tr><th scope="row"><strong>Payable</strong></th><td class="num"><strong>${money(t.payable, currency)}</strong></td></tr>
  </tbody></table></section>
</div>`;
}

function paymentDetails(doc: Doc): SafeHtml {
  const means = doc.allPaymentMeans ?? (doc.paymentMeans ? [doc.paymentMeans] : []);
  if (means.length === 0 && !doc.paymentTerms)
    return html`<h2>Payment details</h2><p class="muted">The document states no payment details.</p>`;
  return html`<h2>Payment details</h2>
<dl class="facts">
${doc.paymentTerms ? html`<dt>Terms</dt><dd>${doc.paymentTerms}</dd>` : ''}
${means.map((m) => {
  const name = m.code
    ? ((UNCL4461 as Record<string, { name: string } | undefined>)[m.code]?.name ?? `Code ${m.code}`)
    : 'Payment';
  const transfers = m.creditTransfers ?? (m.creditTransfer ? [m.creditTransfer] : []);
  return html`<dt>${m.text ?? name}</dt><dd>${transfers.map((ct) => html`${ct.accountId ? html`Account <span class="nowrap">${ct.accountId}</span>` : ''}${ct.accountName ? html` (${ct.accountName})` : ''}${ct.serviceProviderId ? html`, BIC ${ct.serviceProviderId}` : ''}<br>`)}${m.directDebit?.mandateReference ? html`Mandate ${m.directDebit.mandateReference}<br>` : ''}${m.remittanceInformation ? html`Reference: ${m.remittanceInformation}` : ''}</dd>`;
})}
</dl>`;
}

function payments(pi: PurchaseInvoice): SafeHtml {
  if (pi.kind !== 'invoice') return html``;
  if (pi.payments.length === 0)
    return html`<h2>Payments</h2><p class="muted">No payments recorded (they are recorded through the API).</p>`;
  return html`<h2>Payments</h2>
${scrollTable(
  'Payments',
  html`<table class="striped payments"><thead><tr><th scope="col">Date</th><th scope="col">Reference</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${pi.payments.map((p) => html`<tr><td class="nowrap">${p.date}</td><td>${p.reference ?? dash}</td><td class="num">${money(p.amount, pi.currency)}</td></tr>`)}</tbody></table>`,
)}`;
}

function heading(pi: PurchaseInvoice): SafeHtml {
  const what = pi.kind === 'invoice' ? 'Purchase invoice' : 'Supplier credit note';
  const dates = [pi.issueDate ? `Issued ${pi.issueDate}` : '', pi.dueDate ? `due ${pi.dueDate}` : '', pi.currency ?? '']
    .filter(Boolean)
    .map((fact, i) => html`${i ? ' · ' : ''}<span class="nowrap">${fact}</span>`);
  return html`<hgroup><h1>${what} <span class="doc-number">${pi.number ?? ''}</span></h1>
<p>${stateBadge(pi.state)} ${verdictBadge(pi.verdict)} · from ${pi.supplier.name ?? 'an unnamed supplier'} · ${dates}</p></hgroup>
${pi.state === 'disputed' && pi.disputeReason ? html`<p class="notice notice-info" role="status"><strong>Disputed:</strong> ${pi.disputeReason}</p>` : ''}`;
}

export function purchaseInvoicePage(
  chrome: Chrome & { user: PanelUser },
  pi: PurchaseInvoice,
  shown: Notice | null,
  errors?: FieldErrors,
): string {
  const doc = pi.document;
  const c = pi.currency;
  const facts: [string, string | null | undefined][] = [
    ['Buyer reference', doc.buyerReference],
    ['Purchase order', doc.purchaseOrderReference],
    ['Corrects invoice', pi.correctsNumber],
    ...(doc.notes ?? (doc.note ? [{ text: doc.note }] : [])).map((n): [string, string] => ['Note', n.text]),
  ];
  const present = facts.filter((f): f is [string, string] => Boolean(f[1]));
  return layout(
    `${pi.kind === 'invoice' ? 'Purchase invoice' : 'Credit note'} ${pi.number ?? ''}`,
    { ...chrome, active: 'purchase-invoices' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${BASE}">Purchase invoices</a></li><li>${pi.number ?? pi.id}</li></ul></nav>
${notice(shown)}
${heading(pi)}
${decisions(pi, chrome, errors)}
${verdict(pi)}
<div class="grid">
  ${amounts(pi)}
  ${downloads(pi)}
</div>
<div class="grid parties">
  ${party('Supplier', doc.seller, pi.supplier.organizationId ? `${PANEL_PATH}/organizations/${pi.supplier.organizationId}` : undefined)}
  ${party('Buyer', doc.buyer)}
</div>
${present.length ? html`<dl class="facts">${present.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>` : ''}
${pi.correctsId ? html`<p>Credits <a href="${BASE}/${pi.correctsId}">invoice ${pi.correctsNumber}</a>.</p>` : ''}
${pi.creditNoteIds.length ? html`<p>Credit notes: ${pi.creditNoteIds.map((id, i) => html`${i ? ', ' : ''}<a href="${BASE}/${id}">${id}</a>`)}</p>` : ''}
${lines(doc, c)}
${vatAndTotals(doc, c)}
${paymentDetails(doc)}
${payments(pi)}
<p class="muted">${pi.unmappedCount === 0 ? 'Every value of the document has its place above.' : `${pi.unmappedCount} ${pi.unmappedCount === 1 ? 'value' : 'values'} of the document have no field here; they are kept in the original.`} Received ${pi.channel === 'panel' ? 'by upload' : 'through the API'}, id <code>${pi.id}</code>.</p>`,
  );
}
