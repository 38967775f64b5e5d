import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Permission } from '../auth/permissions.js';
import type { EmailDeliveryService } from '../delivery/email-delivery-service.js';
import type { ReminderService } from '../delivery/reminder-service.js';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { Type } from '@sinclair/typebox';
import {
  EmailDeliverySchema,
  EmailTemplateBody,
  EmailTemplateParams,
  EmailTemplateSchema,
  SendDocumentBody,
} from '../schemas/email-delivery.js';
import type { DocumentKind } from '../services/document-service.js';
import { CreditNoteIdParams, InvoiceIdParams, refusal } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

// POST /invoice/{id}/send and POST /credit-note/{id}/send: the message is queued in the request's
// transaction and answered 202; the worker sends it (src/delivery, docs/delivery.md). And the
// company's templates of the messages: GET /company/email-templates, PUT and DELETE one.

export interface SendingRoutesOptions {
  emailDeliveries: EmailDeliveryService;
  reminders: ReminderService;
  idempotency: IdempotencyService;
}

const TARGETS: {
  kind: DocumentKind;
  path: string;
  params: typeof InvoiceIdParams;
  permission: Permission;
  tag: string;
  noun: string;
}[] = [
  {
    kind: 'invoice',
    path: '/invoice/:id/send',
    params: InvoiceIdParams,
    permission: 'invoice.send',
    tag: 'Invoices',
    noun: 'invoice',
  },
  {
    kind: 'credit-note',
    path: '/credit-note/:id/send',
    params: CreditNoteIdParams,
    permission: 'credit-note.send',
    tag: 'Credit notes',
    noun: 'credit note',
  },
];

export const documentSendingRoutes: FastifyPluginAsyncTypebox<SendingRoutesOptions> = async (
  app,
  { emailDeliveries, reminders, idempotency },
) => {
  for (const target of TARGETS) {
    app.post(
      target.path,
      {
        config: { access: { kind: 'key', permission: target.permission } },
        schema: {
          summary: `Send the ${target.noun} by email, with its PDF and e-invoice XML attached`,
          description: `Queues one message (202) to the buyer's email or the given recipients, with two attachments whose bytes are those of the API's downloads: the PDF (Factur-X, the CII inside) in the message's language, and the XML chosen by xmlFormat. A worker sends it through the operator's SMTP relay and retries on a schedule; GET ${target.path.replace('/send', '')} lists the messages (deliveries), and the events ${target.kind}.sent and ${target.kind}.send_failed tell how each ended. With an Idempotency-Key a retried request queues nothing more. 503 EMAIL_NOT_CONFIGURED when the operator has not set up SMTP.`,
          tags: [target.tag],
          params: target.params,
          body: SendDocumentBody,
          headers: IdempotencyHeaders,
          response: {
            202: SuccessEnvelope(EmailDeliverySchema),
            ...errorResponses([
              ...KEY_ERRORS,
              ...BODY_ERRORS,
              'INVOICE_NOT_ISSUED',
              'EINVOICE_INCOMPLETE',
              'EMAIL_NOT_CONFIGURED',
              'SERVICE_UNAVAILABLE',
              ...IDEMPOTENCY_ERRORS,
            ]),
          },
        },
      },
      async (request, reply) =>
        answerIdempotently(request, reply, idempotency, async (trx) => {
          const result = await emailDeliveries.queue(
            scopeOf(request),
            target.kind,
            request.params.id,
            request.body ?? {},
            new Date(),
            trx,
          );
          if (!result.ok) {
            if (result.code === 'SERVICE_UNAVAILABLE')
              throw new AppError('SERVICE_UNAVAILABLE', result.message, {
                headers: { 'retry-after': String(result.retryAfterSeconds ?? 1) },
              });
            throw refusal(result);
          }
          return {
            status: 202,
            body: successBody(
              request,
              `The ${target.noun} is queued to be sent to ${result.value.to.join(', ')}.`,
              result.value,
            ),
          };
        }),
    );
  }

  const liveOnly = (request: { auth?: { livemode: boolean } | null }) => {
    if (!request.auth?.livemode)
      throw new AppError(
        'FORBIDDEN',
        'A test key cannot change the email templates: they are shared by live and test mode. Use a live key.',
      );
  };

  app.get(
    '/company/email-templates',
    {
      config: { access: { kind: 'key', permission: 'company.read' } },
      schema: {
        summary: 'Read the subject and body of the messages that send documents, per kind and language',
        description:
          "Six templates (invoice and credit-note, each in de, en and fr): the company's own where it set one (custom: true), else the default. The reminder levels' templates (reminder-<n>) are set and reset with PUT and DELETE; GET /company/reminder-policy/preview shows them filled in.",
        tags: ['Company'],
        response: { 200: SuccessEnvelope(Type.Array(EmailTemplateSchema)), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) =>
      successBody(request, 'Email templates listed.', await emailDeliveries.listTemplates(request.auth!.companyId)),
  );

  app.put(
    '/company/email-templates/:kind/:language',
    {
      config: { access: { kind: 'key', permission: 'company.update' } },
      schema: {
        summary: 'Set the subject and body of the messages of one document kind and language',
        description:
          'Messages queued from then on use it; queued ones keep theirs. Only live keys change it (templates are shared by live and test mode): a test key gets 403.',
        tags: ['Company'],
        params: EmailTemplateParams,
        body: EmailTemplateBody,
        response: { 200: SuccessEnvelope(EmailTemplateSchema), ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request) => {
      liveOnly(request);
      const result = await emailDeliveries.setTemplate(
        request.auth!.companyId,
        request.params.kind,
        request.params.language,
        request.body,
        new Date(),
      );
      if (!result.ok) throw refusal(result);
      return successBody(request, 'Email template set.', result.value);
    },
  );

  app.delete(
    '/company/email-templates/:kind/:language',
    {
      config: { access: { kind: 'key', permission: 'company.update' } },
      schema: {
        summary: "Drop the company's own template of one document kind and language: the default applies again",
        tags: ['Company'],
        params: EmailTemplateParams,
        response: { 200: SuccessEnvelope(EmailTemplateSchema), ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request) => {
      liveOnly(request);
      const { kind, language } = request.params;
      const companyId = request.auth!.companyId;
      const reminderDefault = kind.startsWith('reminder-')
        ? await reminders.defaultTemplateOf(companyId, kind, language)
        : undefined;
      return successBody(
        request,
        'Email template reset to the default.',
        await emailDeliveries.resetTemplate(companyId, kind, language, reminderDefault),
      );
    },
  );
};
