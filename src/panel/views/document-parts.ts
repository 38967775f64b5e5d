import type { Invoice } from '../../schemas/invoice.js';
import { html, type SafeHtml } from '../html.js';
import { amount, codeLegend, formatDecimal, unit, vatCategory } from './format.js';
import { scrollTable } from './table.js';

// The parts an invoice and a credit note share: the parties, the lines, the VAT breakdown and
// the totals. A credit note has the same shapes (src/schemas/credit-note.ts reuses them).

type Party = Invoice['buyer'] | Invoice['seller'];

function addressOf(p: Party): SafeHtml {
  const a = 'address' in p ? p.address : null;
  // The seller carries only its country.
  if (!a) return 'countryCode' in p && p.countryCode ? html`<br>${p.countryCode}` : html``;
  const street = [a.line1, a.line2].filter(Boolean).join(', ');
  const city = [a.postalCode, a.city].filter(Boolean).join(' ');
  return html`${street ? html`<br>${street}` : ''}<br>${city} ${a.countryCode ?? ''}`;
}

/** A buyer or seller block; `href` links the name (to the buyer's organization page). */
export function party(title: string, p: Party, href?: string): SafeHtml {
  const name = href ? html`<a href="${href}">${p.name}</a>` : p.name;
  return html`<div><h2 class="party-title">${title}</h2><p><strong>${name}</strong>${p.vatId ? html`<br>VAT ID ${p.vatId}` : ''}${addressOf(p)}</p></div>`;
}

export function linesTable(lines: Invoice['lines'], currency: string): SafeHtml {
  return html`<h2>Lines</h2>
${scrollTable(
  'Lines',
  html`<table class="striped">
  <thead><tr><th scope="col">#</th><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Discount</th><th scope="col">VAT</th><th scope="col" class="num">Net amount</th></tr></thead>
  <tbody>${lines.map(
    (l) => html`<tr>
    <td>${l.position}</td>
    <th scope="row">${l.name}${l.description ? html`<br><small class="muted">${l.description}</small>` : ''}</th>
    <td class="num">${formatDecimal(l.quantity)} ${unit(l.unitCode)}</td>
    <td class="num">${amount(l.unitPrice, currency)}</td>
    <td class="num">${l.discountPercent ? `${l.discountPercent} %` : '—'}</td>
    <td><span class="nowrap">${vatCategory(l.vatCategory)} ${formatDecimal(l.vatRate)} %</span>${l.exemptionReason ? html`<br><small class="muted">${l.exemptionReason}</small>` : ''}</td>
    <td class="num">${amount(l.netAmount, currency)}</td>
  </tr>`,
  )}</tbody>
</table>`,
)}
${codeLegend(
  lines.map((l) => l.unitCode),
  lines.map((l) => l.vatCategory),
)}`;
}

/** The VAT breakdown beside the totals; `payableLabel` names the last row (what is owed, or credited). */
export function vatAndTotals(
  doc: Pick<Invoice, 'vatBreakdown' | 'totals' | 'currency'>,
  payableLabel = 'Payable',
): SafeHtml {
  const c = doc.currency;
  const t = doc.totals;
  return html`<div class="grid">
  <section><h2>VAT breakdown</h2>
  ${scrollTable(
    'VAT breakdown',
    html`<table class="vat-breakdown"><thead><tr><th scope="col">Category</th><th scope="col" class="num">Rate</th><th scope="col" class="num">Taxable</th><th scope="col" class="num">VAT</th></tr></thead>
  <tbody>${doc.vatBreakdown.map((v) => html`<tr><td>${vatCategory(v.vatCategory)}</td><td class="num">${formatDecimal(v.vatRate)} %</td><td class="num">${amount(v.taxableAmount, c)}</td><td class="num">${amount(v.taxAmount, c)}</td></tr>`)}</tbody></table>`,
  )}</section>
  <section><h2>Totals</h2>
  <table class="totals"><tbody>
    <tr><th scope="row">Sum of lines</th><td class="num">${amount(t.lineNetTotal, c)}</td></tr>
    <tr><th scope="row">Total without VAT</th><td class="num">${amount(t.taxExclusive, c)}</td></tr>
    <tr><th scope="row">VAT</th><td class="num">${amount(t.taxTotal, c)}</td></tr>
    <tr><th scope="row">Total with VAT</th><td class="num">${amount(t.taxInclusive, c)}</td></tr>
    <tr><th scope="row">Rounding</th><td class="num">${amount(t.roundingAmount, c)}</td></tr>
    <tr><th scope="row"><strong>${payableLabel}</strong></th><td class="num"><strong>${amount(t.payable, c)}</strong></td></tr>
  </tbody></table></section>
</div>`;
}

/** Buyer reference, purchase order, reason, note…: the short texts that exist. */
export function facts(entries: [string, string | null | undefined][]): SafeHtml {
  const present = entries.filter((e): e is [string, string] => Boolean(e[1]));
  if (present.length === 0) return html``;
  return html`<dl class="facts">${present.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}
