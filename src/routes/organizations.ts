import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { firstBrokenOrganizationRule } from '../services/organization-rules.js';
import type { OrganizationService } from '../services/organization-service.js';
import { CreateOrganizationBody, OrganizationSchema } from './organization-schemas.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

export interface OrganizationRoutesOptions {
  organizations: OrganizationService;
}

export const organizationRoutes: FastifyPluginAsyncTypebox<OrganizationRoutesOptions> = async (app, { organizations }) => {
  app.post(
    '/organization',
    {
      config: { access: { kind: 'key', permission: 'organization.create' } },
      schema: {
        summary: 'Create an organization (contact)',
        tags: ['Organizations'],
        body: CreateOrganizationBody,
        response: {
          201: SuccessEnvelope(OrganizationSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'NAME_REQUIRED',
            'NAME_FIELDS_REQUIRED',
            'ORG_TYPE_REQUIRED',
            'NAME_CONFLICT',
          ]),
        },
      },
      // The spec's rules come first, in its order, before the schema looks at types and formats.
      preValidation: async (request) => {
        const broken = firstBrokenOrganizationRule(request.body);
        if (broken) throw new AppError(broken);
      },
    },
    async (request, reply) => {
      const result = await organizations.create(request.auth!.companyId, request.body);
      if (!result.ok) throw new AppError(result.code);
      return reply.code(201).send(successBody(request, 'Organization created.', result.value));
    },
  );
};
