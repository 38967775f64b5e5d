// Fixed-window counters behind one interface: in-process now, Redis for many instances.
//
// Counting is atomic (of N parallel hits exactly the limit see a count within it), and limits
// that guard expensive work reserve a slot before the work (see attempt-limiter.ts).

export interface WindowCount {
  /** Hits counted in the current window, including this one for `increment`. */
  count: number;
  /** Epoch milliseconds at which the current window ends. */
  resetAt: number;
}

export interface RateLimitStore {
  /** Counts a hit in `key`'s window (starting one if needed), atomically. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** Gives back one hit of `key`'s current window (never below zero; nothing when it is empty). */
  release(key: string): Promise<void>;
  /**
   * Atomically: when `key`'s count plus `alsoCounted`'s is below `limit`, counts a hit in `key`
   * (starting its window) and answers admitted; otherwise counts nothing.
   */
  reserve(
    key: string,
    alsoCounted: string,
    limit: number,
    windowMs: number,
  ): Promise<{ admitted: boolean; resetAt: number }>;
  /** The current window's count without counting a hit; null when the window is empty. */
  peek(key: string): Promise<WindowCount | null>;
  close(): Promise<void>;
}

export class MemoryRateLimitStore implements RateLimitStore {
  private readonly windows = new Map<string, WindowCount>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    // Expired windows are dropped once a minute so idle keys do not hold memory.
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return Promise.resolve({ count: window.count, resetAt: window.resetAt });
  }

  reserve(
    key: string,
    alsoCounted: string,
    limit: number,
    windowMs: number,
  ): Promise<{ admitted: boolean; resetAt: number }> {
    const now = this.now();
    const live = (k: string) => {
      const window = this.windows.get(k);
      return window && window.resetAt > now ? window : undefined;
    };
    const held = live(key);
    const counted = live(alsoCounted);
    if ((held?.count ?? 0) + (counted?.count ?? 0) >= limit) {
      return Promise.resolve({ admitted: false, resetAt: counted?.resetAt ?? held?.resetAt ?? now + windowMs });
    }
    const window = held ?? { count: 0, resetAt: now + windowMs };
    window.count += 1;
    this.windows.set(key, window);
    return Promise.resolve({ admitted: true, resetAt: window.resetAt });
  }

  release(key: string): Promise<void> {
    const window = this.windows.get(key);
    if (window && window.resetAt > this.now() && window.count > 0) window.count -= 1;
    return Promise.resolve();
  }

  peek(key: string): Promise<WindowCount | null> {
    const window = this.windows.get(key);
    if (!window || window.resetAt <= this.now()) return Promise.resolve(null);
    return Promise.resolve({ count: window.count, resetAt: window.resetAt });
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    this.windows.clear();
    return Promise.resolve();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, window] of this.windows) if (window.resetAt <= now) this.windows.delete(key);
  }
}
