import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError, validationError, type ErrorDetail } from '../errors/app-error.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../http/envelope.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import type { QuoteService } from '../quotes/quote-service.js';
import { InvoiceSchema } from '../schemas/invoice.js';
import { DocumentedAs } from '../schemas/documented-as.js';
import {
  CreateQuoteBody,
  QUOTE_STATUSES,
  QuoteSchema,
  QuoteToInvoiceBody,
  UpdateQuoteBody,
  type QuoteToInvoiceInput,
} from '../schemas/quote.js';
import { QuoteIdParams, refusal, type RefusalMessages } from './ids.js';
import {
  DEFAULT_LIMIT,
  NumberPrefixQuery,
  Page,
  PageBudget,
  PageQuery,
  coerceQuery,
  cursorAfter,
  decodeCursor,
} from './reading/pagination.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';
import { PDF_LANGUAGES } from '../documents/index.js';
import { sendDocument } from '../http/document-reply.js';

export interface QuoteRoutesOptions {
  quotes: QuoteService;
  idempotency: IdempotencyService;
  /** RESPONSE_MAX_BYTES: a list page ends before the item that would make the answer larger. */
  responseMaxBytes: number;
}

const NO_QUOTE = 'No quote with this id.';
const MESSAGES: RefusalMessages = { NOT_FOUND: NO_QUOTE };

const DeletedQuoteSchema = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { title: 'DeletedQuote', description: 'The draft is gone; drafts never had a number, so no number is lost.' },
);

const ListQuotesQuery = Type.Object(
  {
    ...PageQuery,
    organizationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only quotes to this buyer.' }),
    ),
    number: NumberPrefixQuery,
    issueDateFrom: Type.Optional(
      Type.String({ format: 'date', description: 'Issued on or after this day (YYYY-MM-DD).' }),
    ),
    issueDateTo: Type.Optional(
      Type.String({ format: 'date', description: 'Issued on or before this day (YYYY-MM-DD).' }),
    ),
    status: Type.Optional(
      Type.Union(
        QUOTE_STATUSES.map((s) => Type.Literal(s)),
        { description: 'Only quotes in this status (expired: open and past validUntil).' },
      ),
    ),
  },
  { additionalProperties: false },
);

const QuoteInvoiceSchema = Type.Object(
  { quote: QuoteSchema, invoice: InvoiceSchema },
  { title: 'QuoteInvoice', description: 'The quote, now naming its invoice, and the invoice made from it.' },
);

/**
 * POST /quote/{id}/invoice may be sent without a body. The validator lets any body through (the
 * document shows its one form) and readConvertOptions checks it, with the validator's details.
 */
const ConvertBody = DocumentedAs(Type.Unsafe<unknown>({}), QuoteToInvoiceBody);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function readConvertOptions(body: unknown): QuoteToInvoiceInput {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ field: 'body', code: 'invalid_type', message: 'Must be an object (or nothing).' }]);
  }
  const problems: ErrorDetail[] = [];
  const fields = body as Record<string, unknown>;
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'status') {
      if (value !== 'issued' && value !== 'draft')
        problems.push({ field: name, code: 'invalid_enum', message: 'Must be issued or draft.' });
    } else if (name === 'issueDate' || name === 'dueDate') {
      if (value !== null && (typeof value !== 'string' || !DATE.test(value)))
        problems.push({ field: name, code: 'invalid_format', message: 'Must be a date YYYY-MM-DD.' });
    } else if (name === 'purchaseOrderReference') {
      if (value !== null && (typeof value !== 'string' || value.length > 500))
        problems.push({ field: name, code: 'invalid_type', message: 'Must be text of at most 500 characters.' });
    } else {
      problems.push({ field: name, code: 'unknown_field', message: 'This field is not allowed.' });
    }
  }
  if (problems.length > 0) throw validationError(problems);
  return fields as QuoteToInvoiceInput;
}

/** POST /quote, GET /quote[/{id}], and a quote's life: send, accept, decline, invoice. */
export const quoteRoutes: FastifyPluginAsyncTypebox<QuoteRoutesOptions> = async (
  app,
  { quotes, idempotency, responseMaxBytes },
) => {
  app.post(
    '/quote',
    {
      config: { access: { kind: 'key', permission: 'quote.create' } },
      schema: {
        summary: 'Create a quote: sent at once (numbered Q-YYYY-NNNNN, status open), or a draft',
        description:
          'The same lines, VAT and exact totals as POST /invoice; no payment means (a quote asks for no payment).',
        tags: ['Quotes'],
        body: CreateQuoteBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(QuoteSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'ORGANIZATION_ARCHIVED',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await quotes.create(scopeOf(request), request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        const message =
          result.value.status === 'draft' ? 'Draft quote created.' : `Quote ${result.value.number} created.`;
        return { status: 201, body: successBody(request, message, result.value) };
      }),
  );

  app.get(
    '/quote',
    {
      config: { access: { kind: 'key', permission: 'quote.read' } },
      preValidation: coerceQuery(ListQuotesQuery),
      schema: {
        summary: 'List quotes, newest first',
        tags: ['Quotes'],
        querystring: ListQuotesQuery,
        response: { 200: SuccessEnvelope(Page(QuoteSchema)), ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']) },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor, ...filter } = request.query;
      const { rows, quotes: found } = await quotes.list(scopeOf(request), filter, {
        limit,
        ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }),
      });
      const budget = new PageBudget<(typeof found)[number]>(responseMaxBytes);
      for (const quote of found) if (!budget.offer(quote)) break;
      const page = { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, limit) };
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Quotes listed.', page) as never);
    },
  );

  app.get(
    '/quote/:id',
    {
      config: { access: { kind: 'key', permission: 'quote.read' } },
      schema: {
        summary: 'Read one quote',
        description: 'An id of another company gets the same 404 as an id that does not exist.',
        tags: ['Quotes'],
        params: QuoteIdParams,
        response: { 200: SuccessEnvelope(QuoteSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const quote = await quotes.get(scopeOf(request), request.params.id);
      if (!quote) throw new AppError('NOT_FOUND', NO_QUOTE);
      return successBody(request, 'Quote found.', quote);
    },
  );

  app.patch(
    '/quote/:id',
    {
      config: { access: { kind: 'key', permission: 'quote.update' } },
      schema: {
        summary: 'Edit a draft quote',
        description:
          'Any field of the create body but status, with the same checks; `lines`, when sent, replace all lines. Only drafts can be edited: 409 QUOTE_NOT_DRAFT otherwise (a sent quote is an offer made; make a new one).',
        tags: ['Quotes'],
        params: QuoteIdParams,
        body: UpdateQuoteBody,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(QuoteSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'ORGANIZATION_ARCHIVED',
            'QUOTE_NOT_DRAFT',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await quotes.update(scopeOf(request), request.params.id, request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        return { status: 200, body: successBody(request, 'Draft quote updated.', result.value) };
      }),
  );

  app.delete(
    '/quote/:id',
    {
      config: { access: { kind: 'key', permission: 'quote.delete' } },
      schema: {
        summary: 'Delete a draft quote',
        description:
          'Only drafts can be deleted: 409 QUOTE_NOT_DRAFT otherwise (a sent quote keeps its number; it is declined or expires).',
        tags: ['Quotes'],
        params: QuoteIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(DeletedQuoteSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'QUOTE_NOT_DRAFT', ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await quotes.delete(scopeOf(request), request.params.id, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        return {
          status: 200,
          body: successBody(request, 'Draft quote deleted.', { id: request.params.id, deleted: true as const }),
        };
      }),
  );

  app.get(
    '/quote/:id/pdf',
    {
      config: { access: { kind: 'key', permission: 'quote.read' } },
      schema: {
        summary: 'The quote as a PDF/A-3b: titled as a quote, with its validity, asking for no payment',
        description:
          "A page a person reads, in English, German or French, in the invoices' house style: titled Quote / Angebot / Devis, with its number, issue date and validity, its parties, lines, VAT and totals; no payment terms, no payment instruction, no GiroCode and no embedded XML (a quote is no invoice). 409 QUOTE_NOT_SENT for a draft; 503 SERVICE_UNAVAILABLE with Retry-After when too many PDFs wait to be rendered.",
        tags: ['Quotes'],
        params: QuoteIdParams,
        querystring: Type.Object(
          {
            lang: Type.Optional(
              Type.Union(
                PDF_LANGUAGES.map((l) => Type.Literal(l)),
                { description: 'The language of the page: en (default), de or fr.' },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: {
            content: {
              'application/pdf': { schema: Type.String({ format: 'binary', description: 'The PDF/A-3b document.' }) },
            },
          },
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR', 'QUOTE_NOT_SENT', 'SERVICE_UNAVAILABLE']),
        },
      },
    },
    async (request, reply) => {
      const result = await quotes.renderPdf(scopeOf(request), request.params.id, request.query.lang ?? 'en');
      if (!result.ok && result.code === 'SERVICE_UNAVAILABLE') {
        throw new AppError('SERVICE_UNAVAILABLE', result.message, {
          headers: { 'retry-after': String(result.retryAfterSeconds) },
        });
      }
      if (!result.ok) throw refusal(result, MESSAGES);
      return sendDocument(reply, result);
    },
  );

  app.post(
    '/quote/:id/send',
    {
      config: { access: { kind: 'key', permission: 'quote.update' } },
      schema: {
        summary: 'Send a draft quote: it gets its number, issue date, validity and snapshots, and is open',
        tags: ['Quotes'],
        params: QuoteIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(QuoteSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'ORGANIZATION_ARCHIVED',
            'QUOTE_NOT_DRAFT',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await quotes.send(scopeOf(request), request.params.id, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        return { status: 200, body: successBody(request, `Quote ${result.value.number} sent.`, result.value) };
      }),
  );

  for (const [action, answer] of [
    ['accept', 'accepted'],
    ['decline', 'declined'],
  ] as const) {
    app.post(
      `/quote/:id/${action}`,
      {
        config: { access: { kind: 'key', permission: 'quote.update' } },
        schema: {
          summary:
            answer === 'accepted'
              ? 'Record that the buyer accepted an open quote'
              : 'Record that the buyer declined an open quote',
          description:
            'Only an open quote, on or before its validUntil day (UTC): 409 QUOTE_EXPIRED after it, 409 QUOTE_NOT_OPEN when it is a draft or was answered.',
          tags: ['Quotes'],
          params: QuoteIdParams,
          headers: IdempotencyHeaders,
          response: {
            200: SuccessEnvelope(QuoteSchema),
            ...errorResponses([
              ...KEY_ERRORS,
              ...BODY_ERRORS,
              'QUOTE_NOT_OPEN',
              'QUOTE_EXPIRED',
              ...IDEMPOTENCY_ERRORS,
            ]),
          },
        },
      },
      async (request, reply) =>
        answerIdempotently(request, reply, idempotency, async (trx) => {
          const result = await quotes.answer(scopeOf(request), request.params.id, answer, new Date(), trx);
          if (!result.ok) throw refusal(result, MESSAGES);
          return { status: 200, body: successBody(request, `Quote ${result.value.number} ${answer}.`, result.value) };
        }),
    );
  }

  app.post(
    '/quote/:id/invoice',
    {
      config: { access: { kind: 'key', permission: 'quote.update' }, optionalBody: true },
      schema: {
        summary: 'Make an accepted quote into an invoice, exactly once',
        description:
          "Issued (default) or a draft, with the quote's lines, terms and buyer; the invoice names the quote (quoteId) and carries its number as tenderReference (BT-17) in its e-invoices and on its PDF; its purchaseOrderReference (BT-13) is the buyer's order number, when given here or on the quote. " +
          'Of any number of calls, also racing ones, one makes the invoice; the others get 409 QUOTE_ALREADY_INVOICED naming it.',
        tags: ['Quotes'],
        params: QuoteIdParams,
        body: ConvertBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(QuoteInvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_ARCHIVED',
            'QUOTE_NOT_ACCEPTED',
            'QUOTE_ALREADY_INVOICED',
            'INVOICE_NUMBER_CONFLICT',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const options = readConvertOptions(request.body);
        const result = await quotes.invoice(scopeOf(request), request.params.id, options, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        const made = result.value.invoice.number === null ? 'Draft invoice' : `Invoice ${result.value.invoice.number}`;
        return {
          status: 201,
          body: successBody(request, `${made} made from quote ${result.value.quote.number}.`, result.value),
        };
      }),
  );
};
