// Fixed-window counters behind one interface: in-process now, Redis for many instances.

export interface WindowCount {
  /** Hits counted in the current window, including this one for `increment`. */
  count: number;
  /** Epoch milliseconds at which the current window ends. */
  resetAt: number;
}

export interface RateLimitStore {
  increment(key: string, windowMs: number): Promise<WindowCount>;
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
