import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, validationError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import type { InvoiceService } from '../services/invoice-service.js';
import { CreateInvoiceBody, InvoiceSchema } from '../schemas/invoice.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

export interface InvoiceRoutesOptions {
  invoices: InvoiceService;
  idempotency: IdempotencyService;
}

export const invoiceRoutes: FastifyPluginAsyncTypebox<InvoiceRoutesOptions> = async (app, { invoices, idempotency }) => {
  app.post(
    '/invoice',
    {
      config: { access: { kind: 'key', permission: 'invoice.create' } },
      schema: {
        summary: 'Create (issue) a sales invoice',
        tags: ['Invoices'],
        body: CreateInvoiceBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'ORGANIZATION_NOT_FOUND', 'INVOICE_NUMBER_CONFLICT', ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await invoices.create(request.auth!.companyId, request.body, new Date(), trx);
        if (!result.ok) throw result.code === 'VALIDATION_ERROR' ? validationError(result.details) : new AppError(result.code);
        return { status: 201, body: successBody(request, `Invoice ${result.value.number} created.`, result.value) };
      }),
  );
};
