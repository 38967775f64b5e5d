import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ReminderService } from '../delivery/reminder-service.js';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { EMAIL_LANGUAGES } from '../schemas/email-delivery.js';
import {
  InvoiceRemindersSchema,
  PauseRemindersBody,
  ReminderPolicyBody,
  ReminderPolicySchema,
  ReminderPreviewSchema,
} from '../schemas/reminder.js';
import { InvoiceIdParams, refusal } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

// Reminders (docs/reminders.md): the company's policy (GET, PUT, and a preview of each level's
// message), and an invoice's reminders with its pause (POST …/reminders/pause and /resume).

export const reminderRoutes: FastifyPluginAsyncTypebox<{
  reminders: ReminderService;
  idempotency: IdempotencyService;
}> = async (app, { reminders, idempotency }) => {
  app.get(
    '/company/reminder-policy',
    {
      config: { access: { kind: 'key', permission: 'company.read' } },
      schema: {
        summary: "Read your company's reminder policy",
        description:
          'The levels at which open invoices with a billing email are reminded (days from the due date), each with its optional fee and interest and its template kind; the default (3 days before, on the due date, 7 and 14 days after) until the company sets its own.',
        tags: ['Company'],
        response: { 200: SuccessEnvelope(ReminderPolicySchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) =>
      successBody(request, 'Reminder policy found.', await reminders.getPolicy(request.auth!.companyId)),
  );

  app.put(
    '/company/reminder-policy',
    {
      config: { access: { kind: 'key', permission: 'company.update' } },
      schema: {
        summary: "Set your company's reminder policy",
        description:
          "Replaces the policy as a whole, with an entry in the company's audit list (as PATCH /company); the same policy again changes nothing. A fee or interest only on a level after the due date; the fees of all levels together at most 40.00; interest at most 20 % a year. Levels already reminded of an invoice are not reminded again. Only live keys change it (the policy is shared by live and test mode): a test key gets 403.",
        tags: ['Company'],
        body: ReminderPolicyBody,
        response: {
          200: SuccessEnvelope(ReminderPolicySchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS]),
        },
      },
    },
    async (request) => {
      const auth = request.auth!;
      if (!auth.livemode)
        throw new AppError(
          'FORBIDDEN',
          'A test key cannot change the reminder policy: it is shared by live and test mode. Use a live key.',
        );
      const result = await reminders.setPolicy(
        auth.companyId,
        request.body,
        { userId: null, label: `API key ${auth.keyPrefix}` },
        new Date(),
      );
      if (!result.ok) throw refusal(result);
      return successBody(request, 'Reminder policy set.', result.value);
    },
  );

  app.get(
    '/company/reminder-policy/preview',
    {
      config: { access: { kind: 'key', permission: 'company.read' } },
      schema: {
        summary: "Preview each reminder level's message for a sample invoice",
        description:
          "The subject and body each level would send for a sample invoice of 1190.00 due on 2026-03-31, with the company's own templates (reminder-<n>) where it set them.",
        tags: ['Company'],
        querystring: Type.Object(
          {
            language: Type.Optional(
              Type.Union(
                EMAIL_LANGUAGES.map((language) => Type.Literal(language)),
                { description: 'de, en (default) or fr.' },
              ),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: SuccessEnvelope(Type.Array(ReminderPreviewSchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request) =>
      successBody(
        request,
        'Reminder messages previewed.',
        await reminders.preview(request.auth!.companyId, request.query.language ?? 'en'),
      ),
  );

  app.get(
    '/invoice/:id/reminders',
    {
      config: { access: { kind: 'key', permission: 'invoice.read' } },
      schema: {
        summary: "Read an invoice's reminders and whether they are paused",
        tags: ['Invoices'],
        params: InvoiceIdParams,
        response: { 200: SuccessEnvelope(InvoiceRemindersSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const result = await reminders.status(scopeOf(request), request.params.id);
      if (!result.ok) throw refusal(result);
      return successBody(request, 'Reminders found.', result.value);
    },
  );

  for (const action of ['pause', 'resume'] as const) {
    app.post(
      `/invoice/:id/reminders/${action}`,
      {
        config: {
          access: { kind: 'key', permission: 'invoice.update' },
          ...(action === 'pause' ? { optionalBody: true } : {}),
        },
        schema: {
          summary:
            action === 'pause'
              ? "Pause an invoice's reminders (reason paused, or dispute)"
              : "Resume an invoice's reminders",
          description:
            action === 'pause'
              ? 'No reminder is sent while paused; the overdue event still is. Pausing again changes the reason or note. 409 for a draft.'
              : 'Reminders go on from the next pass: a level that came due while paused is sent then (only the latest of several). Resuming an invoice that is not paused changes nothing.',
          tags: ['Invoices'],
          params: InvoiceIdParams,
          ...(action === 'pause' ? { body: PauseRemindersBody } : {}),
          headers: IdempotencyHeaders,
          response: {
            200: SuccessEnvelope(InvoiceRemindersSchema),
            ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'INVOICE_NOT_ISSUED', ...IDEMPOTENCY_ERRORS]),
          },
        },
      },
      async (request, reply) =>
        answerIdempotently(request, reply, idempotency, async (trx) => {
          const body = action === 'pause' ? ((request.body as object | undefined) ?? {}) : null;
          const result = await reminders.setPause(scopeOf(request), request.params.id, body, new Date(), trx);
          if (!result.ok) throw refusal(result);
          return {
            status: 200,
            body: successBody(
              request,
              result.value.paused ? 'Reminders of the invoice are paused.' : 'Reminders of the invoice run.',
              result.value,
            ),
          };
        }),
    );
  }
};
