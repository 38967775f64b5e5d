import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Webhook } from 'standardwebhooks';
import { eventJson } from '../events/event-json.js';
import { withJitter } from '../lib/jitter.js';
import { LeasingWorker } from '../lib/leasing.js';
import type { Sealer } from '../lib/sealer.js';
import type { DeliveryJob, DeliveryRepository } from './delivery-repository.js';
import type { Outbox } from './outbox-repository.js';
import { send, TOTAL_TIMEOUT_MS, type AttemptOutcome } from './sender.js';
import { checkDeliveryUrl, checkedLookup, type Resolve } from './url-safety.js';

// The delivery worker of one instance: it dispatches the outbox (each endpoint is given the events
// it takes, as delivery rows, as far as it has room), leases due deliveries up to its concurrency,
// sends each (signed, to a checked address), and records the attempt with what follows from it.
// A lease outlives the longest attempt; a worker that dies (SIGKILL) lets its leases run out and
// any instance, itself restarted included, takes the deliveries up again: at least once. Outbox
// rows wait, durable, for whichever instance dispatches next.

/** Deliveries in flight to one endpoint from one instance: a slow endpoint keeps the rest moving. */
export const PER_ENDPOINT_CONCURRENT = 4;
/** How long a lease holds: longer than an attempt can take. */
export const LEASE_MS = TOTAL_TIMEOUT_MS + 20_000;
/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 60 * 60 * 1000;
const POLL_INTERVAL_MS = 1000;
const NUDGE_DELAY_MS = 25;
/**
 * At most one dispatch this often while events keep coming: a burst of changes is dispatched in
 * a few rounds, not a transaction per change. An idle outbox is dispatched NUDGE_DELAY_MS after
 * its first row.
 */
const DISPATCH_INTERVAL_MS = 200;
/**
 * Outbox rows every endpoint has passed are deleted after a dispatch that moved a cursor, and at
 * least this often (the rows of a company whose endpoints are all disabled): a dispatch that only
 * finds a hanging endpoint without room writes nothing.
 */
const CLEAN_UP_INTERVAL_MS = 10_000;

export interface WorkerOptions {
  maxConcurrent: number;
  retryScheduleMs: readonly number[];
  allowPrivateUrls: boolean;
  resolve: Resolve;
  onError: (error: unknown, what: string) => void;
  onDisabled?: (endpointId: string) => void;
  clock?: () => Date;
}

/** The webhook-signature header: one v1 signature per secret (two during a rotation's overlap). */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(id, timestamp, body)).join(' ');
}

export class DeliveryWorker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly perEndpoint = new Map<string, number>();
  private readonly clock: () => Date;
  private readonly leasing: LeasingWorker<DeliveryJob>;
  // Whether the outbox may hold rows: set by this process's changes (dispatchSoon), at start and
  // on every regular look (other processes, the CLI among them, write outbox rows too).
  private outboxPending = true;
  private lastDispatchAt = 0;
  private lastCleanUpAt = 0;
  /** Every connection's lookup: resolves the host then, and refuses an address that is not public. */
  private readonly lookup;

  constructor(
    private readonly deliveries: DeliveryRepository,
    private readonly outbox: Outbox,
    private readonly sealer: Sealer,
    private readonly options: WorkerOptions,
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.lookup = checkedLookup({ allowPrivate: options.allowPrivateUrls, resolve: options.resolve });
    this.leasing = new LeasingWorker<DeliveryJob>({
      intervalMs: POLL_INTERVAL_MS,
      nudgeDelayMs: () =>
        this.outboxPending
          ? Math.max(NUDGE_DELAY_MS, this.lastDispatchAt + DISPATCH_INTERVAL_MS - Date.now())
          : NUDGE_DELAY_MS,
      maxConcurrent: options.maxConcurrent,
      beforeLease: () => this.dispatch(),
      lease: (limit) =>
        this.deliveries.lease({
          owner: this.owner,
          now: this.clock(),
          leaseMs: LEASE_MS,
          limit,
          perEndpoint: PER_ENDPOINT_CONCURRENT,
          busyEndpoints: [...this.perEndpoint]
            .filter(([, count]) => count >= PER_ENDPOINT_CONCURRENT)
            .map(([id]) => id),
        }),
      release: (ids) => this.deliveries.release(ids, this.owner),
      idOf: (job) => job.id,
      // A slow endpoint keeps the rest moving: a lease beyond its share is given back.
      admit: (job) => (this.perEndpoint.get(job.endpointId) ?? 0) < PER_ENDPOINT_CONCURRENT,
      onStart: (job) => this.perEndpoint.set(job.endpointId, (this.perEndpoint.get(job.endpointId) ?? 0) + 1),
      onEnd: (job) => {
        const left = (this.perEndpoint.get(job.endpointId) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(job.endpointId, left);
        else this.perEndpoint.delete(job.endpointId);
      },
      attempt: (job, signal) => this.attempt(job, signal),
      // An attempt cut short records nothing; its lease is given back and the delivery is due again.
      abortAtStop: true,
      onError: (error, what) => this.options.onError(error, what),
      lookWhat: 'dispatching or leasing deliveries',
      jobWhat: (job) => `delivering ${job.eventId}`,
    });
  }

  get activeCount(): number {
    return this.leasing.activeCount;
  }

  start(): void {
    if (this.leasing.isRunning) return;
    this.outboxPending = true;
    this.leasing.start();
  }

  /** An event went into the outbox (its change is committing): dispatch it soon. */
  dispatchSoon(): void {
    this.outboxPending = true;
    this.nudge();
  }

  /**
   * Something may be due: look soon (several nudges make one look). With nothing to dispatch and
   * every slot taken, the next look is the one a finished attempt or the regular timer makes.
   */
  nudge(): void {
    if (!this.outboxPending && this.leasing.activeCount >= this.options.maxConcurrent) return;
    this.leasing.nudge();
  }

  /** Stops leasing, aborts attempts in flight and gives their leases back (they are due again). */
  async stop(): Promise<void> {
    await this.leasing.stop();
  }

  /**
   * Works until nothing is left to do now: the outbox dispatched to every endpoint with room, and
   * every delivery due now sent and its attempt recorded. Retries due later are not waited for.
   * After it, "nothing more arrived" is a fact rather than a wait (tests use it for that); it
   * returns at once when the worker is stopped.
   */
  async drain(): Promise<void> {
    await this.leasing.drain(() => {
      this.outboxPending = true;
    });
  }

  /**
   * The outbox part of a look: when it may hold rows (a change of this process, or a regular look,
   * as other processes write rows too), each endpoint is given the events it takes. True when it
   * moved a cursor.
   */
  private async dispatch(): Promise<boolean> {
    // A regular look comes POLL_INTERVAL_MS after the last one; the margin absorbs timer drift.
    const regular = Date.now() - this.lastDispatchAt >= POLL_INTERVAL_MS - DISPATCH_INTERVAL_MS;
    if (!this.outboxPending && !regular) return false;
    let moved = false;
    // Cleared first: a change that commits meanwhile sets it again, and is not missed.
    this.outboxPending = false;
    this.lastDispatchAt = Date.now();
    for (let more = true; this.leasing.isRunning && more;) {
      const round = await this.outbox.dispatch();
      more = round.more;
      moved ||= round.moved > 0;
    }
    if (moved || Date.now() - this.lastCleanUpAt >= CLEAN_UP_INTERVAL_MS) {
      this.lastCleanUpAt = Date.now();
      await this.outbox.cleanUp();
    }
    return moved;
  }

  private secretsOf(job: DeliveryJob, now: Date): string[] {
    const secrets = [this.sealer.open(job.secretSealed)];
    if (job.previousSecretSealed && job.previousSecretExpiresAt && job.previousSecretExpiresAt > now.toISOString()) {
      secrets.push(this.sealer.open(job.previousSecretSealed));
    }
    return secrets;
  }

  private async attempt(job: DeliveryJob, signal: AbortSignal): Promise<void> {
    const startedAt = this.clock();
    // The URL's form here; its host's address in the connection's lookup, where it is used.
    const checked = checkDeliveryUrl(job.url, this.options.allowPrivateUrls);
    let outcome: AttemptOutcome;
    if (!checked.ok) {
      outcome = {
        succeeded: false,
        statusCode: null,
        excerpt: null,
        error: `not sent: ${checked.message}`,
        durationMs: 0,
      };
    } else {
      const body = eventJson(job.event);
      outcome = await send({
        url: checked.url,
        lookup: this.lookup,
        body,
        signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'InvoicingAPI-Webhooks/1',
          'webhook-id': job.eventId,
          'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
          'webhook-signature': signatureHeader(this.secretsOf(job, startedAt), job.eventId, startedAt, body),
        },
      });
    }
    // Shutting down: no attempt is recorded; stop() gives the lease back.
    if (signal.aborted) return;
    const finished = this.clock();
    const attemptsMade = job.attempts + 1;
    const delay = this.options.retryScheduleMs[attemptsMade - 1];
    const retryAt = outcome.succeeded || delay === undefined ? null : new Date(finished.getTime() + withJitter(delay));
    const { disabled } = await this.deliveries.recordAttempt(
      job,
      this.owner,
      {
        attemptedAt: startedAt.toISOString(),
        durationMs: outcome.durationMs,
        statusCode: outcome.statusCode,
        succeeded: outcome.succeeded,
        excerpt: outcome.excerpt,
        error: outcome.error,
      },
      retryAt,
      new Date(finished.getTime() - DISABLE_AFTER_FAILING_MS),
    );
    if (disabled) this.options.onDisabled?.(job.endpointId);
    // A retry due before the next regular look (short schedules, in tests) gets a look of its own.
    if (retryAt && retryAt.getTime() - finished.getTime() < POLL_INTERVAL_MS) {
      setTimeout(() => this.nudge(), retryAt.getTime() - finished.getTime()).unref();
    }
  }
}
