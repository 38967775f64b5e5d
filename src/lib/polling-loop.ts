// One background loop of an instance: it looks for work on a regular interval and soon after a
// nudge, never two looks at once (a nudge during a look makes one more look after it), and stops
// by waiting for the look under way. The workers that lease rows (email, webhook deliveries) and
// the schedulers that run a pass per period are built on it; what a look does is theirs.

export interface PollingLoopOptions {
  /** The regular look, for work that other processes made due or that came due by time. */
  intervalMs: number;
  /** How soon a nudge looks: several nudges within it make one look. */
  nudgeDelayMs: number | (() => number);
  /** One look. It resolves to true when it found more than it could take: then it looks again soon. */
  look: () => Promise<boolean | void>;
  onError: (error: unknown) => void;
}

export class PollingLoop {
  private interval: NodeJS.Timeout | undefined;
  private nudgeTimer: NodeJS.Timeout | undefined;
  private running = false;
  private looking: Promise<void> | null = null;
  private lookAgain = false;

  constructor(private readonly options: PollingLoopOptions) {}

  get isRunning(): boolean {
    return this.running;
  }

  /** The look under way, if any (resolves when it ends, never rejects). */
  get current(): Promise<void> | null {
    return this.looking;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.interval = setInterval(() => this.poll(), this.options.intervalMs);
    this.interval.unref();
    this.nudge();
  }

  /** Something may be due: look soon. */
  nudge(): void {
    if (!this.running || this.nudgeTimer) return;
    const delay = this.options.nudgeDelayMs;
    this.nudgeTimer = setTimeout(
      () => {
        this.nudgeTimer = undefined;
        this.poll();
      },
      typeof delay === 'number' ? delay : delay(),
    );
    this.nudgeTimer.unref();
  }

  /** Looks now unless a look is under way (then once more after it); resolves when that look ends. */
  poll(): Promise<void> {
    if (!this.running) return Promise.resolve();
    if (this.looking) {
      this.lookAgain = true;
      return this.looking;
    }
    const looking = this.options
      .look()
      .then((more) => {
        if (more) this.lookAgain = true;
      })
      .catch((error: unknown) => this.options.onError(error))
      .finally(() => {
        this.looking = null;
        if (this.lookAgain) {
          this.lookAgain = false;
          this.nudge();
        }
      });
    this.looking = looking;
    return looking;
  }

  /** Stops looking: no new look starts, and the one under way is waited for. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.interval);
    clearTimeout(this.nudgeTimer);
    this.nudgeTimer = undefined;
    await this.looking;
  }
}
