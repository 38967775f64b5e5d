import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { firstBrokenOrganizationRule } from '../services/organization-rules.js';
import type { OrganizationService } from '../services/organization-service.js';
import { CreateOrganizationBody, OrganizationSchema } from '../schemas/organization.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

export interface OrganizationRoutesOptions {
  organizations: OrganizationService;
  idempotency: IdempotencyService;
}

export const organizationRoutes: FastifyPluginAsyncTypebox<OrganizationRoutesOptions> = async (app, { organizations, idempotency }) => {
  app.post(
    '/organization',
    {
      config: { access: { kind: 'key', permission: 'organization.create' } },
      schema: {
        summary: 'Create an organization (contact)',
        tags: ['Organizations'],
        body: CreateOrganizationBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(OrganizationSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'NAME_REQUIRED',
            'NAME_FIELDS_REQUIRED',
            'ORG_TYPE_REQUIRED',
            'NAME_CONFLICT',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
      // The spec's rules come first, in its order, before the schema looks at types and formats.
      preValidation: async (request) => {
        const broken = firstBrokenOrganizationRule(request.body);
        if (broken) throw new AppError(broken);
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await organizations.create(request.auth!.companyId, request.body, new Date(), trx);
        if (!result.ok) throw new AppError(result.code);
        return { status: 201, body: successBody(request, 'Organization created.', result.value) };
      }),
  );
};
