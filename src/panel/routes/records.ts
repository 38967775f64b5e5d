import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { pageNumber } from '../records.js';
import { invoicePage, invoicesPage } from '../views/invoices.js';
import { organizationsPage } from '../views/records.js';
import { chromeFor, notFound, openAccess, sendPage, signedInUser, type PanelDeps } from '../context.js';

const InvoiceParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
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

    app.get('/invoices', { config: openAccess(), schema: { querystring: ListQuery } }, async (request, reply) => {
      const user = signedInUser(request);
      const search = (request.query.q ?? '').trim();
      const page = await deps.records.invoices(user.companyId, search, pageNumber(request.query.page));
      return sendPage(reply, invoicesPage(await chromeFor(request, reply, deps), search, page));
    });

    app.get('/invoices/:id', { config: openAccess(), schema: { params: InvoiceParams } }, async (request, reply) => {
      const user = signedInUser(request);
      const invoice = await deps.records.invoice(user.companyId, request.params.id);
      if (!invoice) throw notFound();
      return sendPage(reply, invoicePage(await chromeFor(request, reply, deps), invoice));
    });
  };
}
