import type { RateLimitStore } from './store.js';

// A limit on failed attempts (guessed keys, wrong passwords) whose check is expensive work (a
// database lookup, scrypt). Two counters per subject in the store:
// - failures: every failed attempt, counted atomically before it is answered. Within the limit
//   it is answered as a failure (401), past it as 429. So of N parallel failures exactly the
//   limit are answered 401, whatever else runs at the same time.
// - attempts in flight: an attempt reserves a slot before its work, and is admitted only while
//   failures plus attempts in flight are below the limit. So the expensive work stays bounded
//   too: past the limit nothing is looked up or hashed. A success gives its slot back; a
//   failure moves it to the failures.

export type Outcome = { kind: 'within'; count: number } | { kind: 'over'; resetAt: number };

export interface Attempt {
  /** The attempt succeeded: its slot goes back. */
  succeeded(): Promise<void>;
  /** The attempt failed: it counts as a failure. */
  failed(): Promise<Outcome>;
  /** The work did not happen (the database was down): the slot goes back, nothing is counted. */
  abandoned(): Promise<void>;
}

export class AttemptLimiter {
  constructor(
    private readonly store: RateLimitStore,
    private readonly options: { name: string; limit: number; windowMs: number },
  ) {}

  private keys(subject: string) {
    return { inFlight: `${this.options.name}:flight:${subject}`, failures: `${this.options.name}:fail:${subject}` };
  }

  /** Reserves a slot for an attempt about to do its work, or says when the subject may try again. */
  async begin(subject: string): Promise<Attempt | { kind: 'over'; resetAt: number }> {
    const { inFlight, failures } = this.keys(subject);
    const reserved = await this.store.reserve(inFlight, failures, this.options.limit, this.options.windowMs);
    if (!reserved.admitted) return { kind: 'over', resetAt: reserved.resetAt };
    let settled = false;
    const settle = () => {
      if (settled) throw new Error('an attempt is settled once');
      settled = true;
    };
    return {
      succeeded: async () => {
        settle();
        await this.store.release(inFlight);
      },
      failed: async () => {
        settle();
        await this.store.release(inFlight);
        return this.fail(subject);
      },
      abandoned: async () => {
        settle();
        await this.store.release(inFlight).catch(() => {});
      },
    };
  }

  /** Counts a failure that needed no reserved work (decided from memory): within or over the limit. */
  async fail(subject: string): Promise<Outcome> {
    const window = await this.store.increment(this.keys(subject).failures, this.options.windowMs);
    return window.count > this.options.limit
      ? { kind: 'over', resetAt: window.resetAt }
      : { kind: 'within', count: window.count };
  }
}
