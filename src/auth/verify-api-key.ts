import type { ApiKeyRepository, ApiKeyRow } from '../repositories/api-key-repository.js';
import { digestApiKey, digestsEqual, lookupPrefixOf, modeOf } from './api-key.js';
import { parsePermissions, type Permission } from './permissions.js';

export interface AuthContext {
  companyId: string;
  /** A live key (true) works on live data; a test key (false) on its company's test sandbox only. */
  livemode: boolean;
  keyId: string;
  keyPrefix: string;
  permissions: ReadonlySet<Permission>;
}

export type VerifyFailure = 'malformed' | 'unknown' | 'wrong_secret' | 'revoked' | 'expired';

export type VerifyResult = { ok: true; context: AuthContext } | { ok: false; reason: VerifyFailure };

export interface CacheEntry {
  row: ApiKeyRow | undefined;
  permissions: ReadonlySet<Permission>;
  fetchedAt: number;
}

const MAX_CACHE_ENTRIES = 10_000;
const LAST_USED_THROTTLE_MS = 60_000;

export interface ApiKeyVerifierOptions {
  /** How long a looked-up key row is trusted; bounds how late a revocation elsewhere is seen. */
  cacheTtlMs: number;
  now?: () => number;
  onBackgroundError?: (error: unknown) => void;
}

/**
 * Checks a presented key in a fixed order (well-formed, exists, secret matches, not revoked,
 * not expired) and returns a result instead of throwing. Rows are cached briefly per lookup
 * prefix so that a hot key costs no query, and last-use writes are throttled per key.
 */
export class ApiKeyVerifier {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly lastTouched = new Map<string, number>();
  private readonly inFlight = new Map<string, Promise<CacheEntry>>();
  /** last_used_at writes under way: they are not awaited by the request that made them. */
  private readonly touching = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly options: ApiKeyVerifierOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Looks the key up (cached) and checks it: for callers that need no limiter between the two. */
  async verify(rawKey: string): Promise<VerifyResult> {
    const lookupPrefix = lookupPrefixOf(rawKey);
    if (lookupPrefix === null) return { ok: false, reason: 'malformed' };
    return this.check(rawKey, this.fresh(lookupPrefix) ?? (await this.lookup(lookupPrefix)));
  }

  /** The cached lookup of this prefix while it is trusted, else undefined (a lookup is needed). */
  fresh(lookupPrefix: string): CacheEntry | undefined {
    const cached = this.cache.get(lookupPrefix);
    return cached && this.now() - cached.fetchedAt < this.options.cacheTtlMs ? cached : undefined;
  }

  /** The key row of this prefix (or none), cached for the TTL: the one database read of a check. */
  lookup(lookupPrefix: string): Promise<CacheEntry> {
    return this.load(lookupPrefix);
  }

  /**
   * The checks after the lookup, in order: exists, secret matches, not revoked, not expired.
   * Synchronous: what it needs was looked up before.
   */
  check(rawKey: string, entry: CacheEntry): VerifyResult {
    const row = entry.row;
    // The digest is computed even for unknown prefixes so that timing says nothing about existence.
    const digest = digestApiKey(rawKey);
    if (!row) return { ok: false, reason: 'unknown' };
    if (!digestsEqual(digest, row.key_digest)) return { ok: false, reason: 'wrong_secret' };
    // The digest covers the environment part, so this holds for every stored key; it is checked
    // anyway, since the mode decides which data the key reaches.
    if ((modeOf(rawKey) === 'live') !== (row.livemode === 1)) return { ok: false, reason: 'wrong_secret' };
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
    const now = this.now();
    if (row.expires_at !== null && Date.parse(row.expires_at) <= now) return { ok: false, reason: 'expired' };
    this.touch(row.id, now);
    return {
      ok: true,
      context: {
        companyId: row.company_id,
        livemode: row.livemode === 1,
        keyId: row.id,
        keyPrefix: row.lookup_prefix,
        permissions: entry.permissions,
      },
    };
  }

  /** Drops the cached row so that a revocation made by this process applies at once. */
  forget(lookupPrefix: string): void {
    this.cache.delete(lookupPrefix);
  }

  /** Looks the prefix up (one query, shared by concurrent callers of the same prefix) and caches the row for the TTL. */
  private load(lookupPrefix: string): Promise<CacheEntry> {
    const cached = this.fresh(lookupPrefix);
    if (cached) return Promise.resolve(cached);
    let flight = this.inFlight.get(lookupPrefix);
    if (!flight) {
      flight = this.keys
        .findByLookupPrefix(lookupPrefix)
        .then((row) => {
          const entry: CacheEntry = {
            row,
            permissions: new Set(row ? parsePermissions(row.permissions) : []),
            fetchedAt: this.now(),
          };
          if (this.options.cacheTtlMs > 0) {
            if (this.cache.size >= MAX_CACHE_ENTRIES) this.cache.clear();
            this.cache.set(lookupPrefix, entry);
          }
          return entry;
        })
        .finally(() => this.inFlight.delete(lookupPrefix));
      this.inFlight.set(lookupPrefix, flight);
    }
    return flight;
  }

  private touch(keyId: string, now: number): void {
    const last = this.lastTouched.get(keyId);
    if (last !== undefined && now - last < LAST_USED_THROTTLE_MS) return;
    if (this.lastTouched.size >= MAX_CACHE_ENTRIES) this.lastTouched.clear();
    this.lastTouched.set(keyId, now);
    const touched: Promise<void> = this.keys
      .touchLastUsed(keyId, new Date(now).toISOString())
      .catch((error: unknown) => {
        this.options.onBackgroundError?.(error);
      })
      .finally(() => this.touching.delete(touched));
    this.touching.add(touched);
  }

  /** Resolves once every last_used_at write started so far has finished (or failed): nothing more will land. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.touching]);
  }
}
