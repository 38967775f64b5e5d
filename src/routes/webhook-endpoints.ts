import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
} from '../schemas/webhook-endpoint.js';
import { endpointFromRow, type EndpointService } from '../webhooks/endpoint-service.js';
import type { EndpointRepository } from '../webhooks/endpoint-repository.js';
import { WebhookEndpointIdParams, refusal } from './ids.js';
import { DEFAULT_LIMIT, Page, PageQuery, coerceQuery, decodeCursor, encodeCursor } from './reading/pagination.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

export interface WebhookEndpointRoutesOptions {
  endpoints: EndpointService;
  repository: EndpointRepository;
  idempotency: IdempotencyService;
}

const NO_ENDPOINT = 'No webhook endpoint with this id.';
const ListQuery = Type.Object(PageQuery, { additionalProperties: false });
const DeletedSchema = Type.Object(
  { id: Type.String(), deleted: Type.Literal(true) },
  { title: 'DeletedWebhookEndpoint' },
);
const ACCESS = { access: { kind: 'key' as const, permission: 'webhook.manage' as const } };

/** /webhook-endpoint: where events are delivered, and the secrets that sign them. */
export const webhookEndpointRoutes: FastifyPluginAsyncTypebox<WebhookEndpointRoutesOptions> = async (
  app,
  { endpoints, repository, idempotency },
) => {
  app.post(
    '/webhook-endpoint',
    {
      config: ACCESS,
      schema: {
        summary: 'Create a webhook endpoint; its signing secret is in this answer only',
        description:
          'The URL must be https and resolve to public addresses (400 VALIDATION_ERROR otherwise). Deliveries are signed per Standard Webhooks with the secret returned here, which is never shown again (rotate it to get a new one). At most 20 endpoints per company.',
        tags: ['Webhooks'],
        body: CreateWebhookEndpointBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(WebhookEndpointWithSecretSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, 'WEBHOOK_ENDPOINT_LIMIT', ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(
        request,
        reply,
        idempotency,
        async (trx) => {
          const result = await endpoints.create(scopeOf(request), request.body, new Date(), trx);
          if (!result.ok) throw refusal(result);
          return {
            status: 201,
            body: successBody(
              request,
              'Webhook endpoint created. Store its secret now: it is not shown again.',
              result.value,
            ),
          };
        },
        // The answer carries the secret: a repeat gets it again, from a sealed record.
        { sealed: true },
      ),
  );

  app.get(
    '/webhook-endpoint',
    {
      config: ACCESS,
      preValidation: coerceQuery(ListQuery),
      schema: {
        summary: 'List webhook endpoints, newest first',
        tags: ['Webhooks'],
        querystring: ListQuery,
        response: {
          200: SuccessEnvelope(Page(WebhookEndpointSchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request) => {
      const { limit = DEFAULT_LIMIT, cursor } = request.query;
      const rows = await repository.list(scopeOf(request), {
        limit: limit + 1,
        ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }),
      });
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      const nextCursor = rows.length > limit && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null;
      return successBody(request, 'Webhook endpoints listed.', { items: items.map(endpointFromRow), nextCursor });
    },
  );

  app.get(
    '/webhook-endpoint/:id',
    {
      config: ACCESS,
      schema: {
        summary: 'Read one webhook endpoint (without its secret)',
        tags: ['Webhooks'],
        params: WebhookEndpointIdParams,
        response: { 200: SuccessEnvelope(WebhookEndpointSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const endpoint = await endpoints.get(scopeOf(request), request.params.id);
      if (!endpoint) throw new AppError('NOT_FOUND', NO_ENDPOINT);
      return successBody(request, 'Webhook endpoint found.', endpoint);
    },
  );

  app.patch(
    '/webhook-endpoint/:id',
    {
      config: ACCESS,
      schema: {
        summary: 'Change a webhook endpoint: url, events, description, enabled',
        description:
          'A new url is checked as at creation. `enabled: true` also re-enables an endpoint that was disabled for failing, with a clean record.',
        tags: ['Webhooks'],
        params: WebhookEndpointIdParams,
        body: UpdateWebhookEndpointBody,
        response: { 200: SuccessEnvelope(WebhookEndpointSchema), ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request) => {
      const result = await endpoints.update(scopeOf(request), request.params.id, request.body);
      if (!result.ok) throw refusal(result, NO_ENDPOINT);
      return successBody(request, 'Webhook endpoint updated.', result.value);
    },
  );

  app.delete(
    '/webhook-endpoint/:id',
    {
      config: ACCESS,
      schema: {
        summary: 'Delete a webhook endpoint and its pending deliveries',
        tags: ['Webhooks'],
        params: WebhookEndpointIdParams,
        response: { 200: SuccessEnvelope(DeletedSchema), ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS]) },
      },
    },
    async (request) => {
      if (!(await endpoints.delete(scopeOf(request), request.params.id))) throw new AppError('NOT_FOUND', NO_ENDPOINT);
      return successBody(request, 'Webhook endpoint deleted.', { id: request.params.id, deleted: true as const });
    },
  );

  app.post(
    '/webhook-endpoint/:id/rotate-secret',
    {
      config: ACCESS,
      schema: {
        summary: 'Replace the signing secret; the old one keeps signing beside it for 24 hours',
        description:
          'Deliveries in the next 24 hours carry two signatures in webhook-signature (one per secret), so receivers can switch secrets without missing one.',
        tags: ['Webhooks'],
        params: WebhookEndpointIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(WebhookEndpointWithSecretSchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(
        request,
        reply,
        idempotency,
        async (trx) => {
          const result = await endpoints.rotateSecret(scopeOf(request), request.params.id, new Date(), trx);
          if (!result.ok) throw refusal(result, NO_ENDPOINT);
          return {
            status: 200,
            body: successBody(request, 'Secret rotated. Store the new one now: it is not shown again.', result.value),
          };
        },
        { sealed: true },
      ),
  );
};
