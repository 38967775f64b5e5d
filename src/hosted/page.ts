import { createHash } from 'node:crypto';
import {
  formattersFor,
  girocodeSvg,
  type CreditFacts,
  type DocumentView,
  type PdfLanguage,
  type StatusFacts,
} from '../documents/index.js';
import { Decimal } from '../money/decimal.js';
import { WORDS, type PageStatus, type PageWords } from './words.js';

// The hosted page: the document as its buyer should see it, as plain HTML that needs no script,
// with one inline style sheet the Content-Security-Policy allows by its hash and nothing else.

const STYLE = `
:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1d232a;background:#f4f5f7}
body{margin:0}
main{max-width:60rem;margin:0 auto;padding:1rem;background:#fff;min-height:100vh;box-sizing:border-box}
h1{font-size:1.6rem;margin:.5rem 0}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.status{display:inline-block;padding:.15rem .6rem;border-radius:1rem;font-weight:600;background:#e7eef8;color:#123a6b}
.status-paid,.status-credited,.status-accepted{background:#e3f4e8;color:#14532d}
.status-void,.status-declined,.status-expired{background:#eceff1;color:#37474f}
.status-partly-paid{background:#fff4d6;color:#6b4500}
.parties{display:flex;flex-wrap:wrap;gap:1rem 3rem}
.parties section{flex:1 1 14rem}
address{font-style:normal}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
dl.facts dt{font-weight:600}
dl.facts dd{margin:0}
.table-scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%}
th,td{padding:.4rem .5rem;border-bottom:1px solid #d5d9de;text-align:left;vertical-align:top}
td.num,th.num{text-align:right;white-space:nowrap}
.balance{margin:1.5rem 0;padding:1rem;border-radius:.5rem;background:#fbeee6;font-size:1.15rem;font-weight:600;color:#5c2100}
.balance.settled{background:#e3f4e8;color:#14532d}
.pay{display:flex;flex-wrap:wrap;gap:1rem 2rem;align-items:flex-start}
.pay figure{margin:0;max-width:200px}
.pay figcaption{font-size:.85rem;color:#3d4650}
.pay svg{width:200px;height:200px;max-width:100%}
a{color:#0b4f9c}
ul.downloads{padding-left:1.2rem}
.note{color:#3d4650}
.answer{margin:1.5rem 0;padding:1rem;border-radius:.5rem;background:#e7eef8}
.answer p{margin:0 0 .5rem}
.answer form{display:inline-block;margin:.5rem 1rem .25rem 0}
button{font:inherit;font-weight:600;padding:.6rem 1.2rem;border-radius:.4rem;border:2px solid #0b4f9c;cursor:pointer}
button.accept{background:#0b4f9c;color:#fff}
button.decline{background:#fff;color:#0b4f9c}
.outcome{margin:1.5rem 0;padding:1rem;border-radius:.5rem;background:#eceff1;font-weight:600;color:#37474f}
.outcome.accepted{background:#e3f4e8;color:#14532d}
`;

/** The Content-Security-Policy of every hosted page: nothing but the page's own style sheet. */
export const HOSTED_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;

/** A quote's page posts its accept and decline forms to its own address, and nowhere else. */
export const HOSTED_QUOTE_CSP = HOSTED_CSP.replace("form-action 'none'", "form-action 'self'");

export const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c as '&'] ?? c,
  );

export function frame(lang: PdfLanguage, title: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${escape(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The page of an error: 404 with no hint what was wrong, 429, 5xx. */
export function errorPage(lang: PdfLanguage, kind: 'not-found' | 'limited' | 'error'): string {
  const t = WORDS[lang];
  const [title, text] =
    kind === 'not-found'
      ? [t.notFoundTitle, t.notFound]
      : kind === 'limited'
        ? [t.limitedTitle, t.limited]
        : [t.errorTitle, t.error];
  return frame(lang, title, `<h1>${escape(title)}</h1>\n<p>${escape(text)}</p>`);
}

/**
 * What the page says the invoice stands at: void (voided, or credited in full with nothing paid,
 * as the API's status says); with nothing open, credited when more of it was credited than paid,
 * else paid; partly paid, or open.
 */
export function pageStatusOf(status: StatusFacts): PageStatus {
  if (status.status === 'void') return 'void';
  if (!new Decimal(status.balance).greaterThan(0)) {
    const sum = (items: { amount: string }[]) => items.reduce((total, item) => total.plus(item.amount), new Decimal(0));
    return sum(status.credits).greaterThan(sum(status.payments)) ? 'credited' : 'paid';
  }
  return status.payments.length > 0 ? 'partly-paid' : 'open';
}

function party(heading: string, p: DocumentView['seller'], t: PageWords, country: (code: string) => string): string {
  const a = p.address;
  const lines = [
    p.name,
    a.line1,
    a.line2,
    [a.postalCode, a.city].filter(Boolean).join(' '),
    a.countryCode ? country(a.countryCode) : null,
  ].filter((line): line is string => !!line);
  const vat = p.vatId ? `<p>${escape(t.vatId)}: ${escape(p.vatId)}</p>` : '';
  return `<section><h2>${escape(heading)}</h2><address>${lines.map(escape).join('<br>')}</address>${vat}</section>`;
}

/** An IBAN in groups of four, as people read and type it. */
const grouped = (account: string) =>
  /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(account) ? account.replace(/(.{4})(?=.)/g, '$1 ') : account;

export interface PageInput {
  lang: PdfLanguage;
  view: DocumentView;
  status: StatusFacts;
  credit?: CreditFacts;
  xmlReady: boolean;
  /** The page's own address (relative), for the download links. */
  base: string;
}

export function documentPage({ lang, view, status, xmlReady, base }: PageInput): string {
  const t = WORDS[lang];
  const f = formattersFor(lang, view.currency);
  const invoice = view.typeCode === '380';
  const title = `${invoice ? t.invoice : t.creditNote} ${view.number}`;
  const pageStatus = pageStatusOf(status);
  const balance = new Decimal(status.balance);
  const parts: string[] = [];
  parts.push(`<h1>${escape(title)}</h1>`);
  if (!invoice && view.precedingInvoice) parts.push(`<p>${escape(t.creditNoteFor(view.precedingInvoice.number))}</p>`);
  if (view.test) parts.push(`<p class="note">${escape(t.testDocument)}</p>`);
  const facts: [string, string][] = [[t.issueDate, f.date(view.issueDate)]];
  if (invoice && view.dueDate) facts.push([t.dueDate, f.date(view.dueDate)]);
  parts.push(factsWithStatus(facts, t, pageStatus, t.statuses[pageStatus]));
  parts.push(parties(view, t, f));
  parts.push(linesTable(view, t, f));
  const totals: [string, string][] = [
    [t.totalNet, view.totals.taxExclusive],
    [t.totalVat, view.totals.taxTotal],
    [t.total, view.totals.payable],
  ];
  if (invoice) {
    for (const p of status.payments) totals.push([`${t.paid} (${f.date(p.date)})`, `−${p.amount}`]);
    for (const c of status.credits) totals.push([`${t.credited} (${c.number})`, `−${c.amount}`]);
    for (const r of status.refunds) totals.push([`${t.refunded} (${f.date(r.date)})`, r.amount]);
  }
  parts.push(totalsTable(totals, t, f));
  const balanceLabel = invoice ? t.balanceDue : t.invoiceBalance(status.invoiceNumber ?? '');
  if (balance.greaterThan(0))
    parts.push(`<p class="balance">${escape(balanceLabel)}: ${escape(f.money(status.balance))}</p>`);
  else if (balance.lessThan(0))
    parts.push(
      `<p class="balance settled">${escape(t.owedToBuyer)}: ${escape(f.money(balance.abs().toFixed(view.currency.minorDigits)))}</p>`,
    );
  else parts.push(`<p class="balance settled">${escape(t.nothingDue)}</p>`);
  if (invoice && balance.greaterThan(0)) parts.push(payment(view, status.balance, t, f.money));
  const downloads = [`<li><a href="${base}/pdf" download>${escape(t.pdf)}</a></li>`];
  if (xmlReady) downloads.push(`<li><a href="${base}/xml" download>${escape(t.xml)}</a></li>`);
  parts.push(`<h2>${escape(t.downloads)}</h2>\n<ul class="downloads">${downloads.join('')}</ul>`);
  return frame(lang, `${title} – ${view.seller.name}`, parts.join('\n'));
}

type Formatters = ReturnType<typeof formattersFor>;

/** The page's dates, then its status as a badge (`status` names its colour class). */
export function factsWithStatus(facts: [string, string][], t: PageWords, status: string, statusText: string): string {
  return `<dl class="facts">${facts.map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v)}</dd>`).join('')}<dt>${escape(t.status)}</dt><dd><span class="status status-${status}">${escape(statusText)}</span></dd></dl>`;
}

/** Seller and buyer side by side. */
export function parties(view: DocumentView, t: PageWords, f: Formatters): string {
  return `<div class="parties">${party(t.from, view.seller, t, f.country)}${party(t.to, view.buyer, t, f.country)}</div>`;
}

/** The document's lines as a table that scrolls on its own on a narrow screen. */
export function linesTable(view: DocumentView, t: PageWords, f: Formatters): string {
  const rows = view.lines
    .map(
      (line) =>
        `<tr><td>${escape(line.name)}${line.description ? `<br><span class="note">${escape(line.description)}</span>` : ''}</td><td class="num">${escape(f.number(line.quantity))} ${escape(f.unit(line.unitCode))}</td><td class="num">${escape(f.money(line.unitPriceAsGiven))}</td><td class="num">${escape(f.percent(line.vatRate))}</td><td class="num">${escape(f.money(line.netAmount))}</td></tr>`,
    )
    .join('\n');
  return `<h2 id="lines">${escape(t.lines)}</h2>\n<div class="table-scroll" role="region" aria-labelledby="lines" tabindex="0"><table><thead><tr><th scope="col">${escape(t.item)}</th><th scope="col" class="num">${escape(t.quantity)}</th><th scope="col" class="num">${escape(t.unitPrice)}</th><th scope="col" class="num">${escape(t.vat)}</th><th scope="col" class="num">${escape(t.net)}</th></tr></thead><tbody>\n${rows}\n</tbody></table></div>`;
}

/** The totals (and for an invoice what was paid, credited and refunded), amounts with a minus sign kept. */
export function totalsTable(totals: [string, string][], t: PageWords, f: Formatters): string {
  const money = (amount: string) => (amount.startsWith('−') ? `−${f.money(amount.slice(1))}` : f.money(amount));
  return `<h2 id="totals">${escape(t.totals)}</h2>\n<div class="table-scroll" role="region" aria-labelledby="totals" tabindex="0"><table><tbody>${totals
    .map(([k, v]) => `<tr><th scope="row">${escape(k)}</th><td class="num">${escape(money(v))}</td></tr>`)
    .join('')}</tbody></table></div>`;
}

/** How to pay the open balance, with the GiroCode for exactly that amount (none on a test document). */
function payment(view: DocumentView, open: string, t: PageWords, money: (amount: string) => string): string {
  const means = view.paymentMeans;
  if (!means) return '';
  const text: string[] = [];
  const account = means.creditTransfer;
  if (account) {
    text.push(`<p>${escape(t.transfer(money(open)))}</p>`);
    const facts: [string, string][] = [[t.iban, view.test ? 'TEST' : grouped(account.accountId)]];
    if (account.accountName && !view.test) facts.push([t.accountHolder, account.accountName]);
    if (account.serviceProviderId && !view.test) facts.push([t.bic, account.serviceProviderId]);
    facts.push([t.reference, means.remittanceInformation ?? view.number]);
    text.push(`<dl class="facts">${facts.map(([k, v]) => `<dt>${escape(k)}</dt><dd>${escape(v)}</dd>`).join('')}</dl>`);
  } else if (means.directDebit) {
    text.push(`<p>${escape(t.directDebit(money(open)))}</p>`);
  } else {
    return '';
  }
  const svg = girocodeSvg(view, open, t.scanToPay);
  const code = svg ? `<figure>${svg}<figcaption>${escape(t.scanToPay)}</figcaption></figure>` : '';
  return `<h2>${escape(t.howToPay)}</h2>\n<div class="pay"><div>${text.join('')}</div>${code}</div>`;
}
