import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { EmailDeliveryService } from '../delivery/email-delivery-service.js';
import type { Container } from '../container.js';
import type { HostedLinks } from '../hosted/hosted-links.js';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { CreditNoteSchema } from '../schemas/credit-note.js';
import { InvoiceSchema } from '../schemas/invoice.js';
import { QuoteSchema } from '../schemas/quote.js';
import type { QuoteService } from '../quotes/quote-service.js';
import { creditNoteFromRows } from '../services/credit-note-mapping.js';
import type { InvoiceService } from '../services/invoice-service.js';
import { CreditNoteIdParams, InvoiceIdParams, QuoteIdParams } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

// POST /invoice/{id}/hosted-link/rotate, /credit-note/{id}/hosted-link/rotate and
// /quote/{id}/hosted-link/rotate: the document's hosted page link is revoked (its token opens
// nothing from now on) and a new one is made; the answer is the document with its new hostedUrl.
// Sharing a document is sending it, so the permission is the sending one (invoice.send,
// credit-note.send; for a quote, which is sent by quote.update, that one).

export interface HostedLinkRoutesOptions {
  links: HostedLinks;
  invoices: InvoiceService;
  repositories: Container['repositories'];
  emailDeliveries: EmailDeliveryService;
  idempotency: IdempotencyService;
  quotes: QuoteService;
}

const DESCRIPTION = (noun: string, path: string) =>
  `Revokes the ${noun}'s hosted page link and makes a new one: the old URL answers 404 from now on, the new one is in hostedUrl (null where the operator set no PUBLIC_BASE_URL). The first view time (viewedAt) stays. Use it when a link reached someone it should not have. With an Idempotency-Key a retried request rotates once. GET ${path} shows the link.`;

export const hostedLinkRoutes: FastifyPluginAsyncTypebox<HostedLinkRoutesOptions> = async (
  app,
  { links, invoices, repositories, emailDeliveries, idempotency, quotes },
) => {
  app.post(
    '/invoice/:id/hosted-link/rotate',
    {
      config: { access: { kind: 'key', permission: 'invoice.send' } },
      schema: {
        summary: "Revoke an invoice's hosted page link and make a new one",
        description: DESCRIPTION('invoice', '/invoice/{id}'),
        tags: ['Invoices'],
        params: InvoiceIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'INVOICE_NOT_ISSUED', ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const scope = scopeOf(request);
        const found = await repositories.invoices.findById(scope, request.params.id, trx);
        if (!found) throw new AppError('NOT_FOUND', 'No invoice with this id.');
        if (found.invoice.status === 'draft')
          throw new AppError('INVOICE_NOT_ISSUED', 'The invoice is a draft: it gets a hosted page when it is issued.');
        await links.rotate(scope, 'invoice', found.invoice.id, trx);
        const invoice = (await invoices.get(scope, found.invoice.id, new Date(), trx))!;
        return {
          status: 200,
          body: successBody(request, `Hosted page link of invoice ${invoice.number} rotated.`, invoice),
        };
      }),
  );

  app.post(
    '/credit-note/:id/hosted-link/rotate',
    {
      config: { access: { kind: 'key', permission: 'credit-note.send' } },
      schema: {
        summary: "Revoke a credit note's hosted page link and make a new one",
        description: DESCRIPTION('credit note', '/credit-note/{id}'),
        tags: ['Credit notes'],
        params: CreditNoteIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(CreditNoteSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) => {
      const scope = scopeOf(request);
      return answerIdempotently(request, reply, idempotency, async (trx) => {
        const found = await repositories.creditNotes.findById(scope, request.params.id, trx);
        if (!found) throw new AppError('NOT_FOUND', 'No credit note with this id.');
        const id = found.creditNote.id;
        await links.rotate(scope, 'credit-note', id, trx);
        const creditNote = creditNoteFromRows(
          found.creditNote,
          found.lines,
          await emailDeliveries.listForDocument(scope, id),
          await links.linkOf(scope, 'credit-note', id, trx),
        );
        return {
          status: 200,
          body: successBody(request, `Hosted page link of credit note ${creditNote.number} rotated.`, creditNote),
        };
      });
    },
  );

  app.post(
    '/quote/:id/hosted-link/rotate',
    {
      config: { access: { kind: 'key', permission: 'quote.update' } },
      schema: {
        summary: "Revoke a quote's hosted page link and make a new one",
        description: `${DESCRIPTION('quote', '/quote/{id}')} A draft has no page: 409 QUOTE_NOT_SENT.`,
        tags: ['Quotes'],
        params: QuoteIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(QuoteSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'QUOTE_NOT_SENT', ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const scope = scopeOf(request);
        const found = await quotes.get(scope, request.params.id, new Date(), trx);
        if (!found) throw new AppError('NOT_FOUND', 'No quote with this id.');
        if (found.status === 'draft')
          throw new AppError('QUOTE_NOT_SENT', 'The quote is a draft: it gets a hosted page when it is sent.');
        await links.rotate(scope, 'quote', found.id, trx);
        const quote = (await quotes.get(scope, found.id, new Date(), trx))!;
        return {
          status: 200,
          body: successBody(request, `Hosted page link of quote ${quote.number} rotated.`, quote),
        };
      }),
  );
};
