import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import type { Access } from '../http/access.js';
import { API_VERSION, BASE_PATH, DOCS_PATH } from '../http/api-version.js';
import { documentForm } from '../schemas/documented-as.js';
import { finishDocument, type OpenApiDocument } from './finish.js';
import { operationIdFor } from './operations.js';

// How @fastify/swagger turns the route schemas into the document. Paths are relative to the
// server URL (the base path), as the spec writes them; only routes under the base path are
// described (the panel, the docs page and the 405 answerers are not part of the API).

export const OPENAPI_PATH = '/openapi.json';
export { DOCS_PATH };

const DESCRIPTION = `Public REST API for sales invoices and organizations (contacts).

Every response, success or failure, is a JSON envelope carrying \`meta.requestId\`, the same value as the
\`X-Request-Id\` response header. Send a key in \`X-API-Key\` or \`Authorization: Bearer\`; each operation
names the permission it needs (\`x-permission\`).

**Rate limits.** Every response carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`
(seconds) and \`RateLimit-Policy\`; a 429 carries \`Retry-After\` (seconds) and has no effect.

**Safe retries.** Every \`POST\` accepts an \`Idempotency-Key\` header (1 to 255 printable ASCII
characters), scoped to the caller's company and to the operation (path ids included). The first request runs; a repeat with the same
key and the same body gets the stored status and body again with \`Idempotent-Replayed: true\`, a fresh
request id (in the header and in \`meta\`), and creates nothing. The same key with another body gets 422
\`IDEMPOTENCY_KEY_REUSED\`; a repeat while the first still runs gets 409 \`IDEMPOTENCY_CONFLICT\` with
\`Retry-After\`. Answers 400, 401, 403, 429 and 5xx are not stored, so a corrected retry runs. Records are kept
24 hours, then purged.

**Lists** are newest first, paged with an opaque \`cursor\` (\`data.nextCursor\`, null on the last page).`;

function securityFor(access: Access | undefined): Record<string, string[]>[] {
  switch (access?.kind) {
    case 'key':
      return [{ ApiKeyHeader: [] }, { BearerAuth: [] }];
    case 'optional-key':
      return [{}, { ApiKeyHeader: [] }, { BearerAuth: [] }];
    default:
      return [];
  }
}

/** The route's path as the document writes it: relative to the base path, "{id}" parameters. */
export function documentPath(url: string): string {
  const relative = url.slice(BASE_PATH.length);
  return (relative === '' ? '/' : relative).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export function isDocumented(route: Pick<RouteOptions, 'url' | 'method' | 'config'>): boolean {
  const config = route.config as { methodNotAllowed?: boolean } | undefined;
  return (
    (route.url === BASE_PATH || route.url.startsWith(`${BASE_PATH}/`)) &&
    !config?.methodNotAllowed &&
    route.method !== 'HEAD'
  );
}

export function swaggerOptions(): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Invoicing API',
        version: API_VERSION.slice(1),
        description: DESCRIPTION,
        // A placeholder address (docs/api.md, "The OpenAPI document"):
        // replace it with the real support address before publishing the document.
        contact: { name: 'Invoicing API support', email: 'support@invoicing.example' },
        // package.json is private and names no license: the API and its document are proprietary.
        license: { name: 'Proprietary. All rights reserved.' },
      },
      servers: [
        { url: BASE_PATH, description: 'This service (the path is relative to the host serving this document).' },
      ],
      tags: [
        { name: 'Health', description: 'Connectivity and key check.' },
        { name: 'Organizations', description: 'Organizations (contacts): customers and suppliers.' },
        { name: 'Invoices', description: 'Sales invoices (EN 16931 model): drafts, issuing, payments, voiding.' },
        { name: 'Credit notes', description: 'Corrections of issued invoices, with numbers of their own.' },
        { name: 'Payments', description: 'Payments and refunds across invoices.' },
        { name: 'Company', description: 'Your company: the seller profile.' },
        {
          name: 'Purchase invoices',
          description:
            'E-invoices received from suppliers: read, judged by the EN 16931 rules, approved or disputed, and paid.',
        },
        { name: 'Contract', description: 'This document.' },
      ],
      components: {
        securitySchemes: {
          ApiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-API-Key',
            description: 'The API key, e.g. inv_live_AbCdEfGh_...',
          },
          BearerAuth: { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token.' },
        },
      },
    },
    transform: ({ schema, url, route }) => {
      if (!isDocumented(route)) return { schema: { ...(schema ?? {}), hide: true }, url };
      const access = (route.config as { access?: Access } | undefined)?.access;
      const path = documentPath(url);
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      const transformed = {
        // The document shows each DocumentedAs schema in its documented form; Fastify keeps the runtime one.
        ...(documentForm(schema ?? {}) as object),
        operationId: operationIdFor(method, path),
        security: securityFor(access),
        ...(access?.kind === 'key' ? { 'x-permission': access.permission } : {}),
      };
      return { schema: transformed as typeof schema, url: path };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) throw new Error('Only OpenAPI documents are produced.');
      return finishDocument(
        documentObject.openapiObject as unknown as OpenApiDocument,
      ) as unknown as typeof documentObject.openapiObject;
    },
  };
}
