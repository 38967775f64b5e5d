import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { errorResponses } from '../routes/schema-helpers.js';
import { BASE_PATH } from '../http/api-version.js';
import { DOCS_PATH, OPENAPI_PATH, swaggerOptions } from './document.js';
import { DOCS_LOGO, DOCS_THEME, documentForPeople } from './docs-page.js';

/**
 * Collects the routes into the document. Register before any route. The docs page's routes
 * (registered later by docsPlugin) reveal nothing, so they are given `access: none` here, at the
 * root, before any other onRoute hook records them.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (route.url === DOCS_PATH || route.url.startsWith(`${DOCS_PATH}/`)) {
      route.config = { ...(route.config ?? {}), access: { kind: 'none' } };
    }
  });
  await app.register(fastifySwagger, swaggerOptions());
}

/** `{base}/openapi.json`: the document itself (not in the envelope: tools expect the bare document). */
export const openApiDocumentRoute: FastifyPluginAsync = async (api) => {
  api.get(
    OPENAPI_PATH,
    {
      config: { access: { kind: 'none' } },
      schema: {
        summary: 'This OpenAPI 3.1 document',
        tags: ['Contract'],
        response: {
          200: Type.Unsafe<Record<string, unknown>>({
            type: 'object',
            description: 'The OpenAPI 3.1 document of this API version.',
            required: ['openapi', 'info', 'paths'],
          }),
          ...errorResponses([]),
        },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(api.swagger())),
  );
};

// Swagger UI's assets come from node_modules; the policy below lets the page talk to this host only.
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
].join('; ');

/**
 * `/docs`: Swagger UI rendering the document, from local assets, for people: without the HEAD
 * twins, each operation's permission first, under the product's name (docs-page.ts).
 */
export const docsPlugin: FastifyPluginAsync = async (app) => {
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    staticCSP: DOCS_CSP,
    uiConfig: { deepLinking: true, defaultModelsExpandDepth: 0, tryItOutEnabled: false },
    theme: DOCS_THEME,
    logo: DOCS_LOGO,
    transformSpecification: (document) => documentForPeople(document),
  });
};

/**
 * `/openapi.json` at the root, beside `/docs` and `/metrics`, where tools and people look first:
 * a permanent redirect to the document under the base path, which stays its one address.
 */
export const rootOpenApiRedirect: FastifyPluginAsync = async (app) => {
  app.get(OPENAPI_PATH, { config: { access: { kind: 'none' } } }, async (_request, reply) =>
    reply.redirect(`${BASE_PATH}${OPENAPI_PATH}`, 301),
  );
};
