import { formattersFor, type DocumentView, type PdfLanguage } from '../documents/index.js';
import type { Owner, Scope } from '../db/scope.js';
import type { RenderedDocument } from '../http/document-reply.js';
import { escape, factsWithStatus, frame, linesTable, parties, totalsTable } from './page.js';
import { WORDS, type PageWords, type QuotePageStatus } from './words.js';

// The hosted page of a sent quote: what is offered, its state and validity, its PDF, and while it
// is open two plain forms (no script) that accept or decline it. Quotes are a capability of their
// own (src/quotes): this folder sees them through the port below, which the container builds.

/** What the page of a sent quote shows. */
export interface HostedQuoteFacts {
  view: DocumentView;
  status: QuotePageStatus;
  validUntil: string;
  /** When the buyer accepted or declined it; null while open (or expired). */
  answeredAt: string | null;
}

/** Refused: NOT_FOUND, QUOTE_NOT_OPEN (answered already), QUOTE_EXPIRED, as the API would be. */
export type HostedQuoteAnswer = { ok: true } | { ok: false; code: string };

export type HostedQuotePdf =
  | ({ ok: true } & RenderedDocument)
  | { ok: false; code: 'SERVICE_UNAVAILABLE'; retryAfterSeconds: number }
  | { ok: false; code: 'NOT_FOUND' | 'QUOTE_NOT_SENT' };

/** The quotes' side of the page (src/container.ts builds it from the QuoteService). */
export interface HostedQuotes {
  /** The page's facts; undefined for no such quote or a draft. */
  facts(owner: Owner, id: string, now: Date): Promise<HostedQuoteFacts | undefined>;
  /** The bytes of GET /quote/{id}/pdf?lang=…. */
  pdf(owner: Owner, id: string, lang: PdfLanguage): Promise<HostedQuotePdf>;
  /** The buyer's answer, as POST /quote/{id}/accept or /decline records it (same checks, same events). */
  answer(scope: Scope, id: string, answer: 'accepted' | 'declined', now: Date): Promise<HostedQuoteAnswer>;
}

/** Where the forms post, relative to the page (/hosted/<token> → /hosted/<token>/accept), on whatever host served it. */
export const answerAction = (token: string, action: 'accept' | 'decline') => `${encodeURIComponent(token)}/${action}`;

/** The page again, relative to a form's address (/hosted/<token>/accept → /hosted/<token>). */
export const pageFromAction = (token: string) => `../${encodeURIComponent(token)}`;

/** What the page says of an answered or expired quote. */
function outcomeOf(facts: HostedQuoteFacts, t: PageWords, date: (day: string) => string): string | null {
  if (facts.status === 'accepted') return t.acceptedOn(date((facts.answeredAt ?? '').slice(0, 10)));
  if (facts.status === 'declined') return t.declinedOn(date((facts.answeredAt ?? '').slice(0, 10)));
  if (facts.status === 'expired') return t.expiredOn(date(facts.validUntil));
  return null;
}

export interface QuotePageInput {
  lang: PdfLanguage;
  facts: HostedQuoteFacts;
  token: string;
  /** The page's own address, for the download link. */
  base: string;
}

export function quotePage({ lang, facts, token, base }: QuotePageInput): string {
  const { view, status } = facts;
  const t = WORDS[lang];
  const f = formattersFor(lang, view.currency);
  const title = `${t.quote} ${view.number}`;
  const parts: string[] = [];
  parts.push(`<h1>${escape(title)}</h1>`);
  parts.push(`<p class="note">${escape(t.quoteNote)}</p>`);
  if (view.test) parts.push(`<p class="note">${escape(t.testDocument)}</p>`);
  const dates: [string, string][] = [
    [t.quoteDate, f.date(view.issueDate)],
    [t.validUntil, f.date(facts.validUntil)],
  ];
  parts.push(factsWithStatus(dates, t, status, t.quoteStatuses[status]));
  parts.push(parties(view, t, f));
  parts.push(linesTable(view, t, f));
  parts.push(
    totalsTable(
      [
        [t.totalNet, view.totals.taxExclusive],
        [t.totalVat, view.totals.taxTotal],
        [t.total, view.totals.payable],
      ],
      t,
      f,
    ),
  );
  const outcome = outcomeOf(facts, t, f.date);
  if (status === 'open') {
    parts.push(
      `<section class="answer" aria-labelledby="answer"><h2 id="answer">${escape(t.yourAnswer)}</h2><p>${escape(t.answerPrompt(f.date(facts.validUntil)))}</p>` +
        `<form method="post" action="${answerAction(token, 'accept')}"><button type="submit" class="accept">${escape(t.accept)}</button></form>` +
        `<form method="post" action="${answerAction(token, 'decline')}"><button type="submit" class="decline">${escape(t.decline)}</button></form></section>`,
    );
  } else if (outcome) {
    parts.push(`<p class="outcome ${status}">${escape(outcome)}</p>`);
  }
  parts.push(
    `<h2>${escape(t.downloads)}</h2>\n<ul class="downloads"><li><a href="${base}/pdf" download>${escape(t.quotePdf)}</a></li></ul>`,
  );
  return frame(lang, `${title} – ${view.seller.name}`, parts.join('\n'));
}

/** The page a late answer gets (409): the quote was answered already, or has expired. */
export function notAnsweredPage(lang: PdfLanguage, facts: HostedQuoteFacts, token: string): string {
  const t = WORDS[lang];
  const f = formattersFor(lang, facts.view.currency);
  const outcome = outcomeOf(facts, t, f.date) ?? t.error;
  return frame(
    lang,
    t.notAnsweredTitle,
    `<h1>${escape(t.notAnsweredTitle)}</h1>\n<p class="outcome ${facts.status}">${escape(outcome)}</p>\n<p><a href="${pageFromAction(token)}">${escape(t.backToQuote)}</a></p>`,
  );
}
