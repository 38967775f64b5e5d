// At most `max` pieces of work at once; the rest wait their turn, first come first served.
// Bounds the memory and database connections that large reads take together, whatever the
// number of clients, while every other request (health, writes) goes on. A freed slot is handed
// over on the next turn of the event loop, not at once: work that never waits for real I/O (a
// synchronous SQLite read) would otherwise run slot after slot in one unbroken chain of
// microtasks, and nothing else — not even a health check — would be answered meanwhile.

export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly max: number,
    /** Past this many waiting, `run` fails at once with `onFull()` instead of queueing. */
    private readonly maxWaiting: number,
    private readonly onFull: () => Error,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active < this.max) {
      this.active += 1;
    } else {
      if (this.waiting.length >= this.maxWaiting) throw this.onFull();
      // The slot is handed over by the one that finishes, so `active` stays as it is.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) setImmediate(next);
      else this.active -= 1;
    }
  }
}
