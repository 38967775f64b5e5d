import cluster, { type Worker } from 'node:cluster';

// The cluster primary (CLUSTER_WORKERS > 1): it forks the workers, which each run the whole
// server and share the listening port, and only supervises them. It never opens the database
// or Redis. A worker that exits while the primary is not stopping is replaced after a short
// backoff; workers that keep dying make the primary give up rather than spin.

/**
 * Workers that die this many times within CRASH_LOOP_WINDOW_MS, or this many times in a row
 * before any of them listened, are not started again. The second rule holds however slowly a
 * loaded machine starts them: a worker that cannot start is a crash loop whatever the clock says.
 */
export const CRASH_LOOP_DEATHS = 5;
export const CRASH_LOOP_WINDOW_MS = 10_000;
/** The first replacement waits this long; each further death within the window doubles it. */
export const RESTART_BASE_DELAY_MS = 200;
/** Longer than the worker's own 10 s, so that a worker's graceful shutdown is never cut short. */
export const SHUTDOWN_DEADLINE_MS = 15_000;
/** A worker that exits with the configuration-error code would exit so again: no restart. */
const CONFIG_ERROR_EXIT_CODE = 78;

export interface PrimaryLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface PrimaryOptions {
  workers: number;
  log: PrimaryLogger;
  /** Ends the primary (the caller flushes its log first). */
  exit(code: number): void;
}

/** The wait before the next replacement, given how many workers died within the window. */
export function restartDelayMs(recentDeaths: number): number {
  return RESTART_BASE_DELAY_MS * 2 ** Math.max(0, recentDeaths - 1);
}

/** Forks `workers` workers, keeps that many running, and stops them all on SIGTERM or SIGINT. */
export function runPrimary(options: PrimaryOptions): void {
  const { log } = options;
  const running = new Map<number, Worker>();
  const restarts = new Set<NodeJS.Timeout>();
  let deaths: number[] = [];
  const listening = new Set<number>();
  let startFailuresInARow = 0;
  let stopping: { signal: NodeJS.Signals; exitCode: number; deadline: NodeJS.Timeout } | null = null;
  let ended = false;
  const end = (code: number) => {
    if (ended) return;
    ended = true;
    options.exit(code);
  };

  const fork = () => {
    const worker = cluster.fork();
    running.set(worker.id, worker);
    log.info({ worker: worker.id, workerPid: worker.process.pid }, 'cluster: worker started');
  };

  const finish = () => {
    if (!stopping || running.size > 0) return;
    clearTimeout(stopping.deadline);
    log.info({ exitCode: stopping.exitCode }, 'cluster: every worker has exited');
    end(stopping.exitCode);
  };

  /** Stops restarting, passes `signal` to every worker and exits with `exitCode` once all are gone. */
  const stop = (signal: NodeJS.Signals, exitCode: number) => {
    if (stopping) return;
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    const deadline = setTimeout(() => {
      log.error({ workers: [...running.keys()] }, 'cluster: shutdown deadline passed; killing the remaining workers');
      for (const worker of running.values()) worker.process.kill('SIGKILL');
      end(1);
    }, SHUTDOWN_DEADLINE_MS);
    stopping = { signal, exitCode, deadline };
    log.info({ signal, workers: running.size }, 'cluster: stopping the workers');
    for (const worker of running.values()) worker.process.kill(signal);
    finish();
  };

  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    startFailuresInARow = 0;
  });

  cluster.on('exit', (worker, code, signal) => {
    running.delete(worker.id);
    const everListened = listening.delete(worker.id);
    const exit = { code, signal };
    if (stopping) {
      // A worker still starting has no handler yet and dies of the signal itself: nothing was in
      // flight. One that could not finish its own shutdown makes the whole shutdown a failure.
      if (code !== 0 && signal !== stopping.signal) {
        log.error(
          { worker: worker.id, workerPid: worker.process.pid, ...exit },
          'cluster: worker failed to shut down cleanly',
        );
        if (stopping.exitCode === 0) stopping.exitCode = 1;
      }
      finish();
      return;
    }
    if (code === CONFIG_ERROR_EXIT_CODE) {
      log.error(
        { worker: worker.id, workerPid: worker.process.pid, ...exit },
        'cluster: a worker stopped on a configuration error',
      );
      stop('SIGTERM', CONFIG_ERROR_EXIT_CODE);
      return;
    }
    const now = Date.now();
    deaths = [...deaths.filter((at) => now - at < CRASH_LOOP_WINDOW_MS), now];
    if (!everListened) startFailuresInARow += 1;
    if (deaths.length >= CRASH_LOOP_DEATHS || startFailuresInARow >= CRASH_LOOP_DEATHS) {
      log.error(
        {
          worker: worker.id,
          workerPid: worker.process.pid,
          ...exit,
          deaths: deaths.length,
          windowMs: CRASH_LOOP_WINDOW_MS,
          startFailuresInARow,
        },
        'cluster: workers keep dying; not restarting them',
      );
      stop('SIGTERM', 1);
      return;
    }
    const delayMs = restartDelayMs(Math.max(deaths.length, startFailuresInARow));
    log.warn(
      { worker: worker.id, workerPid: worker.process.pid, ...exit, restartInMs: delayMs },
      'cluster: worker exited; starting a replacement',
    );
    const timer = setTimeout(() => {
      restarts.delete(timer);
      fork();
    }, delayMs);
    restarts.add(timer);
  });

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));

  log.info({ workers: options.workers }, 'cluster: primary starting workers');
  for (let i = 0; i < options.workers; i += 1) fork();
}
