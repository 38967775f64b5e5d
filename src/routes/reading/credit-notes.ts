import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors/app-error.js';
import { scopeOf } from '../../http/scope.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../../http/envelope.js';
import type { ConcurrencyGate } from '../../lib/concurrency-gate.js';
import { CreditNoteSchema } from '../../schemas/credit-note.js';
import { CreditNoteIdParams } from '../ids.js';
import { KEY_ERRORS, errorResponses } from '../schema-helpers.js';
import type { CreditNoteQueries } from './credit-note-queries.js';
import { DEFAULT_LIMIT, NumberPrefixQuery, Page, PageQuery, coerceQuery, decodeCursor } from './pagination.js';

const ListCreditNotesQuery = Type.Object(
  {
    ...PageQuery,
    invoiceId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only the credit notes of this invoice.' }),
    ),
    number: NumberPrefixQuery,
  },
  { additionalProperties: false },
);

export const creditNoteReadingRoutes: FastifyPluginAsyncTypebox<{
  queries: CreditNoteQueries;
  responseMaxBytes: number;
  largeReads: ConcurrencyGate;
}> = async (app, { queries, responseMaxBytes, largeReads }) => {
  app.get(
    '/credit-note',
    {
      config: { access: { kind: 'key', permission: 'credit-note.read' } },
      preValidation: coerceQuery(ListCreditNotesQuery),
      schema: {
        summary: 'List credit notes, newest first',
        tags: ['Credit notes'],
        querystring: ListCreditNotesQuery,
        response: {
          200: SuccessEnvelope(Page(CreditNoteSchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor, invoiceId, number } = request.query;
      const page = await largeReads.run(() =>
        queries.list(
          scopeOf(request),
          { invoiceId, number },
          { limit, maxBytes: responseMaxBytes, ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }) },
        ),
      );
      // The page's items were serialized once while it was measured; they are sent as they are
      // (pre-serialized text, which the typed reply does not describe).
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Credit notes listed.', page) as never);
    },
  );

  app.get(
    '/credit-note/:id',
    {
      config: { access: { kind: 'key', permission: 'credit-note.read' } },
      schema: {
        summary: 'Read one credit note',
        description: 'An id of another company gets the same 404 as an id that does not exist.',
        tags: ['Credit notes'],
        params: CreditNoteIdParams,
        response: { 200: SuccessEnvelope(CreditNoteSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const creditNote = await largeReads.run(() => queries.findById(scopeOf(request), request.params.id));
      if (!creditNote) throw new AppError('NOT_FOUND', 'No credit note with this id.');
      return successBody(request, 'Credit note found.', creditNote);
    },
  );
};
