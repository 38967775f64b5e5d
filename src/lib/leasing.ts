import { PollingLoop } from './polling-loop.js';

// The leasing worker of one instance, on a PollingLoop: each look leases as many due jobs as it
// has free slots, starts an attempt for each and tracks it until it ends (a finished attempt
// frees its slot and looks again), gives back what it leased but may not start, and at stop
// either lets the attempts under way end or aborts them and gives their leases back. drain()
// works until nothing is due now. What a job is, how it is leased and what an attempt does are
// the caller's (email deliveries, webhook deliveries).

export interface LeasingOptions<J> {
  /** The regular look, for jobs other processes made due or that came due by time. */
  intervalMs: number;
  /** How soon a nudge looks. */
  nudgeDelayMs: number | (() => number);
  /** Attempts in flight at once. */
  maxConcurrent: number;
  /** Work a look does before leasing (say, dispatching an outbox); true when it moved anything. */
  beforeLease?: () => Promise<boolean>;
  /** Leases at most `limit` due jobs for this worker. */
  lease: (limit: number) => Promise<J[]>;
  /** Gives leases back: the jobs are due again at once, for any worker. */
  release: (ids: string[]) => Promise<void>;
  idOf: (job: J) => string;
  /** Whether a leased job may start now (a per-key limit); one that may not is given back. */
  admit?: (job: J) => boolean;
  /** Before an attempt starts and after it ended, for the caller's own counts (per key). */
  onStart?: (job: J) => void;
  onEnd?: (job: J) => void;
  /** One attempt; `signal` is aborted at stop when `abortAtStop`. */
  attempt: (job: J, signal: AbortSignal) => Promise<void>;
  /** true: stop aborts attempts in flight and gives their leases back; false: it lets them end. */
  abortAtStop: boolean;
  /** `what` names the look (lookWhat) or the job (jobWhat). */
  onError: (error: unknown, what: string) => void;
  lookWhat: string;
  jobWhat: (job: J) => string;
}

interface Running {
  abort: AbortController;
  done: Promise<void>;
}

export class LeasingWorker<J> {
  private readonly loop: PollingLoop;
  private readonly inFlight = new Map<string, Running>();
  /** Whether the last look moved anything or leased a job (drain's test of "nothing more"). */
  private lastLookFoundWork = false;

  constructor(private readonly options: LeasingOptions<J>) {
    this.loop = new PollingLoop({
      intervalMs: options.intervalMs,
      nudgeDelayMs: options.nudgeDelayMs,
      look: () => this.look(),
      onError: (error) => options.onError(error, options.lookWhat),
    });
  }

  get isRunning(): boolean {
    return this.loop.isRunning;
  }

  /** Attempts in flight now. */
  get activeCount(): number {
    return this.inFlight.size;
  }

  start(): void {
    this.loop.start();
  }

  /** Something may be due: look soon (several nudges make one look). */
  nudge(): void {
    this.loop.nudge();
  }

  /** Stops leasing; then lets the attempts under way end, or aborts them and gives their leases back. */
  async stop(): Promise<void> {
    if (!this.loop.isRunning) return;
    await this.loop.stop();
    const leased = [...this.inFlight.keys()];
    if (this.options.abortAtStop) for (const { abort } of this.inFlight.values()) abort.abort();
    await this.settled();
    if (this.options.abortAtStop && leased.length > 0)
      await this.options
        .release(leased)
        .catch((error: unknown) => this.options.onError(error, 'releasing leases at shutdown'));
  }

  /**
   * Works until nothing is left to do now: looks (after `beforeLook`) until a look finds nothing,
   * and every attempt it started has ended. Jobs due later are not waited for. Returns at once
   * when the worker is stopped.
   */
  async drain(beforeLook: () => void = () => {}): Promise<void> {
    while (this.loop.isRunning) {
      if (this.loop.current) {
        await this.loop.current;
        continue;
      }
      if (this.inFlight.size > 0) {
        await this.settled();
        continue;
      }
      beforeLook();
      this.lastLookFoundWork = false;
      await this.loop.poll();
      if (!this.lastLookFoundWork && this.inFlight.size === 0 && !this.loop.current) return;
    }
  }

  /** Resolves when every attempt in flight now has ended (never rejects). */
  private async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()].map((running) => running.done));
  }

  /** One look; true when it filled every free slot (more may be due). */
  private async look(): Promise<boolean> {
    const moved = (await this.options.beforeLease?.()) ?? false;
    this.lastLookFoundWork = moved;
    const free = this.options.maxConcurrent - this.inFlight.size;
    if (free <= 0) return false;
    const jobs = await this.options.lease(free);
    this.lastLookFoundWork = moved || jobs.length > 0;
    const excess: string[] = [];
    for (const job of jobs) {
      if (!this.loop.isRunning || (this.options.admit && !this.options.admit(job))) excess.push(this.options.idOf(job));
      else this.begin(job);
    }
    if (excess.length > 0) await this.options.release(excess);
    return jobs.length === free;
  }

  private begin(job: J): void {
    const id = this.options.idOf(job);
    const abort = new AbortController();
    this.options.onStart?.(job);
    const done = this.options
      .attempt(job, abort.signal)
      .catch((error: unknown) => this.options.onError(error, this.options.jobWhat(job)))
      .finally(() => {
        this.inFlight.delete(id);
        this.options.onEnd?.(job);
        this.nudge();
      });
    this.inFlight.set(id, { abort, done });
  }
}
