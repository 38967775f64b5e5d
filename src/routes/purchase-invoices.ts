import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { createHash } from 'node:crypto';
import { PDF_LANGUAGES } from '../documents/index.js';
import { AppError } from '../errors/app-error.js';
import { SuccessEnvelope, pageEnvelopeJson, successBody } from '../http/envelope.js';
import { answerError } from '../http/error-handler.js';
import { scopeOf } from '../http/scope.js';
import { IDEMPOTENCY_ERRORS, IdempotencyHeaders, answerIdempotently } from '../idempotency/http.js';
import type { IdempotencyService } from '../idempotency/idempotency-service.js';
import { DocumentedAs } from '../schemas/documented-as.js';
import { Nullable } from '../schemas/nullable.js';
import {
  ATTACHMENT_TYPES,
  type FileAnswer,
  type PurchaseInvoiceService,
} from '../receiving/purchase-invoice-service.js';
import {
  DisputeBody,
  PURCHASE_INVOICE_STATES,
  PurchaseInvoiceSchema,
  PurchaseInvoiceSummarySchema,
  PurchasePaymentBody,
  UnmappedEntrySchema,
  VERDICTS,
} from '../schemas/purchase-invoice.js';
import { refusal } from './ids.js';
import {
  DEFAULT_LIMIT,
  NumberPrefixQuery,
  Page,
  PageBudget,
  PageQuery,
  coerceQuery,
  cursorAfter,
  decodeCursor,
  decodePositionCursor,
  encodePositionCursor,
  MAX_LIMIT,
} from './reading/pagination.js';
import { BODY_ERRORS, KEY_ERRORS, errorResponses } from './schema-helpers.js';

// Receiving e-invoices: POST /purchase-invoice takes one document as the raw body (UBL or CII
// XML, or a PDF with the XML inside), and the routes below read it back, answer its original and
// attachments byte for byte, draw it as a PDF, and approve, dispute and pay it. The routes only
// map HTTP to the receiving service (src/receiving) and its results to answers.

export interface PurchaseInvoiceRoutesOptions {
  purchaseInvoices: PurchaseInvoiceService;
  idempotency: IdempotencyService;
  /** RECEIVE_MAX_BYTES: the largest document taken (413 above). */
  maxBytes: number;
  /** RESPONSE_MAX_BYTES: a list page ends before this size. */
  responseMaxBytes: number;
}

/** The media types a document is taken as; the content decides what it is. */
export const DOCUMENT_MEDIA_TYPES = ['application/xml', 'text/xml', 'application/pdf'] as const;

const PurchaseInvoiceIdParams = Type.Object({
  id: Type.String({
    description: 'The purchase invoice id (pin_…).',
    examples: ['pin_01956b20-4c5d-7e6f-8a9b-0c1d2e3f4a5b'],
  }),
});
const AttachmentParams = Type.Object({
  id: PurchaseInvoiceIdParams.properties.id,
  n: Type.String({
    description: 'The attachment number (1, 2, …), as the purchase invoice lists it; anything else finds none (404).',
    examples: ['1'],
  }),
});

const ReceiveQuery = Type.Object(
  {
    require: Type.Optional(
      Type.Literal('valid', {
        description:
          'valid: refuse an invalid document (422 EINVOICE_INVALID, with every finding) and store nothing. Without it an invalid document is stored all the same, flagged by its verdict: nothing a supplier sent is lost.',
      }),
    ),
  },
  { additionalProperties: false },
);

const RawDocument = DocumentedAs(
  Type.Unsafe({}),
  Type.String({ format: 'binary', description: 'The document as the supplier sent it, byte for byte.' }),
);

const ListQuery = Type.Object(
  {
    ...PageQuery,
    organizationId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only documents of this supplier.' }),
    ),
    state: Type.Optional(
      Type.Union(
        PURCHASE_INVOICE_STATES.map((s) => Type.Literal(s)),
        { description: 'Only documents in this state.' },
      ),
    ),
    kind: Type.Optional(
      Type.Union([Type.Literal('invoice'), Type.Literal('credit-note')], {
        description: 'Only invoices, or only credit notes.',
      }),
    ),
    verdict: Type.Optional(
      Type.Union(
        VERDICTS.map((v) => Type.Literal(v)),
        { description: 'Only documents the rules judged so.' },
      ),
    ),
    number: NumberPrefixQuery,
    dueDateFrom: Type.Optional(
      Type.String({ format: 'date', description: 'Due (BT-9) on or after this day (YYYY-MM-DD).' }),
    ),
    dueDateTo: Type.Optional(Type.String({ format: 'date', description: 'Due on or before this day (YYYY-MM-DD).' })),
    overdue: Type.Optional(
      Type.Boolean({
        description: 'true: only invoices with something still due past their due date; false: none of those.',
      }),
    ),
    receivedFrom: Type.Optional(
      Type.String({ format: 'date', description: 'Received on or after this day (YYYY-MM-DD, UTC).' }),
    ),
    receivedTo: Type.Optional(
      Type.String({ format: 'date', description: 'Received on or before this day (YYYY-MM-DD, UTC).' }),
    ),
  },
  { additionalProperties: false },
);

const UnmappedQuery = Type.Object({ ...PageQuery }, { additionalProperties: false });

const UnmappedPage = Type.Object(
  {
    items: Type.Array(UnmappedEntrySchema, { maxItems: MAX_LIMIT, description: 'In document order.' }),
    nextCursor: Nullable(Type.String({ description: 'Pass as cursor to get the next page; null on the last page.' })),
  },
  { title: 'UnmappedEntryPage' },
);

const PdfQuery = Type.Object(
  {
    lang: Type.Optional(
      Type.Union(
        PDF_LANGUAGES.map((l) => Type.Literal(l)),
        { description: 'The language of the page: en (default), de or fr.' },
      ),
    ),
  },
  { additionalProperties: false },
);

const Binary = (description: string) => Type.String({ format: 'binary', description });
const NOT_FOUND = 'No purchase invoice with this id.';
const TAG = 'Purchase invoices';

/** A file answered as itself: its type, a download name, and the digest of its bytes (RFC 9530). */
function fileHeaders(file: FileAnswer): Record<string, string> {
  return {
    'content-type': file.contentType,
    'content-disposition': `attachment; filename="${file.filename}"`,
    'repr-digest': `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`,
    etag: `"${file.sha256}"`,
    // Whatever a supplier put in a file, a browser opening it from the API's origin runs none of it.
    'content-security-policy': "default-src 'none'; sandbox",
  };
}

export const purchaseInvoiceRoutes: FastifyPluginAsyncTypebox<PurchaseInvoiceRoutesOptions> = async (
  app,
  { purchaseInvoices, idempotency, maxBytes, responseMaxBytes },
) => {
  // The document arrives as bytes and is stored as bytes: these types are parsed into a Buffer,
  // in this plugin only (every other route takes JSON).
  for (const type of DOCUMENT_MEDIA_TYPES) {
    app.addContentTypeParser(type, { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) =>
      done(null, body),
    );
  }
  const mediaTypes = DOCUMENT_MEDIA_TYPES.join(', ');
  app.setErrorHandler((error, request, reply) =>
    answerError(error, request, reply, (e) => {
      if (request.method !== 'POST' || !request.routeOptions.url?.endsWith('/purchase-invoice')) return e;
      if (e.code === 'UNSUPPORTED_MEDIA_TYPE')
        return new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the document as the request body with Content-Type ${mediaTypes}.`,
        );
      if (e.code === 'PAYLOAD_TOO_LARGE')
        return new AppError(
          'PAYLOAD_TOO_LARGE',
          `The document is larger than ${maxBytes} bytes, the most this service takes (RECEIVE_MAX_BYTES).`,
        );
      return e;
    }),
  );

  app.post(
    '/purchase-invoice',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.create' } },
      bodyLimit: maxBytes,
      schema: {
        summary: 'Receive an e-invoice from a supplier',
        description: [
          'The body is one document as the supplier sent it: a UBL 2.1 Invoice or CreditNote or a UN/CEFACT CII D16B invoice (application/xml or text/xml), or a PDF with one of them embedded (application/pdf: Factur-X / ZUGFeRD 2.x, XRechnung in a PDF). What it is, and which profile it claims (BT-24), is read from the content.',
          'It is read off the event loop (no DTD, no external entities, no network; bounded size, depth, inflation, time and memory) into the EN 16931 model, judged by EN 16931 and by Peppol BIS 3 or XRechnung when it claims them, and stored with its verdict, its original bytes (GET …/original) and its attachments. Its seller is matched to one of your organizations by electronic address, VAT id or legal registration id, or created as a supplier.',
          `Refused: a body that is not an e-invoice (not XML or PDF, broken XML, a PDF without invoice XML, an order: 422 EINVOICE_REFUSED saying what was found), one larger than RECEIVE_MAX_BYTES (413), another media type (415); with ?require=valid an invalid one (422 EINVOICE_INVALID with every finding); the same supplier's document of the same kind and number a second time, by any channel (409 DUPLICATE_DOCUMENT naming the first in existingId). 503 with Retry-After when too many documents wait to be read.`,
        ].join('\n\n'),
        tags: [TAG],
        querystring: ReceiveQuery,
        headers: IdempotencyHeaders,
        body: { content: Object.fromEntries(DOCUMENT_MEDIA_TYPES.map((type) => [type, { schema: RawDocument }])) },
        response: {
          201: SuccessEnvelope(PurchaseInvoiceSchema),
          ...errorResponses([
            ...KEY_ERRORS,
            ...BODY_ERRORS,
            'EINVOICE_REFUSED',
            'EINVOICE_INVALID',
            'DUPLICATE_DOCUMENT',
            'SERVICE_UNAVAILABLE',
            ...IDEMPOTENCY_ERRORS,
          ]),
        },
      },
    },
    async (request, reply) => {
      if (!Buffer.isBuffer(request.body))
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the document as the request body with Content-Type ${mediaTypes}.`,
        );
      const upload = {
        bytes: request.body,
        contentType: request.headers['content-type'] ?? null,
        channel: 'api' as const,
      };
      const requireValid = request.query.require === 'valid';
      // Read before the transaction: it takes as long as the document is large, and needs no database.
      const read = await purchaseInvoices.read(upload);
      if (!read.ok && read.code === 'SERVICE_UNAVAILABLE')
        throw new AppError('SERVICE_UNAVAILABLE', read.message, {
          headers: { 'retry-after': String(read.retryAfterSeconds) },
        });
      const sha256 = createHash('sha256').update(upload.bytes).digest('hex');
      return answerIdempotently(
        request,
        reply,
        idempotency,
        async (trx) => {
          if (!read.ok) throw refusal(read);
          const stored = await purchaseInvoices.store(
            scopeOf(request),
            read.value,
            upload,
            { requireValid },
            new Date(),
            trx,
          );
          if (!stored.ok) throw refusal(stored);
          const value = stored.value;
          const what = value.kind === 'invoice' ? 'Purchase invoice' : 'Credit note';
          return {
            status: 201,
            body: successBody(
              request,
              `${what} ${value.number ?? ''} received from ${value.supplier.name ?? 'the supplier'}: ${value.verdict}.`.replace(
                '  ',
                ' ',
              ),
              value,
            ),
          };
        },
        { digestOf: { sha256, require: requireValid ? 'valid' : null } },
      );
    },
  );

  app.get(
    '/purchase-invoice',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.read' } },
      preValidation: coerceQuery(ListQuery),
      schema: {
        summary: 'List received documents, newest first',
        description:
          'Newest first by when they arrived; each without the document itself (GET /purchase-invoice/{id} has it).',
        tags: [TAG],
        querystring: ListQuery,
        response: {
          200: SuccessEnvelope(Page(PurchaseInvoiceSummarySchema)),
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']),
        },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor, ...filter } = request.query;
      const items = await purchaseInvoices.list(scopeOf(request), filter, {
        limit,
        ...(cursor === undefined ? {} : { after: decodeCursor(cursor) }),
      });
      const budget = new PageBudget<unknown>(responseMaxBytes);
      for (const item of items.slice(0, limit)) if (!budget.offer(item)) break;
      const nextCursor = cursorAfter(
        items.map((i) => ({ created_at: i.receivedAt, id: i.id })),
        budget.count,
        limit,
      );
      return reply
        .type('application/json; charset=utf-8')
        .send(
          pageEnvelopeJson(request, 'Purchase invoices listed.', { itemsJson: budget.itemsJson, nextCursor }) as never,
        );
    },
  );

  app.get(
    '/purchase-invoice/:id',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.read' } },
      schema: {
        summary:
          'Read one received document: the document in the EN 16931 model, its verdict with every finding, and where it stands',
        description: 'An id of another company (or of the other mode) gets the same 404 as an id that does not exist.',
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        response: { 200: SuccessEnvelope(PurchaseInvoiceSchema), ...errorResponses(KEY_ERRORS) },
      },
    },
    async (request) => {
      const found = await purchaseInvoices.get(scopeOf(request), request.params.id);
      if (!found) throw new AppError('NOT_FOUND', NOT_FOUND);
      return successBody(request, `${found.kind === 'invoice' ? 'Purchase invoice' : 'Credit note'} found.`, found);
    },
  );

  app.get(
    '/purchase-invoice/:id/unmapped',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.read' } },
      preValidation: coerceQuery(UnmappedQuery),
      schema: {
        summary: 'Page through what a received document holds that the model has no field for',
        description:
          'Each value with its XPath, in document order, with cursor paging as every list (a document may hold thousands of them; the purchase invoice says how many in unmappedCount). Kept so that nothing a supplier sent is dropped; the original has them too.',
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        querystring: UnmappedQuery,
        response: { 200: SuccessEnvelope(UnmappedPage), ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR']) },
      },
    },
    async (request, reply) => {
      const { limit = DEFAULT_LIMIT, cursor } = request.query;
      const after = cursor === undefined ? 0 : decodePositionCursor(cursor);
      const items = await purchaseInvoices.unmapped(scopeOf(request), request.params.id, { limit, after });
      if (!items) throw new AppError('NOT_FOUND', NOT_FOUND);
      const budget = new PageBudget<unknown>(responseMaxBytes);
      for (const item of items.slice(0, limit)) if (!budget.offer(item)) break;
      const more = budget.count < items.length;
      const nextCursor = more ? encodePositionCursor(after + budget.count) : null;
      return reply
        .type('application/json; charset=utf-8')
        .send(
          pageEnvelopeJson(request, 'Unmapped values listed.', { itemsJson: budget.itemsJson, nextCursor }) as never,
        );
    },
  );

  app.get(
    '/purchase-invoice/:id/original',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.read' } },
      schema: {
        summary: 'The received document exactly as it was uploaded',
        description:
          "The bytes as they arrived (their SHA-256 is in Repr-Digest and ETag, and in the purchase invoice's original.sha256), as application/xml or application/pdf.",
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        response: {
          200: {
            content: {
              'application/xml': { schema: Binary('The XML document.') },
              'application/pdf': { schema: Binary('The PDF document.') },
            },
          },
          ...errorResponses(KEY_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const file = await purchaseInvoices.original(scopeOf(request), request.params.id);
      if (!file) throw new AppError('NOT_FOUND', NOT_FOUND);
      return reply.headers(fileHeaders(file)).send(file.body as unknown as string);
    },
  );

  app.get(
    '/purchase-invoice/:id/attachments/:n',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.read' } },
      schema: {
        summary: 'An attachment of a received document, byte for byte',
        description:
          'Attachment n as the purchase invoice lists it: a BG-24 supporting document embedded in the XML, or another file embedded in the PDF. Answered as its own media type when EN 16931 allows it for attachments (or XML), else as application/octet-stream; always as a download.',
        tags: [TAG],
        params: AttachmentParams,
        response: {
          200: {
            content: Object.fromEntries(
              ATTACHMENT_TYPES.map((type) => [type, { schema: Binary('The attached file.') }]),
            ),
          },
          ...errorResponses(KEY_ERRORS),
        },
      },
    },
    async (request, reply) => {
      const n = /^[1-9]\d{0,5}$/.test(request.params.n) ? Number(request.params.n) : 0;
      const file = await purchaseInvoices.attachment(scopeOf(request), request.params.id, n);
      if (!file) throw new AppError('NOT_FOUND', 'No such attachment of this purchase invoice.');
      return reply.headers(fileHeaders(file)).send(file.body as unknown as string);
    },
  );

  app.get(
    '/purchase-invoice/:id/pdf',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.read' } },
      schema: {
        summary: 'A received document drawn as a PDF, to read',
        description:
          "Our own rendering of the received document, in English, German or French: every page is marked RECEIVED as a rendering of a received e-invoice (the e-invoice itself is the original), it states the verdict of the rules, and it carries no XML and no payment code: it states the supplier's payment details, it asks for nothing. 503 SERVICE_UNAVAILABLE with Retry-After when too many PDFs wait to be rendered.",
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        querystring: PdfQuery,
        response: {
          200: { content: { 'application/pdf': { schema: Binary('The PDF.') } } },
          ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR', 'SERVICE_UNAVAILABLE']),
        },
      },
    },
    async (request, reply) => {
      const result = await purchaseInvoices.renderPdf(scopeOf(request), request.params.id, request.query.lang ?? 'en');
      if (!result.ok && result.code === 'SERVICE_UNAVAILABLE')
        throw new AppError('SERVICE_UNAVAILABLE', result.message, {
          headers: { 'retry-after': String(result.retryAfterSeconds) },
        });
      if (!result.ok) throw new AppError('NOT_FOUND', NOT_FOUND);
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${result.filename}"`)
        .send(result.body as unknown as string);
    },
  );

  const LIFECYCLE_ERRORS = [...KEY_ERRORS, ...BODY_ERRORS, ...IDEMPOTENCY_ERRORS] as const;

  app.post(
    '/purchase-invoice/:id/approve',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.update' }, optionalBody: true },
      schema: {
        summary: 'Approve a received document: it is to be paid',
        description:
          'From received or disputed (approving an approved one changes nothing); a paid one is 409 PURCHASE_INVOICE_NOT_APPROVABLE. Event purchase_invoice.approved.',
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(PurchaseInvoiceSchema),
          ...errorResponses([...LIFECYCLE_ERRORS, 'PURCHASE_INVOICE_NOT_APPROVABLE']),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await purchaseInvoices.approve(scopeOf(request), request.params.id, new Date(), trx);
        if (!result.ok) throw refusal(result, NOT_FOUND);
        return {
          status: 200,
          body: successBody(request, `${result.value.number ?? result.value.id} approved.`, result.value),
        };
      }),
  );

  app.post(
    '/purchase-invoice/:id/dispute',
    {
      config: { access: { kind: 'key', permission: 'purchase-invoice.update' } },
      schema: {
        summary: 'Dispute a received document, with the reason',
        description:
          'From received or approved (a disputed one takes the new reason); a paid one is 409 PURCHASE_INVOICE_NOT_DISPUTABLE. Approve it once the dispute is settled. Event purchase_invoice.disputed.',
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        body: DisputeBody,
        headers: IdempotencyHeaders,
        response: {
          200: SuccessEnvelope(PurchaseInvoiceSchema),
          ...errorResponses([...LIFECYCLE_ERRORS, 'PURCHASE_INVOICE_NOT_DISPUTABLE']),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await purchaseInvoices.dispute(
          scopeOf(request),
          request.params.id,
          request.body.reason,
          new Date(),
          trx,
        );
        if (!result.ok) throw refusal(result, NOT_FOUND);
        return {
          status: 200,
          body: successBody(request, `${result.value.number ?? result.value.id} disputed.`, result.value),
        };
      }),
  );

  app.post(
    '/purchase-invoice/:id/payment',
    {
      config: { access: { kind: 'key', permission: 'payment.create' } },
      schema: {
        summary: 'Record a payment to the supplier of an approved purchase invoice',
        description:
          'Partial or full, in exact decimals; more than is due is refused (409 PAYMENT_EXCEEDS_AMOUNT_DUE, whose detail names the amount due in `maximum`), also when payments race. Only approved invoices take payments (409 PURCHASE_INVOICE_NOT_PAYABLE otherwise, and for credit notes). It becomes paid when nothing is due any more (event purchase_invoice.paid).',
        tags: [TAG],
        params: PurchaseInvoiceIdParams,
        body: PurchasePaymentBody,
        headers: IdempotencyHeaders,
        response: {
          201: SuccessEnvelope(PurchaseInvoiceSchema),
          ...errorResponses([...LIFECYCLE_ERRORS, 'PURCHASE_INVOICE_NOT_PAYABLE', 'PAYMENT_EXCEEDS_AMOUNT_DUE']),
        },
      },
    },
    async (request, reply) =>
      answerIdempotently(request, reply, idempotency, async (trx) => {
        const result = await purchaseInvoices.pay(scopeOf(request), request.params.id, request.body, new Date(), trx);
        if (!result.ok) throw refusal(result, NOT_FOUND);
        return {
          status: 201,
          body: successBody(request, `Payment recorded on ${result.value.number ?? result.value.id}.`, result.value),
        };
      }),
  );
};
