import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pageNumber } from '../records.js';
import { organizationsPage } from '../views/records.js';
import { chromeFor, openAccess, sendPage, signedInUser, type PanelDeps } from '../context.js';

const ListQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })), page: Type.Optional(Type.String({ maxLength: 10 })) });

/** Read-only views of what the API created, for every role. */
export function recordRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.get('/organizations', { config: openAccess(), schema: { querystring: ListQuery } }, async (request, reply) => {
      const user = signedInUser(request);
      const search = (request.query.q ?? '').trim();
      const page = await deps.records.organizations(user.companyId, search, pageNumber(request.query.page));
      return sendPage(reply, organizationsPage(await chromeFor(request, reply, deps), search, page));
    });
  };
}
