import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Owner } from '../db/scope.js';
import { toAppError } from '../http/error-handler.js';
import { sendDocument } from '../http/document-reply.js';
import type { RateLimitStore } from '../rate-limit/store.js';
import type { DocumentService, RenderRequest } from '../services/document-service.js';
import type { PdfLanguage } from '../documents/index.js';
import type { HostedLinkRow } from './hosted-link-repository.js';
import { tokenHashOf, type HostedLinks } from './hosted-links.js';
import { documentPage, errorPage, HOSTED_CSP, HOSTED_QUOTE_CSP } from './page.js';
import { pageLanguageFor } from './words.js';
import { notAnsweredPage, pageFromAction, quotePage, type HostedQuotes } from './quote-page.js';

// GET /hosted/{token}: the public page of an issued document; /pdf and /xml its downloads, the
// very bytes of GET /invoice/{id}/pdf?lang=… and GET /invoice/{id}/cii. No key is read and no
// cookie set; every answer says noindex and carries a strict CSP. Each link has its own rate
// limit; a token of no link (unknown, rotated away, a draft's) is the same 404 page, with no hint.
// A sent quote's page (its PDF the bytes of GET /quote/{id}/pdf?lang=…) posts its accept and
// decline forms to /hosted/{token}/accept and /decline: the token is the capability, as it is for
// reading the page (docs/decisions.md), and the answer is recorded as the API records it.

export interface HostedPageOptions {
  links: HostedLinks;
  documents: DocumentService;
  /** Sent quotes, seen through the container's port. */
  quotes: HostedQuotes;
  store: RateLimitStore;
  /** Views (page and downloads) of one link per window. */
  limit: number;
  windowMs: number;
}

const SECURITY_HEADERS = {
  'content-security-policy': HOSTED_CSP,
  'x-robots-tag': 'noindex, nofollow, noarchive',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  'strict-transport-security': 'max-age=31536000',
};

type Found = { link: HostedLinkRow; owner: Owner };

function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

export const hostedPageRoutes: FastifyPluginAsync<HostedPageOptions> = async (app, options) => {
  const access = { access: { kind: 'none' as const } };

  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    done();
  });
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'hosted page failed');
    if (appError.headers) reply.headers(appError.headers);
    if (appError.status === 404) return sendPage(reply, errorPage('en', 'not-found'), 404);
    if (appError.status === 429) return sendPage(reply, errorPage('en', 'limited'), 429);
    return sendPage(reply, errorPage('en', 'error'), appError.status >= 500 ? appError.status : 400);
  });
  app.setNotFoundHandler((_request, reply) => sendPage(reply, errorPage('en', 'not-found'), 404));
  // The answer forms post application/x-www-form-urlencoded with no field that is read: the body is
  // taken (up to a little) and dropped, so a form from any browser is accepted as it comes.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_r, _b, done) => done(null, {}),
  );

  /** The link of the token, counted against its limit; null when the answer was already given (404, 429). */
  async function open(request: FastifyRequest, reply: FastifyReply): Promise<Found | null> {
    const { token } = request.params as { token: string };
    // Counted by the token's hash (never the token), before any lookup: past the limit nothing is read.
    const window = await options.store.increment(`hosted:${tokenHashOf(token).slice(0, 32)}`, options.windowMs);
    if (window.count > options.limit) {
      reply.header('retry-after', String(Math.max(1, Math.ceil((window.resetAt - Date.now()) / 1000))));
      sendPage(reply, errorPage('en', 'limited'), 429);
      return null;
    }
    const link = await options.links.resolve(token);
    if (!link) {
      sendPage(reply, errorPage('en', 'not-found'), 404);
      return null;
    }
    return { link, owner: { companyId: link.company_id, livemode: link.livemode === 1 } };
  }

  app.get('/:token', { config: access }, async (request, reply) => {
    const found = await open(request, reply);
    if (!found) return reply;
    const { link, owner } = found;
    const { token } = request.params as { token: string };
    if (link.document_kind === 'quote') {
      const facts = await options.quotes.facts(owner, link.document_id, new Date());
      if (!facts) return sendPage(reply, errorPage('en', 'not-found'), 404);
      const lang = pageLanguageFor(facts.view.buyer.address.countryCode);
      await options.links.recordView(link, request.id);
      reply.header('content-security-policy', HOSTED_QUOTE_CSP);
      return sendPage(reply, quotePage({ lang, facts, token, base: options.links.pageAddress(token) }));
    }
    const facts = await options.documents.pageFacts(link.document_kind, owner, link.document_id, new Date());
    if (!facts) return sendPage(reply, errorPage('en', 'not-found'), 404);
    const lang = pageLanguageFor(facts.view.buyer.address.countryCode);
    await options.links.recordView(link, request.id);
    return sendPage(reply, documentPage({ lang, ...facts, base: options.links.pageAddress(token) }));
  });

  /**
   * The buyer's answer from the quote's page: recorded as POST /quote/{id}/accept or /decline
   * records it (the same compare-and-set, so of racing answers one wins, and the same event), then
   * 303 back to the page, which shows the outcome. An answered or expired quote gets a 409 page
   * saying so; a token of anything but a quote the 404 page.
   */
  async function answer(request: FastifyRequest, reply: FastifyReply, choice: 'accepted' | 'declined') {
    const found = await open(request, reply);
    if (!found) return reply;
    const { link, owner } = found;
    if (link.document_kind !== 'quote') return sendPage(reply, errorPage('en', 'not-found'), 404);
    const { token } = request.params as { token: string };
    const now = new Date();
    const result = await options.quotes.answer({ ...owner, requestId: request.id }, link.document_id, choice, now);
    if (result.ok) return reply.code(303).header('location', pageFromAction(token)).send();
    const facts = await options.quotes.facts(owner, link.document_id, now);
    if (!facts || result.code === 'NOT_FOUND') return sendPage(reply, errorPage('en', 'not-found'), 404);
    const lang = pageLanguageFor(facts.view.buyer.address.countryCode);
    return sendPage(reply, notAnsweredPage(lang, facts, token), 409);
  }

  app.post('/:token/accept', { config: access }, (request, reply) => answer(request, reply, 'accepted'));
  app.post('/:token/decline', { config: access }, (request, reply) => answer(request, reply, 'declined'));

  async function download(request: FastifyRequest, reply: FastifyReply, format: 'pdf' | 'xml') {
    const found = await open(request, reply);
    if (!found) return reply;
    const { link, owner } = found;
    if (link.document_kind === 'quote') {
      // A quote has a PDF and nothing else: no e-invoice (it is no invoice).
      const facts = format === 'pdf' ? await options.quotes.facts(owner, link.document_id, new Date()) : undefined;
      if (!facts) return sendPage(reply, errorPage('en', 'not-found'), 404);
      const lang = pageLanguageFor(facts.view.buyer.address.countryCode);
      const result = await options.quotes.pdf(owner, link.document_id, lang);
      if (result.ok) return sendDocument(reply, result);
      if (result.code === 'SERVICE_UNAVAILABLE') {
        reply.header('retry-after', String(result.retryAfterSeconds));
        return sendPage(reply, errorPage(lang, 'error'), 503);
      }
      return sendPage(reply, errorPage(lang, 'not-found'), 404);
    }
    const facts = await options.documents.pageFacts(link.document_kind, owner, link.document_id, new Date());
    if (!facts) return sendPage(reply, errorPage('en', 'not-found'), 404);
    const lang: PdfLanguage = pageLanguageFor(facts.view.buyer.address.countryCode);
    const render: RenderRequest = format === 'pdf' ? { format: 'pdf', lang } : { format: 'cii', profile: 'en16931' };
    const result = await options.documents.render(link.document_kind, owner, link.document_id, render);
    if (result.ok) return sendDocument(reply, result);
    if (result.code === 'SERVICE_UNAVAILABLE') {
      reply.header('retry-after', String(result.retryAfterSeconds));
      return sendPage(reply, errorPage(lang, 'error'), 503);
    }
    return sendPage(reply, errorPage(lang, 'not-found'), 404);
  }

  app.get('/:token/pdf', { config: access }, (request, reply) => download(request, reply, 'pdf'));
  app.get('/:token/xml', { config: access }, (request, reply) => download(request, reply, 'xml'));
};
