import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PAGE_SIZE, pageNumber } from '../records.js';
import { creditNotesPage } from '../views/credit-notes.js';
import { invoicesPage } from '../views/invoices.js';
import { organizationPage } from '../views/organization.js';
import { organizationsPage } from '../views/records.js';
import { quotePage, quotesPage } from '../views/quotes.js';
import { recurringListPage, recurringPage, type RecurringShown } from '../views/recurring.js';
import type { RecurringInvoice } from '../../schemas/recurring-invoice.js';
import { chromeFor, notFound, openAccess, sendPage, type PanelDeps } from '../context.js';
import { panelOwner } from '../mode.js';

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const ListQuery = Type.Object({
  q: Type.Optional(Type.String({ maxLength: 200 })),
  page: Type.Optional(Type.String({ maxLength: 10 })),
});
const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });

/**
 * Read-only views of what the API created, for every role. Every query takes the signed-in
 * user's company in the world the panel shows, so another company's id (or a test id while live
 * data is shown) answers 404 like an unknown one.
 */
export function recordRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const list = { config: openAccess(), schema: { querystring: ListQuery } };
    const one = { config: openAccess(), schema: { params: IdParams } };

    app.get('/organizations', list, async (request, reply) => {
      const search = (request.query.q ?? '').trim();
      const page = await deps.records.organizations(panelOwner(request), search, pageNumber(request.query.page));
      return sendPage(reply, organizationsPage(await chromeFor(request, reply, deps), search, page));
    });

    app.get(
      '/organizations/:id',
      { config: openAccess(), schema: { params: IdParams, querystring: PageQuery } },
      async (request, reply) => {
        const owner = panelOwner(request);
        const organization = await deps.records.organization(owner, request.params.id);
        if (!organization) throw notFound();
        const invoices = await deps.records.invoices(
          owner,
          { organizationId: organization.id },
          pageNumber(request.query.page),
        );
        return sendPage(reply, organizationPage(await chromeFor(request, reply, deps), organization, invoices));
      },
    );

    app.get('/invoices', list, async (request, reply) => {
      const search = (request.query.q ?? '').trim();
      const page = await deps.records.invoices(panelOwner(request), { search }, pageNumber(request.query.page));
      return sendPage(reply, invoicesPage(await chromeFor(request, reply, deps), search, page));
    });

    // One invoice and one credit note: routes/sending.ts, with their messages and the Send form.

    app.get('/quotes', { config: openAccess(), schema: { querystring: PageQuery } }, async (request, reply) => {
      const found = await deps.container.quotes.page(panelOwner(request), pageNumber(request.query.page), PAGE_SIZE);
      const page = { items: found.quotes, total: found.total, page: found.page, pages: found.pages };
      return sendPage(reply, quotesPage(await chromeFor(request, reply, deps), page));
    });

    /** Recurring invoices with their buyers' names, looked up once per buyer. */
    const withBuyers = async (owner: ReturnType<typeof panelOwner>, items: RecurringInvoice[]) => {
      const names = new Map<string, string>();
      for (const id of new Set(items.map((r) => r.organizationId)))
        names.set(id, (await deps.container.organizationRepository.findById(owner, id))?.name ?? id);
      return items.map((r): RecurringShown => ({ ...r, buyerName: names.get(r.organizationId)! }));
    };

    app.get('/recurring', { config: openAccess(), schema: { querystring: PageQuery } }, async (request, reply) => {
      const owner = panelOwner(request);
      const found = await deps.container.recurring.page(owner, pageNumber(request.query.page), PAGE_SIZE);
      const page = {
        items: await withBuyers(owner, found.items),
        total: found.total,
        page: found.page,
        pages: found.pages,
      };
      return sendPage(reply, recurringListPage(await chromeFor(request, reply, deps), page));
    });

    app.get('/recurring/:id', one, async (request, reply) => {
      const owner = panelOwner(request);
      const found = await deps.container.recurring.get(owner, request.params.id);
      if (!found) throw notFound();
      const [shown] = await withBuyers(owner, [found]);
      return sendPage(reply, recurringPage(await chromeFor(request, reply, deps), shown!));
    });

    app.get('/quotes/:id', one, async (request, reply) => {
      const quote = await deps.container.quotes.get(panelOwner(request), request.params.id);
      if (!quote) throw notFound();
      return sendPage(reply, quotePage(await chromeFor(request, reply, deps), quote));
    });

    app.get('/credit-notes', list, async (request, reply) => {
      const search = (request.query.q ?? '').trim();
      const page = await deps.records.creditNotes(panelOwner(request), search, pageNumber(request.query.page));
      return sendPage(reply, creditNotesPage(await chromeFor(request, reply, deps), search, page));
    });
  };
}
