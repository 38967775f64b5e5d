import fastifyMultipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PURCHASE_INVOICE_STATES, VERDICTS } from '../../schemas/purchase-invoice.js';
import type { LifecycleResult, PurchaseInvoiceFilter } from '../../receiving/purchase-invoice-service.js';
import {
  chromeFor,
  notFound,
  openAccess,
  PanelError,
  requirePrivileged,
  forbidden,
  sendPage,
  type PanelDeps,
} from '../context.js';
import { panelOwner, panelScope } from '../mode.js';
import { inboxPage, type InboxFilter, type UploadOutcome } from '../views/purchase-invoices.js';
import { purchaseInvoicePage } from '../views/purchase-invoice.js';

// The inbox of received e-invoices (purchase invoices and supplier credit notes): a list with
// filters, an upload form (a plain multipart form; panel.js adds drag and drop onto the same
// form), a page per document, approve and dispute, and its original and rendering as downloads.
// Everything goes through the receiving service the API uses, in the world the panel shows.
// Every role reads; owners and admins upload and decide, as they are the ones who change things.

const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const ListQuery = Type.Object({
  state: Type.Optional(Type.Union([Type.Literal(''), ...PURCHASE_INVOICE_STATES.map((s) => Type.Literal(s))])),
  verdict: Type.Optional(Type.Union([Type.Literal(''), ...VERDICTS.map((v) => Type.Literal(v))])),
  supplier: Type.Optional(Type.String({ maxLength: 100 })),
  cursor: Type.Optional(Type.String({ maxLength: 400 })),
});
const DisputeBody = Type.Object({ _csrf: Type.Optional(Type.String()), reason: Type.String({ maxLength: 1000 }) });
const PdfQuery = Type.Object({
  lang: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('de'), Type.Literal('fr')])),
});

const DoneQuery = Type.Object({
  done: Type.Optional(Type.Union([Type.Literal('received'), Type.Literal('approved'), Type.Literal('disputed')])),
});
const DONE = {
  received: 'Received and stored.',
  approved: 'Approved: it is to be paid.',
  disputed: 'Disputed, with your reason.',
} as const;

const PAGE_SIZE = 20;
type ListQueryValue = typeof ListQuery.static;

/** Where the next page starts: after this document (newest first by arrival). Opaque to the browser. */
function encodeInboxCursor(after: { createdAt: string; id: string }): string {
  return Buffer.from(`${after.createdAt}|${after.id}`, 'utf8').toString('base64url');
}

/** The cursor's position, or undefined for anything this panel did not write (the first page is shown). */
function decodeInboxCursor(raw: string): { createdAt: string; id: string } | undefined {
  const [createdAt, id, ...rest] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (
    !createdAt ||
    !id ||
    rest.length > 0 ||
    !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(createdAt) ||
    !/^pin_[A-Za-z0-9-]{1,90}$/.test(id)
  )
    return undefined;
  return { createdAt, id };
}
const UPLOAD_FIELD = 'document';
const MAY_NOT = 'Your role does not allow this. Owners and admins upload, approve and dispute purchase invoices.';

export interface PurchaseInvoicePanelOptions {
  /** RECEIVE_MAX_BYTES: the largest document the API takes, and so the panel. */
  maxBytes: number;
}

export function purchaseInvoiceRoutes(deps: PanelDeps, options: PurchaseInvoicePanelOptions): FastifyPluginAsync {
  return async (scope) => {
    // Only this plugin parses multipart bodies: one file, a few small fields, no more than the API takes.
    await scope.register(fastifyMultipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: options.maxBytes, files: 1, fields: 4, fieldSize: 1024, parts: 5 },
    });
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const service = deps.container.purchaseInvoices;
    const base = '/purchase-invoices';

    async function list(
      request: FastifyRequest,
      reply: FastifyReply,
      q: ListQueryValue,
      outcome?: UploadOutcome,
      status = 200,
    ) {
      const filter: InboxFilter = {
        state: q.state || undefined,
        verdict: q.verdict || undefined,
        supplier: q.supplier?.trim() || undefined,
      };
      const after = q.cursor ? decodeInboxCursor(q.cursor) : undefined;
      const serviceFilter: PurchaseInvoiceFilter = {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.verdict ? { verdict: filter.verdict } : {}),
        ...(filter.supplier ? { organizationId: filter.supplier } : {}),
      };
      const owner = panelOwner(request);
      const items = await service.list(owner, serviceFilter, { limit: PAGE_SIZE, ...(after ? { after } : {}) });
      const shown = items.slice(0, PAGE_SIZE);
      const last = shown.at(-1);
      const next =
        items.length > PAGE_SIZE && last ? encodeInboxCursor({ createdAt: last.receivedAt, id: last.id }) : null;
      const suppliers = await deps.records.suppliers(owner, 200);
      return sendPage(
        reply,
        inboxPage(await chromeFor(request, reply, deps), {
          items: shown,
          next,
          first: after !== undefined,
          filter,
          suppliers,
          outcome,
        }),
        status,
      );
    }

    app.get(base, { config: openAccess(), schema: { querystring: ListQuery } }, async (request, reply) =>
      list(request, reply, request.query),
    );

    app.post(base, { config: openAccess(), preHandler: scope.csrfProtection }, async (request, reply) => {
      requirePrivileged(request, forbidden(MAY_NOT));
      const body = (request.body ?? {}) as Record<string, unknown>;
      const file = body[UPLOAD_FIELD];
      if (!Buffer.isBuffer(file) || file.byteLength === 0) {
        return list(
          request,
          reply,
          {},
          {
            kind: 'error',
            title: 'No document was sent',
            detail: 'Choose an XML or PDF e-invoice (UBL, CII, Factur-X / ZUGFeRD) and upload it again.',
          },
          400,
        );
      }
      const result = await service.receive(
        panelScope(request),
        { bytes: file, contentType: null, channel: 'panel' },
        { requireValid: false },
      );
      if (result.ok && 'id' in result.value)
        return reply.redirect(`/panel${base}/${result.value.id}?done=received`, 303);
      if (result.ok) throw new Error('a stored document answers its purchase invoice');
      switch (result.code) {
        case 'SERVICE_UNAVAILABLE':
          throw new PanelError('SERVICE_UNAVAILABLE', 'Too many documents at once', result.message, {
            'retry-after': String(result.retryAfterSeconds),
          });
        case 'DUPLICATE_DOCUMENT': {
          const existing = (result.details[0] as { existingId?: string } | undefined)?.existingId;
          return list(
            request,
            reply,
            {},
            {
              kind: 'error',
              title: 'Received before',
              detail: result.message,
              ...(existing ? { link: `/panel${base}/${existing}` } : {}),
            },
            409,
          );
        }
        default:
          return list(
            request,
            reply,
            {},
            { kind: 'error', title: 'This is not an e-invoice this service reads', detail: result.message },
            422,
          );
      }
    });

    app.get(
      `${base}/:id`,
      { config: openAccess(), schema: { params: IdParams, querystring: DoneQuery } },
      async (request, reply) => {
        const found = await service.get(panelOwner(request), request.params.id);
        if (!found) throw notFound();
        const done = request.query.done;
        return sendPage(
          reply,
          purchaseInvoicePage(
            await chromeFor(request, reply, deps),
            found,
            done ? { kind: 'success', text: DONE[done] } : null,
          ),
        );
      },
    );

    async function decided(
      request: FastifyRequest,
      reply: FastifyReply,
      id: string,
      result: LifecycleResult,
      done: keyof typeof DONE,
    ) {
      if (result.ok) return reply.redirect(`/panel${base}/${id}?${new URLSearchParams({ done }).toString()}`, 303);
      if (result.code === 'NOT_FOUND') throw notFound();
      const found = await service.get(panelOwner(request), id);
      if (!found) throw notFound();
      const text = result.code === 'VALIDATION_ERROR' ? 'Say why the invoice is disputed.' : result.message;
      const page = purchaseInvoicePage(
        await chromeFor(request, reply, deps),
        found,
        { kind: 'error', text },
        result.code === 'VALIDATION_ERROR' ? { reason: text } : undefined,
      );
      return sendPage(reply, page, result.code === 'VALIDATION_ERROR' ? 400 : 409);
    }

    app.post(
      `${base}/:id/approve`,
      { config: openAccess(), schema: { params: IdParams }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        requirePrivileged(request, forbidden(MAY_NOT));
        return decided(
          request,
          reply,
          request.params.id,
          await service.approve(panelScope(request), request.params.id),
          'approved',
        );
      },
    );

    app.post(
      `${base}/:id/dispute`,
      { config: openAccess(), schema: { params: IdParams, body: DisputeBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        requirePrivileged(request, forbidden(MAY_NOT));
        return decided(
          request,
          reply,
          request.params.id,
          await service.dispute(panelScope(request), request.params.id, request.body.reason),
          'disputed',
        );
      },
    );

    app.get(`${base}/:id/original`, { config: openAccess(), schema: { params: IdParams } }, async (request, reply) => {
      const file = await service.original(panelOwner(request), request.params.id);
      if (!file) throw notFound();
      return reply
        .headers({
          'content-type': file.contentType,
          'content-disposition': `attachment; filename="${file.filename}"`,
          etag: `"${file.sha256}"`,
          // Whatever a supplier put in a file, a browser opening it from the panel runs none of it.
          'content-security-policy': "default-src 'none'; sandbox",
        })
        .send(file.body);
    });

    app.get(
      `${base}/:id/pdf`,
      { config: openAccess(), schema: { params: IdParams, querystring: PdfQuery } },
      async (request, reply) => {
        const result = await service.renderPdf(panelOwner(request), request.params.id, request.query.lang ?? 'en');
        if (!result.ok && result.code === 'SERVICE_UNAVAILABLE')
          throw new PanelError('SERVICE_UNAVAILABLE', 'Too many documents at once', result.message, {
            'retry-after': String(result.retryAfterSeconds),
          });
        if (!result.ok) throw notFound();
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${result.filename}"`)
          .send(result.body);
      },
    );
  };
}
