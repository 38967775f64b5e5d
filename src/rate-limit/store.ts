// Fixed-window counters behind one interface: in-process now, Redis for many instances.
//
// Limits reserve before they work: a guarded attempt first increments its counter (atomically,
// so of N parallel attempts exactly the limit see a count within it), then does the expensive
// work (a key lookup, a password check), then gives the slot back with `release` when the
// attempt turned out not to count (a valid key, a right password). Checking first and counting
// after the work would let every parallel attempt pass the check before any of them counted.

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
