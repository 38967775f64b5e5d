import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors/app-error.js';
import { scopeOf } from '../../http/scope.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../../http/envelope.js';
import { INVOICE_STATUSES, InvoiceSchema } from '../../schemas/invoice.js';
import { InvoiceIdParams } from '../ids.js';
import { KEY_ERRORS, errorResponses } from '../schema-helpers.js';
import type { ConcurrencyGate } from '../../lib/concurrency-gate.js';
import type { InvoiceQueries } from './invoice-queries.js';
import { DEFAULT_LIMIT, NumberPrefixQuery, Page, PageQuery, coerceQuery, decodeCursor } from './pagination.js';

const ListInvoicesQuery = Type.Object(
  {
    ...PageQuery,
    organizationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only invoices to this buyer.' }),
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
        INVOICE_STATUSES.map((s) => Type.Literal(s)),
        { description: 'Only invoices in this status.' },
      ),
    ),
    overdue: Type.Optional(
      Type.Boolean({
        description:
          'true: only overdue invoices (issued, with an amount due, past their due date); false: none of those.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const invoiceReadingRoutes: FastifyPluginAsyncTypebox<{
  queries: InvoiceQueries;
  responseMaxBytes: number;
  largeReads: ConcurrencyGate;
}> = async (app, { queries, responseMaxBytes, largeReads }) => {
  app.get(
    '/invoice',
    {
      config: { access: { kind: 'key', permission: 'invoice.read' } },
      preValidation: coerceQuery(ListInvoicesQuery),
      schema: {
        summary: 'List invoices, newest first',
        tags: ['Invoices'],
        querystring: ListInvoicesQuery,
        response: { 200: SuccessEnvelope(Page(InvoiceSchema)), ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']) },
      },
    },
    async (request, reply) => {
      const {
        limit = DEFAULT_LIMIT,
        cursor,
        organizationId,
        number,
        issueDateFrom,
        issueDateTo,
        status,
        overdue,
      } = request.query;
      const page = await largeReads.run(() =>
        queries.list(
          scopeOf(request),
          { organizationId, number, issueDateFrom, issueDateTo, status, overdue },
          { limit, maxBytes: responseMaxBytes, ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }) },
        ),
      );
      // The page's items were serialized once while it was measured; they are sent as they are
      // (pre-serialized text, which the typed reply does not describe).
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Invoices listed.', page) as never);
    },
  );

  app.get(
    '/invoice/:id',
    {
      config: { access: { kind: 'key', permission: 'invoice.read' } },
      schema: {
        summary: 'Read one invoice: as it was issued, with its payments and credit notes (a draft as it is now)',
        description: 'An id of another company gets the same 404 as an id that does not exist.',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        response: { 200: SuccessEnvelope(InvoiceSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      // The invoice as the service reads it has its messages, hosted link and reminders already.
      const invoice = await largeReads.run(() => queries.findById(scopeOf(request), request.params.id));
      if (!invoice) throw new AppError('NOT_FOUND', 'No invoice with this id.');
      return successBody(request, 'Invoice found.', invoice);
    },
  );
};
