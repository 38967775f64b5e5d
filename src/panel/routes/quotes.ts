import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Quote } from '../../schemas/quote.js';
import { PAGE_SIZE, pageNumber } from '../records.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import { deleteQuotePage, quotePage, quotesPage, type DraftQuoteValues } from '../views/quotes.js';
import { chromeFor, forbidden, notFound, openAccess, requirePrivileged, sendPage, type PanelDeps } from '../context.js';
import { panelOwner, panelScope } from '../mode.js';

// The quotes the API made: every role reads the list and each quote; owners and admins also edit
// a draft's validity, references and note, and delete a draft, through the same QuoteService
// calls as PATCH and DELETE /quote/{id} (the same checks, events and 409 once it was sent). Its
// lines, and sending, stay with the API.

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const PageQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 10 })),
  done: Type.Optional(Type.String({ maxLength: 40 })),
});
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
// Bounds above the API's own, so that its messages reach the form.
const EditBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    validUntil: Type.Optional(Type.String({ maxLength: 40 })),
    buyerReference: Type.Optional(Type.String({ maxLength: 2000 })),
    purchaseOrderReference: Type.Optional(Type.String({ maxLength: 2000 })),
    note: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const CsrfOnlyBody = Type.Object({ _csrf: Type.Optional(Type.String()) }, { additionalProperties: false });

const MAY_NOT = 'Your role does not allow this. Owners and admins edit and delete draft quotes.';
const NOT_DRAFT = 'The quote is not a draft any more: it was sent, and a sent quote is not changed.';

const NOTICES: Record<string, Notice> = {
  updated: { kind: 'success', text: 'The draft quote is saved.' },
  deleted: { kind: 'success', text: 'The draft quote is deleted. It had no number, so none is lost.' },
};

/** A text field of the form as the API's body has it: empty is none. */
const orNull = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

export function quoteRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const quotes = deps.container.quotes;

    async function quoteOr404(request: FastifyRequest, id: string): Promise<Quote> {
      const quote = await quotes.get(panelOwner(request), id);
      if (!quote) throw notFound();
      return quote;
    }

    async function showQuote(
      request: FastifyRequest,
      reply: FastifyReply,
      quote: Quote,
      form: { notice?: Notice | null; values?: DraftQuoteValues; errors?: FieldErrors } = {},
      status = 200,
    ) {
      return sendPage(reply, quotePage(await chromeFor(request, reply, deps), quote, form), status);
    }

    app.get('/quotes', { config: openAccess(), schema: { querystring: PageQuery } }, async (request, reply) => {
      const found = await quotes.page(panelOwner(request), pageNumber(request.query.page), PAGE_SIZE);
      const page = { items: found.quotes, total: found.total, page: found.page, pages: found.pages };
      const done = request.query.done;
      const notice = done ? NOTICES[done] : undefined;
      return sendPage(reply, quotesPage(await chromeFor(request, reply, deps), page, notice));
    });

    app.get(
      '/quotes/:id',
      { config: openAccess(), schema: { params: IdParams, querystring: DoneQuery } },
      async (request, reply) => {
        const done = request.query.done;
        return showQuote(request, reply, await quoteOr404(request, request.params.id), {
          notice: done ? (NOTICES[done] ?? null) : null,
        });
      },
    );

    app.post(
      '/quotes/:id/edit',
      { config: openAccess(), schema: { params: IdParams, body: EditBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        requirePrivileged(request, forbidden(MAY_NOT));
        const { id } = request.params;
        const body = request.body;
        const values: DraftQuoteValues = {
          validUntil: body.validUntil ?? '',
          buyerReference: body.buyerReference ?? '',
          purchaseOrderReference: body.purchaseOrderReference ?? '',
          note: body.note ?? '',
        };
        const validUntil = orNull(body.validUntil);
        if (validUntil !== null && !/^\d{4}-\d{2}-\d{2}$/.test(validUntil)) {
          const quote = await quoteOr404(request, id);
          return showQuote(request, reply, quote, { values, errors: { validUntil: 'Give a date.' } }, 400);
        }
        const result = await quotes.update(panelScope(request), id, {
          validUntil,
          buyerReference: orNull(body.buyerReference),
          purchaseOrderReference: orNull(body.purchaseOrderReference),
          note: orNull(body.note),
        });
        if (result.ok) {
          request.log.info({ quoteId: id }, 'draft quote edited in the panel');
          return reply.redirect(`${PANEL_PATH}/quotes/${id}?done=updated`, 303);
        }
        if (result.code === 'NOT_FOUND') throw notFound();
        const quote = await quoteOr404(request, id);
        if (result.code === 'VALIDATION_ERROR') {
          const errors: FieldErrors = {};
          for (const d of result.details) if (d.field in values) errors[d.field] ??= d.message;
          return showQuote(request, reply, quote, { values, errors }, 400);
        }
        const text =
          result.code === 'QUOTE_NOT_DRAFT' ? NOT_DRAFT : 'The draft cannot be saved: its buyer is archived.';
        return showQuote(request, reply, quote, { notice: { kind: 'error', text } }, 409);
      },
    );

    app.get('/quotes/:id/delete', { config: openAccess(), schema: { params: IdParams } }, async (request, reply) => {
      requirePrivileged(request, forbidden(MAY_NOT));
      const quote = await quoteOr404(request, request.params.id);
      if (quote.status !== 'draft')
        return showQuote(request, reply, quote, { notice: { kind: 'error', text: NOT_DRAFT } }, 409);
      return sendPage(reply, deleteQuotePage(await chromeFor(request, reply, deps), quote));
    });

    app.post(
      '/quotes/:id/delete',
      { config: openAccess(), schema: { params: IdParams, body: CsrfOnlyBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        requirePrivileged(request, forbidden(MAY_NOT));
        const { id } = request.params;
        const result = await quotes.delete(panelScope(request), id);
        if (result.ok) {
          request.log.info({ quoteId: id }, 'draft quote deleted in the panel');
          return reply.redirect(`${PANEL_PATH}/quotes?done=deleted`, 303);
        }
        if (result.code === 'NOT_FOUND') throw notFound();
        const quote = await quoteOr404(request, id);
        return showQuote(request, reply, quote, { notice: { kind: 'error', text: NOT_DRAFT } }, 409);
      },
    );
  };
}
