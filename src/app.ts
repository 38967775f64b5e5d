import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Config } from './config.js';
import { createContainer, type Container } from './container.js';
import { migrateWhenReachable, openStorage, type Storage } from './db/database.js';
import { registerAccessControl } from './http/access.js';
import { BASE_PATH } from './http/api-version.js';
import { registerErrorHandling } from './http/error-handler.js';
import { answerOtherMethods, recordRoutes } from './http/method-not-allowed.js';
import { AccessLogController } from './http/log-controller.js';
import { requestIdFor } from './http/request-id.js';
import { registerTextInputCheck } from './http/text-input.js';
import { createRateLimitStore } from './rate-limit/create-store.js';
import type { RateLimitStore } from './rate-limit/store.js';
import { Metrics } from './metrics/metrics.js';
import { FailOpenRateLimitStore } from './rate-limit/fail-open-store.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { invoiceRoutes } from './routes/invoices.js';
import { organizationRoutes } from './routes/organizations.js';
import { docsPlugin, openApiDocumentRoute, registerOpenApi } from './openapi/plugin.js';
import { readingRoutes } from './routes/reading/index.js';
import { idempotencyPurge } from './idempotency/purge.js';
import { panelPlugin } from './panel/plugin.js';

export interface BuildAppOptions {
  config: Config;
  /** An open storage to use; when absent one is opened from config.databaseUrl and closed with the app. */
  storage?: Storage;
  rateLimitStore?: RateLimitStore;
  /** Pino destination override, for tests that read the log. */
  logStream?: NodeJS.WritableStream;
}

declare module 'fastify' {
  interface FastifyInstance {
    container: Container;
  }
}

export const REDACTED_HEADERS = ['req.headers.authorization', 'req.headers["x-api-key"]'];

/** The application factory: the server and every test build the app through this function. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Log lines are written asynchronously: under load they leave in batches instead of one
  // blocking write per line; what is still buffered is flushed when the app closes.
  const logDestination = options.logStream ?? pino.destination({ dest: 1, sync: false });
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: REDACTED_HEADERS, censor: '[redacted]' },
      stream: logDestination,
    },
    genReqId: requestIdFor,
    requestIdHeader: false,
    logController: new AccessLogController(),
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    // Slow-header clients are cut off; Node checks for them every second instead of every 30 s.
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    // Fastify's own 503 is not in our envelope; during shutdown in-flight and queued requests finish.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true },
    // X-Forwarded-* (client address, https) are believed only from the proxies TRUST_PROXY names.
    trustProxy: config.trustProxy,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  const ownsStorage = !options.storage;
  const storage = options.storage ?? openStorage(config.databaseUrl, {
      poolMax: config.databasePoolMax,
      backgroundCheckpoints: true,
      busyTimeoutMs: config.databaseBusyTimeoutMs,
    });
  const rateLimitStore =
    options.rateLimitStore ??
    (await createRateLimitStore({ redisUrl: config.redisUrl, redisKeyPrefix: config.redisKeyPrefix, logger: app.log }));
  const release = async () => {
    await rateLimitStore.close();
    if (ownsStorage) await storage.close();
  };
  app.addHook('onClose', release);
  if (!options.logStream) app.addHook('onClose', async () => (logDestination as ReturnType<typeof pino.destination>).flushSync());
  try {
    await migrateWhenReachable(storage.db, {
      waitMs: config.databaseStartupWaitMs,
      onWait: (error, delayMs) =>
        app.log.warn({ err: error, retryInMs: delayMs }, 'database unreachable at start; waiting for it'),
    });
  } catch (error) {
    await release();
    throw error;
  }

  const container = createContainer(storage, {
    apiKeyCacheTtlMs: config.apiKeyCacheTtlMs,
    onBackgroundError: (error) => app.log.warn({ err: error }, 'recording key use failed'),
  });
  app.decorate('container', container);

  // Only JSON bodies are accepted; anything else is 415.
  app.removeContentTypeParser('text/plain');

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
  });

  const metrics = new Metrics({
    poolStats: () => storage.poolStats(),
    rateLimitDegraded: () => rateLimitStore instanceof FailOpenRateLimitStore && rateLimitStore.degraded,
    usesSharedRateLimitStore: rateLimitStore instanceof FailOpenRateLimitStore,
  });
  app.addHook('onResponse', async (request, reply) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
  });

  registerErrorHandling(app);
  registerTextInputCheck(app);
  registerAccessControl(app, {
    onRateLimited: (reason) => metrics.countRateLimited(reason),
    onKeyRejected: (reason) => metrics.countKeyFailure(reason),
    verifier: container.verifier,
    store: rateLimitStore,
    rateLimitMax: config.rateLimitMax,
    rateLimitWindowMs: config.rateLimitWindowMs,
    authFailureLimit: config.authFailureLimit,
  });

  // The OpenAPI document collects routes as they are registered: before any route, and before
  // recordRoutes, so the docs routes are recorded with the access rule it gives them.
  await registerOpenApi(app);
  const routes = recordRoutes(app);
  await app.register(
    async (api) => {
      await api.register(openApiDocumentRoute);
      await api.register(healthRoutes, { storage });
      await api.register(organizationRoutes, { organizations: container.organizations, idempotency: container.idempotency });
      await api.register(invoiceRoutes, { invoices: container.invoices, idempotency: container.idempotency });
      await api.register(readingRoutes, { db: storage.db });
    },
    { prefix: BASE_PATH },
  );
  answerOtherMethods(app, routes, BASE_PATH);
  await app.register(docsPlugin);
  await app.register(idempotencyPurge, { idempotency: container.idempotency });
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });
  await app.register(panelPlugin, { rateLimitStore });
  return app;
}
