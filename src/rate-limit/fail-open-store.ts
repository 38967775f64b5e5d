import type { RateLimitStore, WindowCount } from './store.js';

// Rate limiting must never take the API down with it. While the shared store (Redis) fails, each
// instance counts in its own memory: the limit then holds per instance instead of in total, which
// is the documented tolerance. One warning marks the start of an outage and one info line its
// end; the error text goes to the log only, never into a response.

export interface FailOpenLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface FailOpenOptions {
  logger: FailOpenLogger;
  /** While the shared store is failing, it is tried again at most this often (one request pays for it). */
  probeIntervalMs?: number;
  now?: () => number;
}

export class FailOpenRateLimitStore implements RateLimitStore {
  private outageSince: number | null = null;
  private nextProbeAt = 0;
  private readonly now: () => number;
  private readonly probeIntervalMs: number;

  constructor(
    private readonly shared: RateLimitStore,
    private readonly local: RateLimitStore,
    private readonly options: FailOpenOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.probeIntervalMs = options.probeIntervalMs ?? 1000;
  }

  /** True while counting falls back to this process. */
  get degraded(): boolean {
    return this.outageSince !== null;
  }

  increment(key: string, windowMs: number): Promise<WindowCount> {
    return this.run((store) => store.increment(key, windowMs));
  }

  release(key: string): Promise<void> {
    return this.run((store) => store.release(key));
  }

  reserve(
    key: string,
    alsoCounted: string,
    limit: number,
    windowMs: number,
  ): Promise<{ admitted: boolean; resetAt: number }> {
    return this.run((store) => store.reserve(key, alsoCounted, limit, windowMs));
  }

  peek(key: string): Promise<WindowCount | null> {
    return this.run((store) => store.peek(key));
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.shared.close(), this.local.close()]);
  }

  private async run<T>(operation: (store: RateLimitStore) => Promise<T>): Promise<T> {
    const now = this.now();
    if (this.outageSince === null || now >= this.nextProbeAt) {
      // During an outage only one request per interval tries the shared store; the rest go local at once.
      if (this.outageSince !== null) this.nextProbeAt = now + this.probeIntervalMs;
      try {
        const result = await operation(this.shared);
        this.recovered();
        return result;
      } catch (error) {
        this.failed(error, now);
      }
    }
    return operation(this.local);
  }

  private failed(error: unknown, now: number): void {
    this.nextProbeAt = now + this.probeIntervalMs;
    if (this.outageSince !== null) return;
    this.outageSince = now;
    this.options.logger.warn(
      { err: error },
      'shared rate-limit store unavailable: counting in this process until it returns (limits now hold per instance)',
    );
  }

  private recovered(): void {
    if (this.outageSince === null) return;
    const outageMs = this.now() - this.outageSince;
    this.outageSince = null;
    this.options.logger.info({ outageMs }, 'shared rate-limit store is back: counting across instances again');
  }
}
