import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors/app-error.js';
import { scopeOf } from '../../http/scope.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../../http/envelope.js';
import { OrganizationSchema } from '../../schemas/organization.js';
import { OrganizationIdParams } from '../ids.js';
import { KEY_ERRORS, errorResponses } from '../schema-helpers.js';
import type { OrganizationQueries } from './organization-queries.js';
import { DEFAULT_LIMIT, Page, PageQuery, coerceQuery, decodeCursor } from './pagination.js';

const ListOrganizationsQuery = Type.Object(
  {
    ...PageQuery,
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Name prefix; case-insensitive, as names are compared for uniqueness.',
      }),
    ),
    isCustomer: Type.Optional(Type.Boolean({ description: 'Only customers (true) or only non-customers (false).' })),
    isSupplier: Type.Optional(Type.Boolean({ description: 'Only suppliers (true) or only non-suppliers (false).' })),
    archived: Type.Optional(
      Type.Boolean({ description: 'true: only archived organizations. Absent or false: only those not archived.' }),
    ),
  },
  { additionalProperties: false },
);

export const organizationReadingRoutes: FastifyPluginAsyncTypebox<{
  queries: OrganizationQueries;
  responseMaxBytes: number;
}> = async (app, { queries, responseMaxBytes }) => {
  app.get(
    '/organization',
    {
      config: { access: { kind: 'key', permission: 'organization.read' } },
      preValidation: coerceQuery(ListOrganizationsQuery),
      schema: {
        summary: 'List organizations, newest first',
        tags: ['Organizations'],
        querystring: ListOrganizationsQuery,
        response: {
          200: SuccessEnvelope(Page(OrganizationSchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor, name, isCustomer, isSupplier, archived = false } = request.query;
      const page = await queries.list(
        scopeOf(request),
        { namePrefix: name, isCustomer, isSupplier, archived },
        { limit, maxBytes: responseMaxBytes, ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }) },
      );
      // The page's items were serialized once while it was measured; they are sent as they are
      // (pre-serialized text, which the typed reply does not describe).
      return reply
        .type('application/json; charset=utf-8')
        .send(pageEnvelopeJson(request, 'Organizations listed.', page) as never);
    },
  );

  app.get(
    '/organization/:id',
    {
      config: { access: { kind: 'key', permission: 'organization.read' } },
      schema: {
        summary: 'Read one organization',
        description: 'An id of another company gets the same 404 as an id that does not exist.',
        tags: ['Organizations'],
        params: OrganizationIdParams,
        response: { 200: SuccessEnvelope(OrganizationSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const organization = await queries.findById(scopeOf(request), request.params.id);
      if (!organization) throw new AppError('NOT_FOUND', 'No organization with this id.');
      return successBody(request, 'Organization found.', organization);
    },
  );
};
