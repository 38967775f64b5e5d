import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { validationError, type ErrorDetail } from '../errors/app-error.js';
import { DocumentedAs } from '../schemas/documented-as.js';
import {
  CreateInvoiceBody,
  EINVOICE_PROFILES,
  InvoiceSchema,
  UpdateInvoiceBody,
  ValidateForInput,
} from '../schemas/invoice.js';
import type { EinvoiceTarget, InvoiceService } from '../services/invoice-service.js';
import { InvoiceIdParams, refusal } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';
import { scopeOf } from '../http/scope.js';

export interface InvoiceRoutesOptions {
  invoices: InvoiceService;
  idempotency: IdempotencyService;
}

const NO_INVOICE = 'No invoice with this id.';
const NOT_ISSUABLE = (what: string) =>
  `${what} would lack what the e-invoices named in validateFor need, so it was not issued and took no number: each detail names the field to set and the rule it would break.`;

/**
 * Finalize may be sent without a body. The validator lets any body through (the document shows its
 * one form) and readFinalizeOptions checks it, with the validator's field details.
 */
const FinalizeBody = DocumentedAs(
  Type.Unsafe<unknown>({}),
  Type.Object(
    { validateFor: Type.Optional(ValidateForInput) },
    { title: 'FinalizeInput', additionalProperties: false },
  ),
);

function readFinalizeOptions(body: unknown): { validateFor?: EinvoiceTarget[] } {
  if (body === undefined || body === null) return {};
  const problems: ErrorDetail[] = [];
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ field: 'body', code: 'invalid_type', message: 'Must be an object (or nothing).' }]);
  }
  for (const name of Object.keys(body)) {
    if (name !== 'validateFor')
      problems.push({ field: name, code: 'unknown_field', message: 'This field is not allowed.' });
  }
  const validateFor = (body as { validateFor?: unknown }).validateFor;
  if (
    validateFor !== undefined &&
    (!Array.isArray(validateFor) ||
      validateFor.length > 3 ||
      !validateFor.every((v) => (EINVOICE_PROFILES as readonly unknown[]).includes(v)))
  ) {
    problems.push({
      field: 'validateFor',
      code: 'invalid_enum',
      message: `Must be a list of ${EINVOICE_PROFILES.join(', ')}.`,
    });
  }
  if (problems.length > 0) throw validationError(problems);
  return validateFor === undefined ? {} : { validateFor: validateFor as EinvoiceTarget[] };
}

const DeletedSchema = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { title: 'DeletedInvoice', description: 'The draft is gone; drafts never had a number, so no number is lost.' },
);

/** POST /invoice, and a draft's life: PATCH, DELETE and finalize. */
export const invoiceRoutes: FastifyPluginAsyncTypebox<InvoiceRoutesOptions> = async (
  app,
  { invoices, idempotency },
) => {
  app.post(
    '/invoice',
    {
      config: { access: { kind: 'key', permission: 'invoice.create' } },
      schema: {
        summary: 'Create a sales invoice: issued at once, or a draft with status "draft"',
        tags: ['Invoices'],
        body: CreateInvoiceBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'ORGANIZATION_ARCHIVED',
            'INVOICE_NUMBER_CONFLICT',
            'EINVOICE_INCOMPLETE',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await invoices.create(scopeOf(request), request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, { EINVOICE_INCOMPLETE: NOT_ISSUABLE('The invoice') });
        const message =
          result.value.status === 'draft' ? 'Draft invoice created.' : `Invoice ${result.value.number} created.`;
        return { status: 201, body: successBody(request, message, result.value) };
      }),
  );

  app.patch(
    '/invoice/:id',
    {
      config: { access: { kind: 'key', permission: 'invoice.update' } },
      schema: {
        summary: 'Edit a draft',
        description:
          'Any field of the create body; `lines`, when sent, replace all lines. Only drafts can be edited: 409 INVOICE_NOT_DRAFT otherwise.',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        body: UpdateInvoiceBody,
        response: {
          200: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'ORGANIZATION_ARCHIVED',
            'INVOICE_NOT_DRAFT',
          ]),
        },
      },
    },
    async (request) => {
      const result = await invoices.update(scopeOf(request), request.params.id, request.body);
      if (!result.ok) {
        throw refusal(result, {
          NOT_FOUND: NO_INVOICE,
          INVOICE_NOT_DRAFT:
            'The invoice is not a draft: an issued invoice is never edited; correct it with a credit note.',
        });
      }
      return successBody(request, 'Draft invoice updated.', result.value);
    },
  );

  app.delete(
    '/invoice/:id',
    {
      config: { access: { kind: 'key', permission: 'invoice.delete' } },
      schema: {
        summary: 'Delete a draft',
        description:
          'Only drafts can be deleted: 409 INVOICE_NOT_DRAFT otherwise (an issued invoice is corrected with a credit note or voided).',
        tags: ['Invoices'],
        params: InvoiceIdParams,
        response: {
          200: SuccessEnvelope(DeletedSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'INVOICE_NOT_DRAFT']),
        },
      },
    },
    async (request) => {
      const result = await invoices.delete(scopeOf(request), request.params.id);
      if (!result.ok) {
        throw refusal(result, {
          NOT_FOUND: NO_INVOICE,
          INVOICE_NOT_DRAFT:
            'The invoice is not a draft: an issued invoice is never deleted; correct it with a credit note, or void it.',
        });
      }
      return successBody(request, 'Draft invoice deleted.', { id: request.params.id, deleted: true as const });
    },
  );

  app.post(
    '/invoice/:id/finalize',
    {
      config: { access: { kind: 'key', permission: 'invoice.update' }, optionalBody: true },
      schema: {
        summary: 'Issue a draft: it gets its number, issue date and snapshots',
        description:
          "Assigns the next number of the company's sequence (or the draft's own number: 409 INVOICE_NUMBER_CONFLICT when it is taken by then), sets issueDate to today when the draft had none, and takes the buyer and seller snapshots. Of concurrent finalizes of one draft exactly one succeeds.",
        tags: ['Invoices'],
        params: InvoiceIdParams,
        body: FinalizeBody,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(InvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'EINVOICE_INCOMPLETE',
            'ORGANIZATION_ARCHIVED',
            'INVOICE_NOT_DRAFT',
            'INVOICE_NUMBER_CONFLICT',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const options = readFinalizeOptions(request.body);
        const result = await invoices.finalize(scopeOf(request), request.params.id, new Date(), trx, options);
        if (!result.ok) {
          throw refusal(result, {
            NOT_FOUND: NO_INVOICE,
            INVOICE_NOT_DRAFT: 'The invoice is not a draft: it was issued already.',
            EINVOICE_INCOMPLETE: NOT_ISSUABLE('The draft'),
          });
        }
        return { status: 200, body: successBody(request, `Invoice ${result.value.number} issued.`, result.value) };
      }),
  );
};
