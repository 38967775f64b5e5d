import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Permission } from '../auth/permissions.js';
import { PDF_LANGUAGES } from '../documents/index.js';
import type { DocumentKind, DocumentService, RenderRequest } from '../services/document-service.js';
import { CreditNoteIdParams, InvoiceIdParams, refusal, type RefusalMessages } from './ids.js';
import { KEY_ERRORS, errorResponses } from './schema-helpers.js';
import { AppError } from '../errors/app-error.js';
import type { FastifyRequest } from 'fastify';
import { scopeOf } from '../http/scope.js';
import { sendDocument } from '../http/document-reply.js';

// GET /invoice/{id}/ubl|cii|pdf and GET /credit-note/{id}/ubl|cii|pdf. The document itself is
// the answer (not the envelope), with its Content-Type and a filename carrying its number
// (src/http/document-reply.ts, which the panel's downloads share); refusals are in the envelope
// as everywhere.

const UblQuery = Type.Object(
  {
    profile: Type.Optional(
      Type.Union([Type.Literal('peppol'), Type.Literal('xrechnung')], {
        description:
          'peppol (default): Peppol BIS Billing 3.0. xrechnung: XRechnung 3.0 (needs a buyer reference and a seller contact).',
      }),
    ),
  },
  { additionalProperties: false },
);

const CiiQuery = Type.Object(
  {
    profile: Type.Optional(
      Type.Union([Type.Literal('en16931'), Type.Literal('xrechnung')], {
        description:
          'en16931 (default): as Factur-X 1.07 / ZUGFeRD 2.3 profile EN 16931 uses it. xrechnung: XRechnung 3.0.',
      }),
    ),
  },
  { additionalProperties: false },
);

const PdfQuery = Type.Object(
  {
    lang: Type.Optional(
      Type.Union(
        PDF_LANGUAGES.map((l) => Type.Literal(l)),
        { description: 'The language of the page: en (default), de or fr.' },
      ),
    ),
    copy: Type.Optional(
      Type.Literal('status', {
        description:
          'status: a copy marked as such, with what happened since the document was issued (payments, credit notes, void) and the balance now; it asks for exactly the open balance, or for nothing. Without it: the document as issued, the same bytes every time.',
      }),
    ),
  },
  { additionalProperties: false },
);

const XML = Type.String({ description: 'The XML document.' });
const PDF = Type.String({ format: 'binary', description: 'The PDF/A-3b document.' });

const DOCUMENT_ERRORS = [...KEY_ERRORS, 'VALIDATION_ERROR', 'EINVOICE_INCOMPLETE'] as const;

interface Target {
  kind: DocumentKind;
  path: string;
  params: typeof InvoiceIdParams;
  permission: Permission;
  tag: string;
  /** What each refusal of reading this document says. */
  refusals: RefusalMessages;
}

const INCOMPLETE = (noun: string) =>
  `The ${noun} lacks what this e-invoice needs: each detail names the field to set and the rule it would break.`;

const TARGETS: Target[] = [
  {
    kind: 'invoice',
    path: '/invoice/:id',
    params: InvoiceIdParams,
    permission: 'invoice.read',
    tag: 'Invoices',
    refusals: {
      NOT_FOUND: 'No invoice with this id.',
      INVOICE_NOT_ISSUED:
        'The invoice is a draft: it has no e-invoice until it is finalized (POST /invoice/{id}/finalize); its PDF is marked DRAFT.',
      EINVOICE_INCOMPLETE: INCOMPLETE('invoice'),
    },
  },
  {
    kind: 'credit-note',
    path: '/credit-note/:id',
    params: CreditNoteIdParams,
    permission: 'credit-note.read',
    tag: 'Credit notes',
    refusals: { NOT_FOUND: 'No credit note with this id.', EINVOICE_INCOMPLETE: INCOMPLETE('credit note') },
  },
];

export const documentRoutes: FastifyPluginAsyncTypebox<{ documents: DocumentService }> = async (app, { documents }) => {
  for (const target of TARGETS) {
    const send = async (request: FastifyRequest & { params: { id: string } }, render: RenderRequest) => {
      // The service queues the work (PDFs in the render pool, XML at its own gate); a full queue is a 503.
      const result = await documents.render(target.kind, scopeOf(request), request.params.id, render);
      if (!result.ok && result.code === 'SERVICE_UNAVAILABLE') {
        throw new AppError('SERVICE_UNAVAILABLE', result.message, {
          headers: { 'retry-after': String(result.retryAfterSeconds) },
        });
      }
      if (!result.ok) throw refusal(result, target.refusals);
      return result;
    };
    const noun = target.kind === 'invoice' ? 'invoice' : 'credit note';

    app.get(
      `${target.path}/ubl`,
      {
        config: { access: { kind: 'key', permission: target.permission } },
        schema: {
          summary: `The ${noun} as a UBL 2.1 e-invoice (Peppol BIS Billing 3.0 or XRechnung 3.0)`,
          description:
            '422 EINVOICE_INCOMPLETE names, per detail, the field to set and the official rule (BR-…, PEPPOL-…, BR-DE-…) a document without it would break; 409 INVOICE_NOT_ISSUED for a draft.',
          tags: [target.tag],
          params: target.params,
          querystring: UblQuery,
          response: {
            200: { content: { 'application/xml': { schema: XML } } },
            ...errorResponses([...DOCUMENT_ERRORS, 'INVOICE_NOT_ISSUED']),
          },
        },
      },
      async (request, reply) => {
        return sendDocument(reply, await send(request, { format: 'ubl', profile: request.query.profile ?? 'peppol' }));
      },
    );

    app.get(
      `${target.path}/cii`,
      {
        config: { access: { kind: 'key', permission: target.permission } },
        schema: {
          summary: `The ${noun} as a UN/CEFACT CII D16B e-invoice (EN 16931 as Factur-X uses it, or XRechnung 3.0)`,
          description: '422 EINVOICE_INCOMPLETE names the gaps as for UBL; 409 INVOICE_NOT_ISSUED for a draft.',
          tags: [target.tag],
          params: target.params,
          querystring: CiiQuery,
          response: {
            200: { content: { 'application/xml': { schema: XML } } },
            ...errorResponses([...DOCUMENT_ERRORS, 'INVOICE_NOT_ISSUED']),
          },
        },
      },
      async (request, reply) => {
        return sendDocument(reply, await send(request, { format: 'cii', profile: request.query.profile ?? 'en16931' }));
      },
    );

    app.get(
      `${target.path}/pdf`,
      {
        config: { access: { kind: 'key', permission: target.permission } },
        schema: {
          summary: `The ${noun} as a PDF/A-3b, with its CII embedded (Factur-X / ZUGFeRD, profile EN 16931)`,
          description:
            "A page a person reads, in English, German or French. The document as issued renders the same bytes every time (their SHA-256 is in Repr-Digest and ETag, and in the document's pdfSha256); it embeds the CII (as GET …/cii answers it) as factur-x.xml when the document is a valid EN 16931 e-invoice. An invoice asks for its payable with an EPC (GiroCode) QR code for EUR credit transfers; a credit note, a draft (marked DRAFT, no XML) and a test document (TEST where the IBAN would be) ask for nothing. ?copy=status adds the status now and asks for exactly the open balance. 503 SERVICE_UNAVAILABLE with Retry-After when too many PDFs wait to be rendered.",
          tags: [target.tag],
          params: target.params,
          querystring: PdfQuery,
          response: {
            200: { content: { 'application/pdf': { schema: PDF } } },
            ...errorResponses([...KEY_ERRORS, 'VALIDATION_ERROR', 'SERVICE_UNAVAILABLE']),
          },
        },
      },
      async (request, reply) => {
        return sendDocument(
          reply,
          await send(request, {
            format: 'pdf',
            lang: request.query.lang ?? 'en',
            copy: request.query.copy === 'status' ? 'status' : 'original',
          }),
        );
      },
    );
  }
};
