import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError, validationError } from '../../errors/app-error.js';
import { EventSchema } from '../../events/event-schema.js';
import { EVENT_RESOURCES, EVENT_TYPES, isEventType } from '../../schemas/event-types.js';
import { SuccessEnvelope, pageEnvelopeJson, successEnvelopeJson } from '../../http/envelope.js';
import { scopeOf } from '../../http/scope.js';
import { EventIdParams } from '../ids.js';
import { KEY_ERRORS, errorResponses } from '../schema-helpers.js';
import type { EventQueries } from './event-queries.js';
import { DEFAULT_LIMIT, Page, PageQuery, coerceQuery, decodeCursor } from './pagination.js';

const RESOURCES = EVENT_RESOURCES;

const ListEventsQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: `Only events of this type, or of every type of a resource with \`<resource>.*\` (${RESOURCES.map((r) => `${r}.*`).join(', ')}).`,
      }),
    ),
    createdAfter: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only events created strictly after this instant (ISO 8601 with an offset, e.g. 2026-11-22T08:00:00Z).',
      }),
    ),
  },
  { additionalProperties: false },
);

function readType(type: string | undefined): string | undefined {
  if (type === undefined || isEventType(type)) return type;
  if (type.endsWith('.*') && RESOURCES.includes(type.slice(0, -2))) return type;
  throw validationError([
    { field: 'type', code: 'invalid_enum', message: `Must be one of ${EVENT_TYPES.join(', ')}, or <resource>.*.` },
  ]);
}

function readInstant(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime()))
    throw validationError([
      { field: 'createdAfter', code: 'invalid_format', message: 'Must be an ISO 8601 date-time.' },
    ]);
  return at.toISOString();
}

/** GET /event and GET /event/{id}: what changed, newest first, for 30 days. */
export const eventReadingRoutes: FastifyPluginAsyncTypebox<{
  queries: EventQueries;
  responseMaxBytes: number;
}> = async (app, { queries, responseMaxBytes }) => {
  app.get(
    '/event',
    {
      config: { access: { kind: 'key', permission: 'event.read' } },
      preValidation: coerceQuery(ListEventsQuery),
      schema: {
        summary: 'List events, newest first',
        description:
          'Every change made through the API writes an event in the same transaction. Events are kept 30 days. After downtime, page with createdAfter set to the newest event you processed.',
        tags: ['Events'],
        querystring: ListEventsQuery,
        response: { 200: SuccessEnvelope(Page(EventSchema)), ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']) },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor } = request.query;
      const filter = { type: readType(request.query.type), createdAfter: readInstant(request.query.createdAfter) };
      const page = await queries.list(scopeOf(request), filter, {
        limit,
        maxBytes: responseMaxBytes,
        ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }),
      });
      // Events are stored as the JSON they are sent as; the page is that text, unparsed.
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Events listed.', page) as never);
    },
  );

  app.get(
    '/event/:id',
    {
      config: { access: { kind: 'key', permission: 'event.read' } },
      schema: {
        summary: 'Read one event',
        description: 'An id of another company, or of an event older than 30 days, gets 404.',
        tags: ['Events'],
        params: EventIdParams,
        response: { 200: SuccessEnvelope(EventSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request, reply) => {
      const json = await queries.findJson(scopeOf(request), request.params.id);
      if (json === undefined) throw new AppError('NOT_FOUND', 'No event with this id.');
      return reply
        .type('application/json; charset=utf-8')
        .send(successEnvelopeJson(request, 'Event found.', json) as never);
    },
  );
};
