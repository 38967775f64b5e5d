import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PERMISSION_NAMES } from '../auth/permissions.js';
import type { Storage } from '../db/database.js';
import { AppError } from '../errors/app-error.js';
import { API_VERSION } from '../http/api-version.js';
import { SuccessEnvelope, successBody } from '../http/envelope.js';
import { KEY_ERRORS, errorResponses } from './schema-helpers.js';

const HealthSchema = Type.Object(
  {
    status: Type.Literal('ok'),
    version: Type.String({ examples: [API_VERSION] }),
    companyId: Type.Optional(Type.String({ description: 'Present when a valid key was sent.' })),
    keyPrefix: Type.Optional(Type.String({ description: "The key's lookup prefix, when a valid key was sent." })),
    livemode: Type.Optional(
      Type.Boolean({
        description:
          'When a valid key was sent: true for a live key, false for a test key (inv_test_), which works on the test sandbox.',
      }),
    ),
    permissions: Type.Optional(
      Type.Array(Type.Union(PERMISSION_NAMES.map((p) => Type.Literal(p))), { uniqueItems: true }),
    ),
  },
  { title: 'Health' },
);

/**
 * Concurrent health checks share the round trip in flight instead of each sending its own: under
 * a load balancer's polling and a burst of clients, the database sees one ping at a time. Every
 * answer still comes from a ping that was running when the request arrived.
 */
export function sharedPing(storage: Storage): () => Promise<void> {
  let inFlight: Promise<void> | null = null;
  return () => {
    inFlight ??= storage.ping().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
}

export const healthRoutes: FastifyPluginAsyncTypebox<{ storage: Storage }> = async (app, { storage }) => {
  const ping = sharedPing(storage);
  app.get(
    '/',
    {
      config: { access: { kind: 'optional-key' } },
      schema: {
        summary: 'Health check: connectivity, and the key when one is sent',
        tags: ['Health'],
        security: [{}, { ApiKeyHeader: [] }, { BearerAuth: [] }],
        response: {
          200: SuccessEnvelope(HealthSchema),
          ...errorResponses(KEY_ERRORS.filter((c) => c !== 'FORBIDDEN')),
        },
      },
    },
    async (request) => {
      try {
        await ping();
      } catch (error) {
        request.log.warn({ err: error }, 'health check: database unreachable');
        throw new AppError('SERVICE_UNAVAILABLE', 'The database cannot be reached.');
      }
      const auth = request.auth;
      const data = auth
        ? {
            status: 'ok' as const,
            version: API_VERSION,
            companyId: auth.companyId,
            keyPrefix: auth.keyPrefix,
            livemode: auth.livemode,
            permissions: [...auth.permissions].sort(),
          }
        : { status: 'ok' as const, version: API_VERSION };
      return successBody(request, 'Service is up.', data);
    },
  );
};
