import cluster from 'node:cluster';
import { ConfigError, loadServerConfig, type Config } from './config.js';
import { BASE_PATH } from './http/api-version.js';
import { releaseMemory } from './lib/release-memory.js';
import { requireSupportedRuntime } from './runtime.js';

// One process serves. With CLUSTER_WORKERS > 1 this process becomes the cluster primary
// (src/cluster.ts) and each worker it forks runs serve() on the shared port. The app is imported
// only where it runs, so the primary loads neither it nor the database and Redis clients.

const SHUTDOWN_DEADLINE_MS = 10_000;
/** The primary's last log lines get this long to leave before it exits. */
const PRIMARY_LOG_FLUSH_MS = 1000;

function exitOnConfigError(error: unknown): void {
  if (error instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${error.message}\n`);
    process.exit(78);
  }
}

async function serve(config: Config, announceSetup: boolean): Promise<void> {
  const { buildApp } = await import('./app.js');
  let app;
  try {
    app = await buildApp({ config });
  } catch (error) {
    // A setting that only start-up can check (DATA_ENCRYPTION_KEY with PostgreSQL, a key file).
    exitOnConfigError(error);
    throw error;
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const deadline = setTimeout(() => {
      app.log.error('shutdown deadline passed; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  // Ready compiles every route's validators; what that and the imports left behind is given back
  // before the first connection (lib/release-memory.ts).
  await app.ready();
  releaseMemory();
  const address = await app.listen({ host: config.host, port: config.port });
  app.log.info(`Invoicing API listening; base URL ${address}${BASE_PATH}`);
  if (announceSetup) {
    const { announceFirstRunSetup } = await import('./panel/setup.js');
    await announceFirstRunSetup(app, address);
  }
}

async function supervise(config: Config): Promise<void> {
  const [{ runPrimary }, { pino }, { boundedDestination }] = await Promise.all([
    import('./cluster.js'),
    import('pino'),
    import('./logging/bounded-destination.js'),
  ]);
  // The primary hands every connection to a worker: a stalled log reader must never block it.
  const destination = boundedDestination({ maxBufferedBytes: config.logBufferMaxBytes });
  const log = pino({ level: config.logLevel }, destination);
  runPrimary({
    workers: config.clusterWorkers,
    log,
    exit: (code) => void destination.flush(PRIMARY_LOG_FLUSH_MS).finally(() => process.exit(code)),
  });
}

function main(): Promise<void> {
  requireSupportedRuntime();
  let config;
  try {
    config = loadServerConfig();
  } catch (error) {
    exitOnConfigError(error);
    throw error;
  }
  if (cluster.isPrimary && config.clusterWorkers > 1) return supervise(config);
  // In a cluster only the first worker prints the first-run setup link, not one per worker.
  return serve(config, cluster.worker === undefined || cluster.worker.id === 1);
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
