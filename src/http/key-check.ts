import { lookupPrefixOf } from '../auth/api-key.js';
import type { ApiKeyVerifier, AuthContext, CacheEntry, VerifyFailure } from '../auth/verify-api-key.js';
import { AttemptLimiter, type Attempt, type Outcome } from '../rate-limit/attempt-limiter.js';
import type { RateLimitStore } from '../rate-limit/store.js';

// The failed-key-check limit per client address (AUTH_FAILURE_LIMIT per window), exact under
// parallel load (see attempt-limiter.ts):
// - A database lookup of a key prefix, the expensive part of a check, is an attempt: it reserves
//   a slot first, and past the limit nothing is looked up (429). Requests waiting for the same
//   lookup share it. A found key gives the slot back; an unknown one turns it into a failure.
// - A check that fails without a lookup of its own (wrong secret, revoked, expired, malformed, a
//   cached unknown prefix, a second request for an unknown prefix) counts its failure before it
//   is answered: within the limit 401, past it 429.
// So of N parallel guesses of any mix exactly the limit are answered 401. A key this instance
// looked up within API_KEY_CACHE_TTL_MS is checked from memory, and a valid one costs no counter.

export type KeyCheck =
  | { kind: 'valid'; context: AuthContext }
  | { kind: 'refused'; reason: VerifyFailure | 'ambiguous' }
  | { kind: 'limited'; resetAt: number };

type Lookup = { kind: 'found'; entry: CacheEntry; attempt: Attempt } | { kind: 'limited'; resetAt: number };

export interface KeyCheckOptions {
  verifier: ApiKeyVerifier;
  store: RateLimitStore;
  limit: number;
  windowMs: number;
}

export class KeyCheckGuard {
  private readonly lookups = new Map<string, Promise<Lookup>>();
  private readonly attempts: AttemptLimiter;

  constructor(private readonly options: KeyCheckOptions) {
    this.attempts = new AttemptLimiter(options.store, {
      name: 'auth',
      limit: options.limit,
      windowMs: options.windowMs,
    });
  }

  /** Checks a presented key (or an ambiguous pair of them) for a client address. */
  async check(address: string, presented: { kind: 'key'; key: string } | { kind: 'ambiguous' }): Promise<KeyCheck> {
    if (presented.kind === 'ambiguous') return this.refuse(address, 'ambiguous', null);
    const prefix = lookupPrefixOf(presented.key);
    if (prefix === null) return this.refuse(address, 'malformed', null);

    const cached = this.options.verifier.fresh(prefix);
    if (cached) return this.settle(address, presented.key, cached, null);

    const flightKey = `${address}|${prefix}`;
    let flight = this.lookups.get(flightKey);
    const owner = flight === undefined;
    if (!flight) {
      flight = this.lookup(address, prefix).finally(() => this.lookups.delete(flightKey));
      this.lookups.set(flightKey, flight);
    }
    const lookup = await flight;
    if (lookup.kind === 'limited') return lookup;
    return this.settle(address, presented.key, lookup.entry, owner ? lookup.attempt : null);
  }

  private async lookup(address: string, prefix: string): Promise<Lookup> {
    const attempt = await this.attempts.begin(address);
    if ('kind' in attempt) return { kind: 'limited', resetAt: attempt.resetAt };
    try {
      return { kind: 'found', entry: await this.options.verifier.lookup(prefix), attempt };
    } catch (error) {
      await attempt.abandoned();
      throw error;
    }
  }

  /** The check against the looked-up row; `attempt` is the lookup's reservation when this request owns it. */
  private async settle(address: string, rawKey: string, entry: CacheEntry, attempt: Attempt | null): Promise<KeyCheck> {
    // An existing prefix was no failed guess by itself: its lookup's slot goes back first.
    if (attempt && entry.row) await attempt.succeeded();
    const result = this.options.verifier.check(rawKey, entry);
    if (result.ok) return { kind: 'valid', context: result.context };
    return this.refuse(address, result.reason, attempt && !entry.row ? attempt : null);
  }

  private async refuse(
    address: string,
    reason: VerifyFailure | 'ambiguous',
    attempt: Attempt | null,
  ): Promise<KeyCheck> {
    const outcome: Outcome = attempt ? await attempt.failed() : await this.attempts.fail(address);
    return outcome.kind === 'over' ? { kind: 'limited', resetAt: outcome.resetAt } : { kind: 'refused', reason };
  }
}
