import { Type, type TOptional, type TString } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  COMPANY_FIELDS,
  formErrorsOf,
  formValuesOf,
  readCompanyForm,
  type CompanyFormField,
  type CompanyFormValues,
} from '../company-form.js';
import { restoredValues, RESTORED_NOTICE } from '../return-to.js';
import { companyPage, type CompanyPageModel } from '../views/company.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import {
  chromeFor,
  forbidden,
  notFound,
  openAccess,
  requirePrivileged,
  sendPage,
  signedInUser,
  type PanelDeps,
} from '../context.js';

// The Company page: everyone reads the seller profile and its audit list; owners and admins edit it.

const HISTORY_LIMIT = 50;

// Generous bounds: the service enforces the real limits and answers them next to the field.
const formFields = Object.fromEntries(
  COMPANY_FIELDS.map((f) => [f, Type.Optional(Type.String({ maxLength: 5000 }))]),
) as Record<CompanyFormField, TOptional<TString>>;
const CompanyBody = Type.Object(
  { _csrf: Type.Optional(Type.String()), ...formFields },
  { additionalProperties: false },
);
const CompanyQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

const NOTICES: Record<string, Notice> = {
  saved: {
    kind: 'success',
    text: 'The profile is saved. Invoices issued from now on use it; the change is listed below.',
  },
  unchanged: { kind: 'info', text: 'Nothing was changed: the form matched the stored profile.' },
};

export function companyRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const profiles = deps.container.companyProfiles;

    async function render(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: Partial<Pick<CompanyPageModel, 'values' | 'errors' | 'notice'>> = {},
      status = 200,
    ) {
      const { companyId } = signedInUser(request);
      const [company, history] = await Promise.all([
        profiles.get(companyId),
        profiles.history(companyId, HISTORY_LIMIT),
      ]);
      if (!company) throw notFound();
      const model: CompanyPageModel = {
        company,
        history,
        historyLimit: HISTORY_LIMIT,
        values: formValuesOf(company),
        ...extra,
      };
      return sendPage(reply, companyPage(await chromeFor(request, reply, deps), model), status);
    }

    app.get('/company', { config: openAccess(), schema: { querystring: CompanyQuery } }, async (request, reply) => {
      // Back from signing in again after the form was sent too late: the typed values return.
      const restored = restoredValues(request.query, COMPANY_FIELDS);
      if (restored) {
        const { companyId } = signedInUser(request);
        const company = await profiles.get(companyId);
        if (!company) throw notFound();
        const values: CompanyFormValues = { ...formValuesOf(company) };
        for (const f of COMPANY_FIELDS) if (typeof restored[f] === 'string') values[f] = restored[f];
        return render(request, reply, { values, notice: RESTORED_NOTICE });
      }
      return render(request, reply, { notice: NOTICES[request.query.done ?? ''] });
    });

    app.post(
      '/company',
      { config: openAccess(), schema: { body: CompanyBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = requirePrivileged(
          request,
          forbidden('Your role does not allow this. Owners and admins change the company profile.'),
        );
        const { _csrf: _, ...values } = request.body;
        const read = readCompanyForm(values);
        if (!read.ok) return render(request, reply, { values, errors: read.errors }, 400);

        const now = new Date();
        const result = await profiles.update(user.companyId, read.changes, { userId: user.id, label: user.email }, now);
        if (!result.ok) {
          if (result.reason === 'not_found') throw notFound();
          return render(request, reply, { values, errors: formErrorsOf(result.problems) }, 400);
        }
        // The service stamps updatedAt only when a field really changed.
        const changed = result.value.updatedAt === now.toISOString();
        if (changed) request.log.info({ companyId: user.companyId }, 'company profile changed in the panel');
        return reply.redirect(`${PANEL_PATH}/company?done=${changed ? 'saved' : 'unchanged'}`, 303);
      },
    );
  };
}
