import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { CreateCreditNoteBody, CreditNoteSchema } from '../schemas/credit-note.js';
import type { SettlementService } from '../services/settlement-service.js';
import { refusal } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';
import { scopeOf } from '../http/scope.js';

export interface CreditNoteRoutesOptions {
  settlement: SettlementService;
  idempotency: IdempotencyService;
}

/** POST /credit-note (the reads are in reading/credit-notes.ts). */
export const creditNoteRoutes: FastifyPluginAsyncTypebox<CreditNoteRoutesOptions> = async (
  app,
  { settlement, idempotency },
) => {
  app.post(
    '/credit-note',
    {
      config: { access: { kind: 'key', permission: 'credit-note.create' } },
      schema: {
        summary: 'Issue a credit note for an issued or paid invoice',
        description:
          'Numbered CN-YYYY-NNNNN from a gapless sequence of its own. Without lines, every line of the invoice is credited in full. The credit notes of an invoice never credit more than its payable amount (409 CREDIT_EXCEEDS_INVOICE), also when they race.',
        tags: ['Credit notes'],
        body: CreateCreditNoteBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(CreditNoteSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'INVOICE_NOT_FOUND',
            'INVOICE_NOT_CREDITABLE',
            'CREDIT_EXCEEDS_INVOICE',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await settlement.credit(scopeOf(request), request.body, new Date(), trx);
        if (!result.ok) throw refusal(result);
        return { status: 201, body: successBody(request, `Credit note ${result.value.number} issued.`, result.value) };
      }),
  );
};
