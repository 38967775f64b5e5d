import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PDF_LANGUAGES } from '../../documents/index.js';
import { sendDocument } from '../../http/document-reply.js';
import type { DocumentKind, RenderRequest, RenderResult } from '../../services/document-service.js';
import { ERRORS } from '../../errors/codes.js';
import { chromeFor, notFound, openAccess, PanelError, sendPage, type PanelDeps } from '../context.js';
import { panelOwner } from '../mode.js';
import { incompleteEinvoicePage } from '../views/document-downloads.js';

// The documents of an invoice or credit note, for every role that can see it: the PDF (as
// issued, or a status copy) and the e-invoices. They are rendered by the DocumentService the API
// uses, for the signed-in user's company in the world the panel shows, so the bytes are the
// API's; another company's id (or a test document while live data is shown) is a 404.

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const PdfQuery = Type.Object({
  lang: Type.Optional(Type.Union(PDF_LANGUAGES.map((l) => Type.Literal(l)))),
  copy: Type.Optional(Type.Literal('status')),
});
const UblQuery = Type.Object({
  profile: Type.Optional(Type.Union([Type.Literal('peppol'), Type.Literal('xrechnung')])),
});
const CiiQuery = Type.Object({
  profile: Type.Optional(Type.Union([Type.Literal('en16931'), Type.Literal('xrechnung')])),
});

const TARGETS: { kind: DocumentKind; path: string }[] = [
  { kind: 'invoice', path: '/invoices/:id' },
  { kind: 'credit-note', path: '/credit-notes/:id' },
];

export function documentRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    async function answer(
      request: FastifyRequest & { params: { id: string } },
      reply: FastifyReply,
      kind: DocumentKind,
      render: RenderRequest,
    ): Promise<FastifyReply> {
      const result = await deps.container.documents.render(kind, panelOwner(request), request.params.id, render);
      if (result.ok) return sendDocument(reply, result);
      return refuse(request, reply, kind, render, result);
    }

    async function refuse(
      request: FastifyRequest & { params: { id: string } },
      reply: FastifyReply,
      kind: DocumentKind,
      render: RenderRequest,
      result: Exclude<RenderResult, { ok: true }>,
    ) {
      switch (result.code) {
        case 'NOT_FOUND':
          throw notFound();
        case 'INVOICE_NOT_ISSUED':
          throw new PanelError(
            'INVOICE_NOT_ISSUED',
            'A draft has no e-invoice',
            'The invoice is a draft: it becomes an e-invoice when it is finalized. Its PDF, marked DRAFT, is on its page.',
          );
        case 'SERVICE_UNAVAILABLE':
          throw new PanelError('SERVICE_UNAVAILABLE', 'Too many documents at once', result.message, {
            'retry-after': String(result.retryAfterSeconds),
          });
        case 'EINVOICE_INCOMPLETE': {
          if (render.format === 'pdf') throw new Error('a PDF is never refused as an incomplete e-invoice');
          const page = incompleteEinvoicePage(
            await chromeFor(request, reply, deps),
            kind,
            request.params.id,
            render.format,
            render.profile,
            result.details,
          );
          return sendPage(reply, page, ERRORS.EINVOICE_INCOMPLETE.status);
        }
      }
    }

    for (const { kind, path } of TARGETS) {
      app.get(
        `${path}/pdf`,
        { config: openAccess(), schema: { params: IdParams, querystring: PdfQuery } },
        async (request, reply) =>
          answer(request, reply, kind, {
            format: 'pdf',
            lang: request.query.lang ?? 'en',
            copy: request.query.copy === 'status' ? 'status' : 'original',
          }),
      );
      app.get(
        `${path}/ubl`,
        { config: openAccess(), schema: { params: IdParams, querystring: UblQuery } },
        async (request, reply) =>
          answer(request, reply, kind, { format: 'ubl', profile: request.query.profile ?? 'peppol' }),
      );
      app.get(
        `${path}/cii`,
        { config: openAccess(), schema: { params: IdParams, querystring: CiiQuery } },
        async (request, reply) =>
          answer(request, reply, kind, { format: 'cii', profile: request.query.profile ?? 'en16931' }),
      );
    }
  };
}
