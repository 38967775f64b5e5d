import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../http/envelope.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import type { RecurringService } from '../recurring/recurring-service.js';
import {
  CreateRecurringInvoiceBody,
  RECURRING_STATUSES,
  RecurringInvoiceSchema,
  UpdateRecurringInvoiceBody,
} from '../schemas/recurring-invoice.js';
import { RecurringInvoiceIdParams, refusal, type RefusalMessages } from './ids.js';
import {
  DEFAULT_LIMIT,
  Page,
  PageBudget,
  PageQuery,
  coerceQuery,
  cursorAfter,
  decodeCursor,
} from './reading/pagination.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

// Recurring invoices (src/recurring, docs/recurring.md): a template and a schedule; the
// scheduler makes each period's invoice. Every route needs recurring-invoice.manage.

export interface RecurringInvoiceRoutesOptions {
  recurring: RecurringService;
  idempotency: IdempotencyService;
  /** RESPONSE_MAX_BYTES: a list page ends before the item that would make the answer larger. */
  responseMaxBytes: number;
}

const NO_RECURRING = 'No recurring invoice with this id.';
const MESSAGES: RefusalMessages = { NOT_FOUND: NO_RECURRING };
const ACCESS = { access: { kind: 'key' as const, permission: 'recurring-invoice.manage' as const } };
const TAGS = ['Recurring invoices'];

const ListQuery = Type.Object(
  {
    ...PageQuery,
    organizationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only recurring invoices to this buyer.' }),
    ),
    status: Type.Optional(
      Type.Union(
        RECURRING_STATUSES.map((s) => Type.Literal(s)),
        { description: 'Only recurring invoices in this status.' },
      ),
    ),
  },
  { additionalProperties: false },
);

export const recurringInvoiceRoutes: FastifyPluginAsyncTypebox<RecurringInvoiceRoutesOptions> = async (
  app,
  { recurring, idempotency, responseMaxBytes },
) => {
  app.post(
    '/recurring-invoice',
    {
      config: ACCESS,
      schema: {
        summary: 'Create a recurring invoice: a template and a schedule',
        description:
          "The template is what POST /invoice takes, checked the same way; the schedule says when each run makes an invoice (issued or a draft, sent by email or not) and which invoice period (BG-14) it covers. The first run is the first occurrence on or after today in the schedule's time zone.",
        tags: TAGS,
        body: CreateRecurringInvoiceBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(RecurringInvoiceSchema),
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
        const result = await recurring.create(scopeOf(request), request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        return { status: 201, body: successBody(request, 'Recurring invoice created.', result.value) };
      }),
  );

  app.get(
    '/recurring-invoice',
    {
      config: ACCESS,
      preValidation: coerceQuery(ListQuery),
      schema: {
        summary: 'List recurring invoices, newest first, each with its last run',
        tags: TAGS,
        querystring: ListQuery,
        response: {
          200: SuccessEnvelope(Page(RecurringInvoiceSchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor, ...filter } = request.query;
      const { rows, items } = await recurring.list(scopeOf(request), filter, {
        limit,
        ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }),
      });
      const budget = new PageBudget<(typeof items)[number]>(responseMaxBytes);
      for (const item of items) if (!budget.offer(item)) break;
      const page = { itemsJson: budget.itemsJson, nextCursor: cursorAfter(rows, budget.count, limit) };
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Recurring invoices listed.', page) as never);
    },
  );

  app.get(
    '/recurring-invoice/:id',
    {
      config: ACCESS,
      schema: {
        summary: 'Read one recurring invoice with its runs and the invoice each made',
        description: 'An id of another company gets the same 404 as an id that does not exist.',
        tags: TAGS,
        params: RecurringInvoiceIdParams,
        response: { 200: SuccessEnvelope(RecurringInvoiceSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const found = await recurring.get(scopeOf(request), request.params.id);
      if (!found) throw new AppError('NOT_FOUND', NO_RECURRING);
      return successBody(request, 'Recurring invoice found.', found);
    },
  );

  app.patch(
    '/recurring-invoice/:id',
    {
      config: ACCESS,
      schema: {
        summary: 'Change a recurring invoice from its next run on',
        description:
          'A new template (whole), the end date or count, missed periods, invoice period, invoice status or sending. The cadence (interval, every, anchor, time zone) stays. An end date or count already reached ends it. 409 RECURRING_INVOICE_ENDED once ended.',
        tags: TAGS,
        params: RecurringInvoiceIdParams,
        body: UpdateRecurringInvoiceBody,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(RecurringInvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'ORGANIZATION_NOT_FOUND',
            'ORGANIZATION_ARCHIVED',
            'RECURRING_INVOICE_ENDED',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await recurring.update(scopeOf(request), request.params.id, request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, MESSAGES);
        return { status: 200, body: successBody(request, 'Recurring invoice changed.', result.value) };
      }),
  );

  const ACTIONS = {
    pause: {
      summary: 'Pause a recurring invoice: no run until it is resumed',
      message: 'Recurring invoice paused.',
    },
    resume: {
      summary: 'Resume a paused recurring invoice: periods that passed while paused are not invoiced',
      message: 'Recurring invoice resumed.',
    },
    end: {
      summary: 'End a recurring invoice: it runs no more (the invoices it made stay)',
      message: 'Recurring invoice ended.',
    },
  } as const;
  for (const action of ['pause', 'resume', 'end'] as const) {
    app.post(
      `/recurring-invoice/:id/${action}`,
      {
        config: ACCESS,
        schema: {
          summary: ACTIONS[action].summary,
          description:
            'Pausing a paused one or resuming an active one changes nothing; 409 RECURRING_INVOICE_ENDED once ended.',
          tags: TAGS,
          params: RecurringInvoiceIdParams,
          headers: IdempotencyHeaders,
          response: {
            200: SuccessEnvelope(RecurringInvoiceSchema),
            ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'RECURRING_INVOICE_ENDED', ...IDEMPOTENCY_ERRORS]),
          },
        },
      },
      async (request, reply) =>
        answerIdempotently(request, reply, idempotency, async (trx) => {
          const result = await recurring.setState(scopeOf(request), request.params.id, action, new Date(), trx);
          if (!result.ok) throw refusal(result, MESSAGES);
          return { status: 200, body: successBody(request, ACTIONS[action].message, result.value) };
        }),
    );
  }
};
