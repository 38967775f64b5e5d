import { lookupPrefixOf } from '../auth/api-key.js';
import type { ApiKeyVerifier, AuthContext, CacheEntry, VerifyFailure } from '../auth/verify-api-key.js';
import type { RateLimitStore, WindowCount } from '../rate-limit/store.js';

// The failed-key-check limit per client address (AUTH_FAILURE_LIMIT per window), atomic under
// parallel load:
// - A database lookup of a key prefix (the expensive part of a check) first reserves a slot of the
//   address's budget. Requests waiting for the same lookup share it. A found key gives the slot
//   back; an unknown one keeps it as its failure. Past the limit nothing is looked up (429).
// - A check that fails without a new lookup (wrong secret, revoked, expired, malformed) takes a
//   slot atomically before it is answered: within the limit 401, past it 429.
// So of N parallel guesses exactly the limit are answered 401, whatever mix they are. A key this
// instance looked up within API_KEY_CACHE_TTL_MS is checked from memory and costs no counter.

export type KeyCheck =
  | { kind: 'valid'; context: AuthContext }
  | { kind: 'refused'; reason: VerifyFailure | 'ambiguous' }
  | { kind: 'limited'; window: WindowCount };

type Lookup = { kind: 'found'; entry: CacheEntry; reservation: WindowCount } | { kind: 'limited'; window: WindowCount };

export interface KeyCheckOptions {
  verifier: ApiKeyVerifier;
  store: RateLimitStore;
  limit: number;
  windowMs: number;
}

export class KeyCheckGuard {
  private readonly lookups = new Map<string, Promise<Lookup>>();

  constructor(private readonly options: KeyCheckOptions) {}

  /** Checks a presented key (or an ambiguous pair of them) for a client address. */
  async check(address: string, presented: { kind: 'key'; key: string } | { kind: 'ambiguous' }): Promise<KeyCheck> {
    const failureKey = `auth-fail:${address}`;
    if (presented.kind === 'ambiguous') return this.failed(failureKey, 'ambiguous');
    const prefix = lookupPrefixOf(presented.key);
    if (prefix === null) return this.failed(failureKey, 'malformed');

    const cached = this.options.verifier.fresh(prefix);
    if (cached) return this.settle(failureKey, this.options.verifier.check(presented.key, cached), false);

    const flightKey = `${failureKey}|${prefix}`;
    let flight = this.lookups.get(flightKey);
    const owner = flight === undefined;
    if (!flight) {
      flight = this.reservedLookup(failureKey, prefix).finally(() => this.lookups.delete(flightKey));
      this.lookups.set(flightKey, flight);
    }
    const lookup = await flight;
    if (lookup.kind === 'limited') return { kind: 'limited', window: lookup.window };
    // The request that made an unknown prefix's lookup already holds its failure's slot.
    return this.settle(failureKey, this.options.verifier.check(presented.key, lookup.entry), owner && !lookup.entry.row);
  }

  private async reservedLookup(failureKey: string, prefix: string): Promise<Lookup> {
    const { store } = this.options;
    const reservation = await store.increment(failureKey, this.options.windowMs);
    if (reservation.count > this.options.limit) {
      // Nothing was looked up; the slot goes back so the count stays failures plus lookups in flight.
      await store.release(failureKey).catch(() => {});
      return { kind: 'limited', window: reservation };
    }
    let entry: CacheEntry;
    try {
      entry = await this.options.verifier.lookup(prefix);
    } catch (error) {
      // The check did not happen (the database is down, say): that is no failed guess.
      await store.release(failureKey).catch(() => {});
      throw error;
    }
    if (entry.row) await store.release(failureKey);
    return { kind: 'found', entry, reservation };
  }

  private async settle(
    failureKey: string,
    result: ReturnType<ApiKeyVerifier['check']>,
    failureAlreadyCounted: boolean,
  ): Promise<KeyCheck> {
    if (result.ok) return { kind: 'valid', context: result.context };
    if (failureAlreadyCounted) return { kind: 'refused', reason: result.reason };
    return this.failed(failureKey, result.reason);
  }

  private async failed(failureKey: string, reason: VerifyFailure | 'ambiguous'): Promise<KeyCheck> {
    const window = await this.options.store.increment(failureKey, this.options.windowMs);
    return window.count > this.options.limit ? { kind: 'limited', window } : { kind: 'refused', reason };
  }
}
