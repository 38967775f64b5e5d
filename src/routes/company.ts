import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { CompanySchema } from '../schemas/company.js';
import type { CompanyProfiles } from '../services/company-profile.js';
import { KEY_ERRORS, errorResponses } from './schema-helpers.js';

/** GET /company: the seller profile of the key's company (read-only; set with the CLI or the panel). */
export const companyRoutes: FastifyPluginAsyncTypebox<{ profiles: CompanyProfiles }> = async (app, { profiles }) => {
  app.get(
    '/company',
    {
      config: { access: { kind: 'key', permission: 'company.read' } },
      schema: {
        summary: "Read your company's seller profile",
        description: 'What your invoices say about the seller. Set it with `invoicing company update` or on the panel\'s Company page.',
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
};
