import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors/app-error.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../../http/envelope.js';
import { scopeOf } from '../../http/scope.js';
import { PAYMENT_KINDS, PaymentRecordSchema } from '../../schemas/invoice.js';
import { PaymentIdParams } from '../ids.js';
import { KEY_ERRORS, errorResponses } from '../schema-helpers.js';
import type { PaymentQueries } from './payment-queries.js';
import { DEFAULT_LIMIT, Page, PageQuery, coerceQuery, decodeCursor } from './pagination.js';

const ListPaymentsQuery = Type.Object(
  {
    ...PageQuery,
    invoiceId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only the payments and refunds of this invoice.' }),
    ),
    kind: Type.Optional(
      Type.Union(
        PAYMENT_KINDS.map((k) => Type.Literal(k)),
        { description: 'Only payments (money received) or only refunds (money paid back).' },
      ),
    ),
    dateFrom: Type.Optional(
      Type.String({
        format: 'date',
        description: 'Only those whose date (the day the money moved) is on or after this day (YYYY-MM-DD).',
      }),
    ),
    dateTo: Type.Optional(
      Type.String({ format: 'date', description: 'Only those whose date is on or before this day (YYYY-MM-DD).' }),
    ),
  },
  { additionalProperties: false },
);

/** GET /payment and GET /payment/{id}: payments and refunds across invoices. */
export const paymentReadingRoutes: FastifyPluginAsyncTypebox<{
  queries: PaymentQueries;
  responseMaxBytes: number;
}> = async (app, { queries, responseMaxBytes }) => {
  app.get(
    '/payment',
    {
      config: { access: { kind: 'key', permission: 'payment.read' } },
      preValidation: coerceQuery(ListPaymentsQuery),
      schema: {
        summary: 'List payments and refunds, newest first',
        description:
          'Newest first by when they were recorded; `dateFrom` and `dateTo` filter on the day the money moved.',
        tags: ['Payments'],
        querystring: ListPaymentsQuery,
        response: {
          200: SuccessEnvelope(Page(PaymentRecordSchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor, invoiceId, kind, dateFrom, dateTo } = request.query;
      const page = await queries.list(
        scopeOf(request),
        { invoiceId, kind, dateFrom, dateTo },
        { limit, maxBytes: responseMaxBytes, ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }) },
      );
      // The page's items were serialized once while it was measured; they are sent as they are.
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Payments listed.', page) as never);
    },
  );

  app.get(
    '/payment/:id',
    {
      config: { access: { kind: 'key', permission: 'payment.read' } },
      schema: {
        summary: 'Read one payment or refund',
        description: 'An id of another company gets the same 404 as an id that does not exist.',
        tags: ['Payments'],
        params: PaymentIdParams,
        response: { 200: SuccessEnvelope(PaymentRecordSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const payment = await queries.findById(scopeOf(request), request.params.id);
      if (!payment) throw new AppError('NOT_FOUND', 'No payment or refund with this id.');
      return successBody(request, payment.kind === 'refund' ? 'Refund found.' : 'Payment found.', payment);
    },
  );
};
