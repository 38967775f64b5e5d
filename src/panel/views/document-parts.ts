import type { Invoice } from '../../schemas/invoice.js';
import { html, type SafeHtml } from '../html.js';

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
  return html`<div><h3>${title}</h3><p><strong>${name}</strong>${p.vatId ? html`<br>VAT ID ${p.vatId}` : ''}${addressOf(p)}</p></div>`;
}

export function linesTable(lines: Invoice['lines']): SafeHtml {
  return html`<h2>Lines</h2>
<div class="table-scroll"><table class="striped">
  <thead><tr><th scope="col">#</th><th scope="col">Item</th><th scope="col" class="num">Quantity</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Discount</th><th scope="col">VAT</th><th scope="col" class="num">Net amount</th></tr></thead>
  <tbody>${lines.map(
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
</table></div>`;
}

/** The VAT breakdown beside the totals; `payableLabel` names the last row (what is owed, or credited). */
export function vatAndTotals(doc: Pick<Invoice, 'vatBreakdown' | 'totals' | 'currency'>, payableLabel = 'Payable'): SafeHtml {
  const c = doc.currency;
  const t = doc.totals;
  return html`<div class="grid">
  <section><h2>VAT breakdown</h2>
  <table><thead><tr><th scope="col">Category</th><th scope="col" class="num">Rate</th><th scope="col" class="num">Taxable</th><th scope="col" class="num">VAT</th></tr></thead>
  <tbody>${doc.vatBreakdown.map((v) => html`<tr><td>${v.vatCategory}</td><td class="num">${v.vatRate} %</td><td class="num">${v.taxableAmount}</td><td class="num">${v.taxAmount}</td></tr>`)}</tbody></table></section>
  <section><h2>Totals</h2>
  <table class="totals"><tbody>
    <tr><th scope="row">Sum of lines</th><td class="num">${t.lineNetTotal} ${c}</td></tr>
    <tr><th scope="row">Total without VAT</th><td class="num">${t.taxExclusive} ${c}</td></tr>
    <tr><th scope="row">VAT</th><td class="num">${t.taxTotal} ${c}</td></tr>
    <tr><th scope="row">Total with VAT</th><td class="num">${t.taxInclusive} ${c}</td></tr>
    <tr><th scope="row">Rounding</th><td class="num">${t.roundingAmount} ${c}</td></tr>
    <tr><th scope="row"><strong>${payableLabel}</strong></th><td class="num"><strong>${t.payable} ${c}</strong></td></tr>
  </tbody></table></section>
</div>`;
}

/** Buyer reference, purchase order, reason, note…: the short texts that exist. */
export function facts(entries: [string, string | null | undefined][]): SafeHtml {
  const present = entries.filter((e): e is [string, string] => Boolean(e[1]));
  if (present.length === 0) return html``;
  return html`<dl class="facts">${present.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}</dl>`;
}
