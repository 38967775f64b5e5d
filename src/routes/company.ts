import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError, validationError } from '../errors/app-error.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { CompanySchema, UpdateCompanyBody } from '../schemas/company.js';
import type { CompanyProfiles } from '../services/company-profile.js';
import { detailsOf, profileChangesOf } from '../services/company-profile-input.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

/** GET and PATCH /company: the seller profile of the key's company (also set with the CLI or the panel). */
export const companyRoutes: FastifyPluginAsyncTypebox<{
  profiles: CompanyProfiles;
  idempotency: IdempotencyService;
}> = async (app, { profiles, idempotency }) => {
  app.get(
    '/company',
    {
      config: { access: { kind: 'key', permission: 'company.read' } },
      schema: {
        summary: "Read your company's seller profile",
        description:
          "What your invoices say about the seller. Change it with PATCH /company, `invoicing company update` or on the panel's Company page.",
        tags: ['Company'],
        response: { 200: SuccessEnvelope(CompanySchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const company = await profiles.get(request.auth!.companyId);
      if (!company) throw new Error(`The company ${request.auth!.companyId} of an authenticated key does not exist`);
      return successBody(request, 'Company found.', company);
    },
  );

  app.patch(
    '/company',
    {
      config: { access: { kind: 'key', permission: 'company.update' } },
      schema: {
        summary: "Change your company's seller profile",
        description:
          "The same fields, checks and audit entry as the panel's Company page and `invoicing company update`: the fields sent change, the others stay; null clears one. Invoices issued from then on carry the new profile; issued ones keep theirs. Only live keys change it (the profile is shared by live and test mode): a test key gets 403.",
        tags: ['Company'],
        body: UpdateCompanyBody,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(CompanySchema),
          ...errorResponses([...KEY_ERRORS, ...BODY_ERRORS, ...IDEMPOTENCY_ERRORS]),
        },
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      if (!auth.livemode)
        throw new AppError(
          'FORBIDDEN',
          'A test key cannot change the seller profile: it is shared by live and test mode. Use a live key.',
        );
      const read = profileChangesOf(request.body);
      if (!read.ok) throw validationError(read.details);
      return answerIdempotently(request, reply, idempotency, async (trx) => {
        const now = new Date();
        const result = await profiles.update(
          auth.companyId,
          read.changes,
          { userId: null, label: `API key ${auth.keyPrefix}` },
          now,
          trx,
        );
        if (!result.ok) {
          if (result.reason === 'not_found')
            throw new Error(`The company ${auth.companyId} of an authenticated key does not exist`);
          throw validationError(detailsOf(result.problems));
        }
        const changed = result.value.updatedAt === now.toISOString();
        return {
          status: 200,
          body: successBody(
            request,
            changed ? 'Company profile updated.' : 'Nothing changed: the profile already had these values.',
            result.value,
          ),
        };
      });
    },
  );
};
