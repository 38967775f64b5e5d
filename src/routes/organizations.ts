import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import type { OrganizationRepository } from '../repositories/organization-repository.js';
import { firstBrokenOrganizationRule } from '../services/organization-rules.js';
import { mergeOrganization, type OrganizationService } from '../services/organization-service.js';
import {
  CreateOrganizationBody,
  OrganizationSchema,
  UpdateOrganizationBody,
  type UpdateOrganizationInput,
} from '../schemas/organization.js';
import { OrganizationIdParams, refusal } from './ids.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';
import { scopeOf } from '../http/scope.js';

export interface OrganizationRoutesOptions {
  organizations: OrganizationService;
  repository: OrganizationRepository;
  idempotency: IdempotencyService;
}

export const organizationRoutes: FastifyPluginAsyncTypebox<OrganizationRoutesOptions> = async (
  app,
  { organizations, repository, idempotency },
) => {
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
        const result = await organizations.create(scopeOf(request), request.body, new Date(), trx);
        if (!result.ok) throw new AppError(result.code);
        return { status: 201, body: successBody(request, 'Organization created.', result.value) };
      }),
  );

  app.patch(
    '/organization/:id',
    {
      config: { access: { kind: 'key', permission: 'organization.update' } },
      schema: {
        summary: 'Edit, archive or restore an organization',
        description:
          "Any field of the create body, merged with the stored organization (null clears a field). The create rules are checked on the merged result in their order, then a rename onto another organization's name is 409 NAME_CONFLICT. `archived` archives or restores. Issued invoices keep their snapshots; drafts show the organization as it is now.",
        tags: ['Organizations'],
        params: OrganizationIdParams,
        body: UpdateOrganizationBody,
        response: {
          200: SuccessEnvelope(OrganizationSchema),
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
      // The spec's rules come first, in its order, on the organization as it would be, before the
      // schema looks at types and formats.
      preValidation: async (request) => {
        const { id } = request.params as { id: string };
        const stored = await repository.findById(scopeOf(request), id);
        if (!stored) throw new AppError('NOT_FOUND', 'No organization with this id.');
        const body = request.body;
        if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
        const broken = firstBrokenOrganizationRule(mergeOrganization(stored, body as UpdateOrganizationInput));
        if (broken) throw new AppError(broken);
      },
    },
    async (request) => {
      const result = await organizations.update(scopeOf(request), request.params.id, request.body);
      if (!result.ok) throw refusal(result, 'No organization with this id.');
      return successBody(request, 'Organization updated.', result.value);
    },
  );
};
