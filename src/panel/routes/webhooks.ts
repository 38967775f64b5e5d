import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isEventType, type EventType } from '../../schemas/event-types.js';
import type { Scope } from '../../db/scope.js';
import { ERRORS } from '../../errors/codes.js';
import { panelScope } from '../mode.js';
import { endpointFromRow, MAX_ENDPOINTS } from '../../webhooks/endpoint-service.js';
import { WebhookAttemptLog } from '../webhook-attempts.js';
import { restoredValues, RESTORED_NOTICE } from '../return-to.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import { deleteConfirmPage, webhookEndpointPage } from '../views/webhook-endpoint.js';
import { rotateConfirmPage, secretPage } from '../views/webhook-secret.js';
import { ALL_EVENTS, endpointPath, webhooksPage, type CreateEndpointValues } from '../views/webhooks.js';
import {
  asList,
  chromeFor,
  notFound,
  openAccess,
  requirePrivileged,
  sendPage,
  signedInUser,
  type PanelDeps,
} from '../context.js';
import { MAX_WEBHOOK_DESCRIPTION_LENGTH } from '../../schemas/webhook-endpoint.js';

// Bounds above the API's own (MAX_WEBHOOK_URL_LENGTH, MAX_WEBHOOK_DESCRIPTION_LENGTH), so that its messages reach the form.
const CreateEndpointBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    url: Type.Optional(Type.String({ maxLength: 4096 })),
    events: Type.Optional(
      Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })]),
    ),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
const CsrfOnlyBody = Type.Object({ _csrf: Type.Optional(Type.String()) }, { additionalProperties: false });
const ResendBody = Type.Object(
  { _csrf: Type.Optional(Type.String()), eventId: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);
const EndpointParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

const NOTICES: Record<string, Notice> = {
  deleted: { kind: 'success', text: 'The endpoint is deleted. Nothing more is sent to it.' },
  enabled: { kind: 'success', text: 'The endpoint is enabled. New events are sent to it again.' },
  disabled: { kind: 'success', text: 'The endpoint is disabled. Nothing is sent to it until it is enabled again.' },
  resent: { kind: 'success', text: 'The event is queued to be sent again, as a new delivery with its own retries.' },
  tested: {
    kind: 'success',
    text: 'A test event is queued. It is sent within seconds and shows below with the receiver’s answer.',
  },
};

type EventChoice = { ok: true; events: (EventType | '*')[] } | { ok: false; error: string };

/** The ticked boxes as the service's event list; "All events" wins over single types. */
function eventsFrom(ticked: string[]): EventChoice {
  if (ticked.length === 0) return { ok: false, error: 'Choose the event types to send, or All events.' };
  if (ticked.includes(ALL_EVENTS)) return { ok: true, events: [ALL_EVENTS] };
  if (!ticked.every(isEventType)) return { ok: false, error: 'Choose event types from the list.' };
  return { ok: true, events: [...new Set(ticked)] };
}

export function webhookRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const { webhookEndpoints: endpoints, webhookEndpointRepository: repository } = deps.container;
    // Built here rather than in PanelDeps: only these routes read attempts.
    const attempts = new WebhookAttemptLog(deps.container.deliveries);

    /** The panel acts on the company's live data, as the API does. */
    const scopeOf = (request: FastifyRequest): Scope => panelScope(request);

    async function renderList(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: { values?: CreateEndpointValues; errors?: FieldErrors; notice?: Notice } = {},
      status = 200,
    ) {
      // The service caps a company at MAX_ENDPOINTS; the margin shows any that a race let past it.
      const rows = await repository.list(scopeOf(request), { limit: MAX_ENDPOINTS * 2 });
      return sendPage(
        reply,
        webhooksPage(await chromeFor(request, reply, deps), { endpoints: rows.map(endpointFromRow), ...extra }),
        status,
      );
    }

    async function endpointOr404(request: FastifyRequest, id: string) {
      const endpoint = await endpoints.get(scopeOf(request), id);
      if (!endpoint) throw notFound();
      return endpoint;
    }

    app.get('/webhooks', { config: openAccess(), schema: { querystring: DoneQuery } }, async (request, reply) => {
      // Back from signing in again after the form was sent too late: the typed values return.
      const restored = restoredValues(request.query, ['url', 'events', 'description']);
      if (restored) {
        const values: CreateEndpointValues = {
          url: String(restored.url ?? ''),
          events: asList(restored.events),
          description: String(restored.description ?? ''),
        };
        return renderList(request, reply, { values, notice: RESTORED_NOTICE });
      }
      return renderList(request, reply, { notice: NOTICES[request.query.done ?? ''] });
    });

    app.post(
      '/webhooks',
      { config: openAccess(), schema: { body: CreateEndpointBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        requirePrivileged(request);
        const values: CreateEndpointValues = {
          url: request.body.url ?? '',
          events: asList(request.body.events),
          description: request.body.description ?? '',
        };
        const url = values.url!.trim();
        const description = values.description!.trim();
        const errors: FieldErrors = {};
        if (url === '') errors.url = 'Enter the address that receives the events.';
        const events = eventsFrom(values.events!);
        if (!events.ok) errors.events = events.error;
        if (description.length > MAX_WEBHOOK_DESCRIPTION_LENGTH)
          errors.description = `Use at most ${MAX_WEBHOOK_DESCRIPTION_LENGTH} characters.`;
        if (Object.keys(errors).length > 0 || !events.ok) {
          // Every problem at once: the address is checked even when the form fails elsewhere.
          const urlProblem = url === '' ? null : await endpoints.urlProblem(url);
          if (urlProblem) errors.url = urlProblem.message;
          return renderList(request, reply, { values, errors }, 400);
        }

        const result = await endpoints.create(scopeOf(request), {
          url,
          events: events.events,
          description: description === '' ? null : description,
        });
        if (!result.ok) {
          if (result.code === 'VALIDATION_ERROR') {
            for (const detail of result.details) errors[detail.field === 'events' ? 'events' : 'url'] = detail.message;
            return renderList(request, reply, { values, errors }, 400);
          }
          // The limit, in the error table's words and with its status, as the API answers it.
          const refusal = ERRORS[result.code];
          return renderList(
            request,
            reply,
            { values, notice: { kind: 'error', text: refusal.message } },
            refusal.status,
          );
        }
        request.log.info({ endpointId: result.value.id }, 'webhook endpoint created in the panel');
        // As with API keys: the secret never goes into a URL; it is sealed into this session for the
        // next page (the reveal's keyId carries the endpoint id, which no API key id can equal).
        await deps.sessions.holdForReveal(request.panelToken!, { keyId: result.value.id, key: result.value.secret });
        return reply.redirect(`${endpointPath(result.value.id)}/secret`, 303);
      },
    );

    app.get(
      '/webhooks/:id',
      { config: openAccess(), schema: { params: EndpointParams, querystring: DoneQuery } },
      async (request, reply) => {
        const endpoint = await endpointOr404(request, request.params.id);
        const recent = await attempts.recent(signedInUser(request).companyId, endpoint.id);
        let shown = NOTICES[request.query.done ?? ''];
        if (request.query.done === 'resent' && !endpoint.enabled)
          shown = {
            kind: 'info',
            text: 'The event is queued to be sent again; it goes out once the endpoint is enabled.',
          };
        if (request.query.done === 'tested' && !endpoint.enabled)
          shown = { kind: 'info', text: 'A test event is queued; it goes out once the endpoint is enabled.' };
        return sendPage(reply, webhookEndpointPage(await chromeFor(request, reply, deps), endpoint, recent, shown));
      },
    );

    app.get(
      '/webhooks/:id/secret',
      { config: openAccess(), schema: { params: EndpointParams } },
      async (request, reply) => {
        // Taken whatever it holds: a secret is shown on the first page after it was made, or never.
        const held = await deps.sessions.takeReveal(request.panelToken!);
        const row =
          held?.keyId === request.params.id ? await repository.find(scopeOf(request), request.params.id) : undefined;
        const rotatedUntil =
          row?.previous_secret_expires_at && row.previous_secret_expires_at > new Date().toISOString()
            ? row.previous_secret_expires_at
            : null;
        const revealed =
          held && row ? { endpoint: endpointFromRow(row), secret: held.key, previousSignsUntil: rotatedUntil } : null;
        return sendPage(reply, secretPage(await chromeFor(request, reply, deps), revealed));
      },
    );

    for (const [action, enabled] of [
      ['enable', true],
      ['disable', false],
    ] as const) {
      app.post(
        `/webhooks/:id/${action}`,
        {
          config: openAccess(),
          schema: { params: EndpointParams, body: CsrfOnlyBody },
          preHandler: scope.csrfProtection,
        },
        async (request, reply) => {
          requirePrivileged(request);
          const result = await endpoints.update(scopeOf(request), request.params.id, { enabled });
          if (!result.ok) throw notFound();
          request.log.info({ endpointId: request.params.id }, `webhook endpoint ${action}d in the panel`);
          return reply.redirect(`${endpointPath(request.params.id)}?done=${action}d`, 303);
        },
      );
    }

    app.get(
      '/webhooks/:id/rotate',
      { config: openAccess(), schema: { params: EndpointParams } },
      async (request, reply) => {
        requirePrivileged(request);
        return sendPage(
          reply,
          rotateConfirmPage(await chromeFor(request, reply, deps), await endpointOr404(request, request.params.id)),
        );
      },
    );

    app.post(
      '/webhooks/:id/rotate',
      {
        config: openAccess(),
        schema: { params: EndpointParams, body: CsrfOnlyBody },
        preHandler: scope.csrfProtection,
      },
      async (request, reply) => {
        requirePrivileged(request);
        const result = await endpoints.rotateSecret(scopeOf(request), request.params.id);
        if (!result.ok) throw notFound();
        request.log.info({ endpointId: result.value.id }, 'webhook secret rotated in the panel');
        await deps.sessions.holdForReveal(request.panelToken!, { keyId: result.value.id, key: result.value.secret });
        return reply.redirect(`${endpointPath(result.value.id)}/secret`, 303);
      },
    );

    app.get(
      '/webhooks/:id/delete',
      { config: openAccess(), schema: { params: EndpointParams } },
      async (request, reply) => {
        requirePrivileged(request);
        return sendPage(
          reply,
          deleteConfirmPage(await chromeFor(request, reply, deps), await endpointOr404(request, request.params.id)),
        );
      },
    );

    app.post(
      '/webhooks/:id/delete',
      {
        config: openAccess(),
        schema: { params: EndpointParams, body: CsrfOnlyBody },
        preHandler: scope.csrfProtection,
      },
      async (request, reply) => {
        requirePrivileged(request);
        if (!(await endpoints.delete(scopeOf(request), request.params.id))) throw notFound();
        request.log.info({ endpointId: request.params.id }, 'webhook endpoint deleted in the panel');
        return reply.redirect(`${PANEL_PATH}/webhooks?done=deleted`, 303);
      },
    );

    app.post(
      '/webhooks/:id/test',
      {
        config: openAccess(),
        schema: { params: EndpointParams, body: CsrfOnlyBody },
        preHandler: scope.csrfProtection,
      },
      async (request, reply) => {
        requirePrivileged(request);
        const result = await endpoints.sendTestEvent(scopeOf(request), request.params.id);
        if (!result.ok) throw notFound();
        request.log.info(
          { endpointId: request.params.id, eventId: result.eventId, deliveryId: result.deliveryId },
          'webhook test event sent from the panel',
        );
        return reply.redirect(`${endpointPath(request.params.id)}?done=tested`, 303);
      },
    );

    app.post(
      '/webhooks/:id/resend',
      { config: openAccess(), schema: { params: EndpointParams, body: ResendBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        requirePrivileged(request);
        // Not found covers another company's endpoint or event, and an event purged since the page was shown.
        const result = await endpoints.resend(scopeOf(request), request.params.id, request.body.eventId);
        if (!result.ok) throw notFound();
        request.log.info(
          { endpointId: request.params.id, eventId: request.body.eventId, deliveryId: result.deliveryId },
          'webhook event resent from the panel',
        );
        return reply.redirect(`${endpointPath(request.params.id)}?done=resent`, 303);
      },
    );
  };
}
