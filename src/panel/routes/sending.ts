import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { languageFor } from '../../delivery/templates.js';
import { AppError } from '../../errors/app-error.js';
import { ERRORS } from '../../errors/codes.js';
import { requestDigest } from '../../idempotency/canonical-json.js';
import type { QueueResult } from '../../delivery/email-delivery-service.js';
import type { DocumentKind } from '../../services/document-service.js';
import { chromeFor, forbidden, notFound, openAccess, sendPage, signedInUser, type PanelDeps } from '../context.js';
import { panelOwner, panelScope } from '../mode.js';
import { newSendFormValues, readSendForm, sendFormErrors } from '../send-form.js';
import { roleAllows } from '../users.js';
import { creditNotePage } from '../views/credit-notes.js';
import type { SendFormValues, SendingModel } from '../views/deliveries.js';
import type { FieldErrors } from '../views/forms.js';
import { invoicePage, type ReminderState } from '../views/invoice.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';

// An invoice's and a credit note's page with its messages, and its Send form: the same service
// as POST /invoice/{id}/send (the same checks and words), under the same idempotency records,
// keyed by a token each form carries, so a form sent twice (a double click, a reload) queues one
// message. Owners and admins send (the role allows invoice.send / credit-note.send); every role
// sees what was sent.

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const PageQuery = Type.Object({ sent: Type.Optional(Type.String({ maxLength: 100 })) });
const SendBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    to: Type.Optional(Type.String({ maxLength: 3000 })),
    cc: Type.Optional(Type.String({ maxLength: 3000 })),
    language: Type.Optional(Type.String({ maxLength: 10 })),
    xmlFormat: Type.Optional(Type.String({ maxLength: 20 })),
    idempotencyKey: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { additionalProperties: false },
);

const KINDS = {
  invoice: { path: 'invoices', permission: 'invoice.send', noun: 'invoice' },
  'credit-note': { path: 'credit-notes', permission: 'credit-note.send', noun: 'credit note' },
} as const;

export interface ShownForm {
  values: SendFormValues;
  errors?: FieldErrors;
}

/** The page of one invoice or credit note, with its messages and (for who may send) the Send form. */
export async function showDocument(
  deps: PanelDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: DocumentKind,
  id: string,
  options: { form?: ShownForm; notice?: Notice } = {},
  status = 200,
): Promise<FastifyReply> {
  const owner = panelOwner(request);
  const user = signedInUser(request);
  const invoice = kind === 'invoice' ? await deps.records.invoice(owner, id) : undefined;
  const creditNote = kind === 'credit-note' ? await deps.records.creditNote(owner, id) : undefined;
  if (!invoice && !creditNote) throw notFound();
  const draft = invoice?.status === 'draft';
  const deliveries = invoice
    ? (invoice.deliveries ?? [])
    : await deps.container.emailDeliveries.listForDocument(owner, id);
  const sent = (request.query as { sent?: string }).sent;
  const queued = sent ? deliveries.find((d) => d.id === sent) : undefined;
  const sending: SendingModel = {
    deliveries,
    ...(options.notice
      ? { notice: options.notice }
      : queued
        ? {
            notice: {
              kind: 'success',
              text: `The message to ${queued.to.join(', ')} is queued: it is listed below, and its state changes when the relay takes it (reload the page).`,
            },
          }
        : {}),
  };
  if (draft) sending.noForm = 'A draft is not sent: issue it first (through the API).';
  else if (!roleAllows(user.role, KINDS[kind].permission))
    sending.noForm = `Your role (${user.role}) sees what was sent; owners and admins send.`;
  else {
    const facts = await deps.container.documents.sendingFacts(kind, owner, id, new Date());
    sending.form = {
      action: `${PANEL_PATH}/${KINDS[kind].path}/${id}/send`,
      configured: deps.container.emailDeliveries.configured,
      defaultLanguage: languageFor(facts?.buyerCountry ?? null),
      values: options.form?.values ?? newSendFormValues(facts?.buyerEmail ?? null),
      ...(options.form?.errors ? { errors: options.form.errors } : {}),
    };
  }
  const chrome = await chromeFor(request, reply, deps);
  const reminderState = invoice && !draft ? await reminderStateOf(deps, owner, invoice.id, user) : undefined;
  const page = invoice
    ? invoicePage(chrome, invoice, await deps.records.creditNotesOf(owner, invoice.id), sending, reminderState)
    : creditNotePage(chrome, creditNote!, sending);
  return sendPage(reply, page, status);
}

/** Whether an issued invoice's reminders are paused, and whether the user's role may change that. */
async function reminderStateOf(
  deps: PanelDeps,
  owner: ReturnType<typeof panelOwner>,
  id: string,
  user: ReturnType<typeof signedInUser>,
): Promise<ReminderState | undefined> {
  const found = await deps.container.reminders.status(owner, id);
  if (!found.ok) return undefined;
  const { paused, pauseReason, pauseNote } = found.value;
  return { paused, pauseReason, pauseNote, mayChange: roleAllows(user.role, 'invoice.update') };
}

export function sendingRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    for (const kind of ['invoice', 'credit-note'] as const) {
      const { path, permission, noun } = KINDS[kind];
      app.get(
        `/${path}/:id`,
        { config: openAccess(), schema: { params: IdParams, querystring: PageQuery } },
        async (request, reply) => showDocument(deps, request, reply, kind, request.params.id),
      );

      app.post(
        `/${path}/:id/send`,
        { config: openAccess(), schema: { params: IdParams, body: SendBody }, preHandler: scope.csrfProtection },
        async (request, reply) => {
          const user = signedInUser(request);
          if (!roleAllows(user.role, permission))
            throw forbidden(`Your role does not allow this. Owners and admins send ${noun}s.`);
          const id = request.params.id;
          const values: SendFormValues = {
            to: request.body.to ?? '',
            cc: request.body.cc ?? '',
            language: request.body.language ?? '',
            xmlFormat: request.body.xmlFormat ?? 'cii',
            idempotencyKey: request.body.idempotencyKey,
          };
          // A form that comes back carries a new token: what it sends next is another request.
          const again = (errors: FieldErrors) =>
            showDocument(
              deps,
              request,
              reply,
              kind,
              id,
              { form: { values: { ...values, idempotencyKey: newSendFormValues(null).idempotencyKey }, errors } },
              400,
            );
          const read = readSendForm(values);
          if (!read.ok) return again(read.errors);

          const sendScope = panelScope(request);
          const outcome = await deps.container.idempotency.run(
            {
              companyId: sendScope.companyId,
              livemode: sendScope.livemode,
              key: `panel-send:${values.idempotencyKey}`,
              digest: requestDigest(`POST /panel/${path}/:id/send`, { id, input: read.input }),
            },
            async (trx) => {
              const result = await deps.container.emailDeliveries.queue(
                sendScope,
                kind,
                id,
                read.input,
                new Date(),
                trx,
              );
              if (result.ok) return { status: 202, body: { deliveryId: result.value.id } };
              return { status: ERRORS[result.code].status, code: result.code, body: result };
            },
          );
          if (outcome.kind === 'in-progress')
            throw new AppError(
              'IDEMPOTENCY_CONFLICT',
              'This form is being sent already. Reload the page in a moment.',
              {
                headers: { 'retry-after': String(outcome.retryAfterSeconds) },
              },
            );
          if (outcome.kind === 'key-reused')
            throw new AppError(
              'IDEMPOTENCY_KEY_REUSED',
              'This form was sent before with other values. Reload the page and fill it in again.',
            );
          const answer = outcome.answer;
          if (answer.status === 202) {
            const { deliveryId } = answer.body as { deliveryId: string };
            request.log.info({ companyId: user.companyId, deliveryId }, `${noun} queued to be sent from the panel`);
            return reply.redirect(`${PANEL_PATH}/${path}/${id}?sent=${encodeURIComponent(deliveryId)}`, 303);
          }
          const refusal = answer.body as Extract<QueueResult, { ok: false }>;
          switch (refusal.code) {
            case 'NOT_FOUND':
              throw notFound();
            case 'VALIDATION_ERROR':
              return again(sendFormErrors(refusal.details, 'to'));
            case 'EINVOICE_INCOMPLETE':
              return again(
                sendFormErrors(
                  (refusal.details ?? []).map((d) => ({
                    ...d,
                    field: 'xmlFormat',
                    message: `Cannot be made from this ${noun}: ${d.field} — ${d.message}`,
                  })),
                  'xmlFormat',
                ),
              );
            default:
              throw new AppError(
                refusal.code,
                refusal.message,
                refusal.retryAfterSeconds ? { headers: { 'retry-after': String(refusal.retryAfterSeconds) } } : {},
              );
          }
        },
      );
    }
  };
}
