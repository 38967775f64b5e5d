import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { CreatePaymentBody, CreateRefundBody, InvoiceSchema } from '../schemas/invoice.js';
import type { PaymentService } from '../services/payment-service.js';
import type { SettlementService } from '../services/settlement-service.js';
import { InvoiceIdParams, refusal } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';
import { scopeOf } from '../http/scope.js';

export interface SettlementRoutesOptions {
  settlement: SettlementService;
  payments: PaymentService;
  idempotency: IdempotencyService;
}

const NO_INVOICE = 'No invoice with this id.';

/** POST /invoice/{id}/payment, /refund and /void. */
export const invoiceSettlementRoutes: FastifyPluginAsyncTypebox<SettlementRoutesOptions> = async (
  app,
  { settlement, payments, idempotency },
) => {
  app.post(
    '/invoice/:id/payment',
    {
      config: { access: { kind: 'key', permission: 'payment.create' } },
      schema: {
        summary: 'Record a payment of an invoice',
        description:
          'The invoice becomes paid when the amount due reaches zero. A payment larger than the amount due is refused (409 PAYMENT_EXCEEDS_AMOUNT_DUE, whose detail names the amount due in `maximum`), also when payments race.',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        body: CreatePaymentBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'INVOICE_NOT_PAYABLE',
            'PAYMENT_EXCEEDS_AMOUNT_DUE',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await payments.pay(scopeOf(request), request.params.id, request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, NO_INVOICE);
        return {
          status: 201,
          body: successBody(request, `Payment recorded on invoice ${result.value.number}.`, result.value),
        };
      }),
  );

  app.post(
    '/invoice/:id/refund',
    {
      config: { access: { kind: 'key', permission: 'payment.create' } },
      schema: {
        summary: 'Record a refund: money paid back to the buyer',
        description:
          'When credit notes leave a paid invoice owing the buyer (amountDue below zero), a refund records the money paid back, up to what is owed: amountDue reaches 0 and the invoice lists it under refunds (event invoice.refunded). More than is owed is refused (409 REFUND_EXCEEDS_AMOUNT_OWED, whose detail names what is owed in `maximum`), also when refunds race; a draft or void invoice takes none (409 INVOICE_NOT_REFUNDABLE).',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        body: CreateRefundBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'INVOICE_NOT_REFUNDABLE',
            'REFUND_EXCEEDS_AMOUNT_OWED',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await payments.refund(scopeOf(request), request.params.id, request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, NO_INVOICE);
        return {
          status: 201,
          body: successBody(request, `Refund recorded on invoice ${result.value.number}.`, result.value),
        };
      }),
  );

  app.post(
    '/invoice/:id/void',
    {
      config: { access: { kind: 'key', permission: 'invoice.update' } },
      schema: {
        summary: 'Void an issued invoice with a credit note for the remaining amount',
        description:
          'For an issued invoice without payments: a credit note for the whole remaining amount is issued and the invoice set void, in one transaction. With payments: 409 INVOICE_HAS_PAYMENTS (issue a credit note and refund instead).',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'INVOICE_NOT_ISSUED',
            'INVOICE_ALREADY_VOID',
            'INVOICE_HAS_PAYMENTS',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await settlement.void(scopeOf(request), request.params.id, new Date(), trx);
        if (!result.ok)
          throw refusal(result, {
            NOT_FOUND: NO_INVOICE,
            INVOICE_NOT_ISSUED: 'The invoice is a draft: delete it instead of voiding it.',
          });
        return { status: 200, body: successBody(request, `Invoice ${result.value.number} voided.`, result.value) };
      }),
  );
};
