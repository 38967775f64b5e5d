import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Owner } from '../db/scope.js';
import { toAppError } from '../http/error-handler.js';
import { sendDocument } from '../http/document-reply.js';
import type { RateLimitStore } from '../rate-limit/store.js';
import type { DocumentService, RenderRequest } from '../services/document-service.js';
import type { PdfLanguage } from '../documents/index.js';
import type { HostedLinkRow } from './hosted-link-repository.js';
import { tokenHashOf, type HostedLinks } from './hosted-links.js';
import { documentPage, errorPage, HOSTED_CSP } from './page.js';
import { pageLanguageFor } from './words.js';

// GET /hosted/{token}: the public page of an issued document; /pdf and /xml its downloads, the
// very bytes of GET /invoice/{id}/pdf?lang=… and GET /invoice/{id}/cii. No key is read and no
// cookie set; every answer says noindex and carries a strict CSP. Each link has its own rate
// limit; a token of no link (unknown, rotated away, a draft's) is the same 404 page, with no hint.

export interface HostedPageOptions {
  links: HostedLinks;
  documents: DocumentService;
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
    const facts = await options.documents.pageFacts(link.document_kind, owner, link.document_id, new Date());
    if (!facts) return sendPage(reply, errorPage('en', 'not-found'), 404);
    const lang = pageLanguageFor(facts.view.buyer.address.countryCode);
    await options.links.recordView(link, request.id);
    const { token } = request.params as { token: string };
    return sendPage(reply, documentPage({ lang, ...facts, base: options.links.pageAddress(token) }));
  });

  async function download(request: FastifyRequest, reply: FastifyReply, format: 'pdf' | 'xml') {
    const found = await open(request, reply);
    if (!found) return reply;
    const { link, owner } = found;
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
