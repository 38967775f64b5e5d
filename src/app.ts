import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { boundedDestination, type LogDestination } from './logging/bounded-destination.js';
import type { Config } from './config.js';
import { createContainer, type Container } from './container.js';
import { PdfRenderPool } from './documents/index.js';
import { migrateWhenReachable, openStorage, type Storage } from './db/database.js';
import { registerAccessControl } from './http/access.js';
import { BASE_PATH } from './http/api-version.js';
import { lazySchemas } from './http/schema-compilers.js';
import { answerClientError, answerFrameworkError } from './http/edge-errors.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerOneAnswerAtATime } from './http/one-answer-at-a-time.js';
import { answerOtherMethods, recordRoutes } from './http/method-not-allowed.js';
import { AccessLogController } from './http/log-controller.js';
import { requestIdFor } from './http/request-id.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { parseQueryString, registerQueryEncodingCheck } from './http/query-string.js';
import { registerTextInputCheck } from './http/text-input.js';
import { createRateLimitStore } from './rate-limit/create-store.js';
import type { RateLimitStore } from './rate-limit/store.js';
import { Metrics } from './metrics/metrics.js';
import { FailOpenRateLimitStore } from './rate-limit/fail-open-store.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { companyRoutes } from './routes/company.js';
import { documentRoutes } from './routes/documents.js';
import { creditNoteRoutes } from './routes/credit-notes.js';
import { reminderRoutes } from './routes/reminders.js';
import { documentSendingRoutes } from './routes/document-sending.js';
import { invoiceSettlementRoutes } from './routes/invoice-settlement.js';
import { invoiceRoutes } from './routes/invoices.js';
import { organizationRoutes } from './routes/organizations.js';
import { docsPlugin, openApiDocumentRoute, registerOpenApi, rootOpenApiRedirect } from './openapi/plugin.js';
import { readingRoutes } from './routes/reading/index.js';
import { registerRepeatedKeyCheck } from './idempotency/http.js';
import { idempotencyPurge } from './idempotency/purge.js';
import { eventPurge } from './events/event-purge.js';
import { resolveDataKeys } from './lib/data-keys.js';
import { webhookEndpointRoutes } from './routes/webhook-endpoints.js';
import type { Resolve } from './webhooks/url-safety.js';
import { panelPlugin } from './panel/plugin.js';
import { DocumentReadPool, type DocumentReader } from './documents/read/read-pool.js';
import { DEFAULT_READ_LIMITS } from './documents/read/read-limits.js';
import { purchaseInvoiceRoutes } from './routes/purchase-invoices.js';
import { quoteRoutes } from './routes/quotes.js';
import { recurringInvoiceRoutes } from './routes/recurring-invoices.js';
import { hostedLinkRoutes } from './routes/hosted-links.js';
import { hostedPageRoutes } from './hosted/page-routes.js';
import { HOSTED_PATH } from './hosted/hosted-links.js';

export interface BuildAppOptions {
  config: Config;
  /** An open storage to use; when absent one is opened from config.databaseUrl and closed with the app. */
  storage?: Storage;
  rateLimitStore?: RateLimitStore;
  /** Pino destination override, for tests that read the log. */
  logStream?: NodeJS.WritableStream;
  /** The stdout destination; made here (bounded, never blocking) when absent. */
  logDestination?: LogDestination;
  /** How webhook hosts are resolved; the system's DNS when absent (tests play DNS with it). */
  resolve?: Resolve;
  /** How received documents are read; the app's own worker pool when absent (tests hold it). */
  reader?: DocumentReader;
}

declare module 'fastify' {
  interface FastifyInstance {
    container: Container;
  }
}

/** At close, buffered log lines get this long to leave; a stalled reader never holds shutdown. */
const LOG_FLUSH_AT_CLOSE_MS = 1000;

export const REDACTED_HEADERS = ['req.headers.authorization', 'req.headers["x-api-key"]'];

/** The application factory: the server and every test build the app through this function. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Log lines leave asynchronously through a bounded buffer: a stalled log reader costs dropped
  // (counted) lines, never memory or answers; what is buffered is flushed, briefly, at close.
  const destination =
    options.logStream === undefined
      ? (options.logDestination ??
        boundedDestination({
          maxBufferedBytes: config.logBufferMaxBytes,
          onResumeAfterDrops: (dropped) =>
            process.stderr.write(
              `warning: ${dropped} log lines were dropped because stdout was not being read (see log_lines_dropped_total)\n`,
            ),
        }))
      : null;
  const logDestination = options.logStream ?? destination!;
  const schemas = lazySchemas();
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
    // A socket on which nothing moves (a client that stops reading its answer) is dropped.
    connectionTimeout: config.socketTimeoutMs,
    // Slow-header clients are cut off; Node checks for them every second instead of every 30 s.
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: 1000 },
    // Fastify's own 503 is not in our envelope; during shutdown in-flight and queued requests finish.
    return503OnClosing: false,
    // X-Forwarded-* (client address, https) are believed only from the proxies TRUST_PROXY names.
    trustProxy: config.trustProxy,
    // Answers written before any route or hook runs, in the envelope too (see edge-errors.ts).
    frameworkErrors: answerFrameworkError,
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQueryString },
    clientErrorHandler: answerClientError,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true } },
    // Each route's answer serializers are compiled when the route first answers (http/schema-compilers.ts).
    schemaController: schemas.controller,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('compileAllSchemas', schemas.compileAll);

  const ownsStorage = !options.storage;
  const storage =
    options.storage ??
    openStorage(config.databaseUrl, {
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
  if (destination) app.addHook('onClose', async () => destination.flush(LOG_FLUSH_AT_CLOSE_MS));
  // A missing data key is a configuration error: it stops start-up before the database is touched.
  let dataKeys: Buffer[];
  try {
    dataKeys = resolveDataKeys(config.dataEncryptionKeys, config.databaseUrl);
  } catch (error) {
    await release();
    throw error;
  }
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

  // PDFs render in worker threads, never on the event loop; the pool starts its threads with the first PDF.
  const pdfPool = new PdfRenderPool({
    workers: config.pdfWorkers,
    maxQueued: config.pdfQueueMax,
    timeoutMs: config.pdfTimeoutMs,
    maxMemoryMb: config.pdfWorkerMemoryMb,
  });
  app.addHook('onClose', async () => pdfPool.close());
  // Received documents are read in worker threads too, within the limits their size allows.
  const readLimits = {
    ...DEFAULT_READ_LIMITS,
    maxBytes: config.receiveMaxBytes,
    xml: { ...DEFAULT_READ_LIMITS.xml, maxBytes: config.receiveMaxBytes },
  };
  const readPool = options.reader
    ? null
    : new DocumentReadPool(
        {
          workers: config.receiveWorkers,
          maxQueued: config.receiveQueueMax,
          timeoutMs: config.receiveTimeoutMs,
          maxMemoryMb: config.receiveWorkerMemoryMb,
        },
        readLimits,
      );
  if (readPool) app.addHook('onClose', async () => readPool.close());
  const container = createContainer(storage, {
    apiKeyCacheTtlMs: config.apiKeyCacheTtlMs,
    pdf: pdfPool,
    reader: options.reader ?? readPool!,
    onBackgroundError: (error) => app.log.warn({ err: error }, 'recording key use failed'),
    dataKeys,
    publicBaseUrl: config.publicBaseUrl,
    webhooks: {
      allowPrivateUrls: config.webhookAllowPrivateUrls,
      retryScheduleMs: config.webhookRetryScheduleMs,
      maxConcurrent: config.webhookMaxConcurrent,
      ...(options.resolve ? { resolve: options.resolve } : {}),
      onError: (error, what) => app.log.error({ err: error }, `webhook delivery: ${what} failed`),
      onDisabled: (endpointId) =>
        app.log.warn({ endpointId }, 'webhook endpoint disabled: every delivery failed for 5 days'),
    },
    reminders: {
      intervalMs: config.reminderIntervalSeconds * 1000,
      onError: (error, what) => app.log.error({ err: error }, `reminders: ${what} failed`),
    },
    recurring: {
      intervalMs: config.recurringIntervalMs,
      onError: (error, what) => app.log.error({ err: error }, `recurring invoices: ${what} failed`),
    },
    ...(config.email
      ? {
          email: {
            config: config.email,
            onError: (error: unknown, what: string) => app.log.error({ err: error }, `email delivery: ${what} failed`),
          },
        }
      : {}),
  });
  app.decorate('container', container);

  // Only JSON bodies are accepted (UTF-8, numbers read exactly); anything else is 415.
  app.removeContentTypeParser('text/plain');
  registerJsonBodyParser(app);

  // Hooks that never wait are callback hooks: an async hook costs a promise per request.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    reply.header('cache-control', 'no-store');
    reply.header('x-content-type-options', 'nosniff');
    // A read answered within the turn that parsed it (SQLite reads never wait) is written once
    // that turn's reads are done, with the other answers of the turn, not alone in the middle of
    // them (decisions.md). Writes already answer after their commit, in a later turn.
    if (request.method === 'GET') setImmediate(done, null, payload);
    else done(null, payload);
  });

  const metrics = new Metrics({
    poolStats: () => storage.poolStats(),
    rateLimitDegraded: () => rateLimitStore instanceof FailOpenRateLimitStore && rateLimitStore.degraded,
    usesSharedRateLimitStore: rateLimitStore instanceof FailOpenRateLimitStore,
    droppedLogLines: () => destination?.droppedLines ?? 0,
    pdfLoad: () => pdfPool.load,
    ...(readPool ? { receiveLoad: () => readPool.load } : {}),
    workerHeaps: { pdf: () => pdfPool.heaps(), ...(readPool ? { receive: () => readPool.heaps() } : {}) },
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(
      request.method,
      request.routeOptions.url ?? 'unmatched',
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  registerErrorHandling(app);
  // Before access control: a pipelined request waits for the answer before it, unexamined.
  registerOneAnswerAtATime(app);
  registerTextInputCheck(app);
  registerRepeatedKeyCheck(app);
  registerQueryEncodingCheck(app);
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
      await api.register(organizationRoutes, {
        organizations: container.organizations,
        repository: container.organizationRepository,
        idempotency: container.idempotency,
      });
      await api.register(invoiceRoutes, { invoices: container.invoices, idempotency: container.idempotency });
      await api.register(invoiceSettlementRoutes, {
        settlement: container.settlement,
        payments: container.payments,
        idempotency: container.idempotency,
      });
      await api.register(creditNoteRoutes, { settlement: container.settlement, idempotency: container.idempotency });
      await api.register(documentSendingRoutes, {
        emailDeliveries: container.emailDeliveries,
        reminders: container.reminders,
        idempotency: container.idempotency,
      });
      await api.register(hostedLinkRoutes, {
        links: container.hostedLinks,
        invoices: container.invoices,
        repositories: container.repositories,
        emailDeliveries: container.emailDeliveries,
        idempotency: container.idempotency,
        quotes: container.quotes,
      });
      await api.register(reminderRoutes, { reminders: container.reminders, idempotency: container.idempotency });
      await api.register(companyRoutes, { profiles: container.companyProfiles, idempotency: container.idempotency });
      await api.register(documentRoutes, { documents: container.documents });
      await api.register(readingRoutes, {
        repositories: container.repositories,
        invoices: container.invoices,
        hostedLinkOf: (owner, kind, id, trx, known) => container.hostedLinks.linkOf(owner, kind, id, trx, known),
        responseMaxBytes: config.responseMaxBytes,
      });
      await api.register(quoteRoutes, {
        quotes: container.quotes,
        idempotency: container.idempotency,
        responseMaxBytes: config.responseMaxBytes,
      });
      await api.register(recurringInvoiceRoutes, {
        recurring: container.recurring,
        idempotency: container.idempotency,
        responseMaxBytes: config.responseMaxBytes,
      });
      await api.register(purchaseInvoiceRoutes, {
        purchaseInvoices: container.purchaseInvoices,
        idempotency: container.idempotency,
        maxBytes: config.receiveMaxBytes,
        responseMaxBytes: config.responseMaxBytes,
      });
      await api.register(webhookEndpointRoutes, {
        endpoints: container.webhookEndpoints,
        repository: container.webhookEndpointRepository,
        idempotency: container.idempotency,
      });
    },
    { prefix: BASE_PATH },
  );
  answerOtherMethods(app, routes, BASE_PATH);
  await app.register(docsPlugin);
  await app.register(rootOpenApiRedirect);
  await app.register(idempotencyPurge, { idempotency: container.idempotency });
  await app.register(eventPurge, { events: container.eventRepository });
  // Deliveries start once the app is ready and stop (leases given back) before storage closes.
  app.addHook('onReady', async () => container.deliveryWorker.start());
  app.addHook('preClose', async () => container.deliveryWorker.stop());
  app.addHook('onReady', async () => container.emailWorker?.start());
  app.addHook('preClose', async () => container.emailWorker?.stop());
  app.addHook('onReady', async () => container.reminderScheduler.start());
  app.addHook('preClose', async () => container.reminderScheduler.stop());
  // The scheduler passes at start and every RECURRING_INTERVAL_SECONDS; 0 turns it off.
  if (config.recurringIntervalMs > 0) app.addHook('onReady', async () => container.recurringScheduler.start());
  app.addHook('preClose', async () => container.recurringScheduler.stop());
  await app.register(metricsRoutes, { metrics, token: config.metricsToken });
  await app.register(panelPlugin, { rateLimitStore, receiveMaxBytes: config.receiveMaxBytes });
  await app.register(hostedPageRoutes, {
    prefix: HOSTED_PATH,
    links: container.hostedLinks,
    documents: container.documents,
    quotes: container.hostedQuotes,
    store: rateLimitStore,
    limit: config.hostedRateLimitMax,
    windowMs: config.hostedRateLimitWindowMs,
  });
  return app;
}
