import { Redis, type Result } from 'ioredis';
import type { RateLimitStore, WindowCount } from './store.js';

// Fixed-window counters shared by every instance through Redis. One Lua script increments the
// counter and starts its window in a single atomic step, so concurrent hits from any number of
// instances are counted exactly and N per window holds in total.

const INCREMENT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`;

const RELEASE = `
local held = tonumber(redis.call('GET', KEYS[1]) or '0')
if held > 0 then redis.call('DECR', KEYS[1]) end
return held
`;

// KEYS[1] gets the hit when KEYS[1] + KEYS[2] is below ARGV[1] (the limit).
const RESERVE = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0') + tonumber(redis.call('GET', KEYS[2]) or '0')
if used >= tonumber(ARGV[1]) then
  local ttl = redis.call('PTTL', KEYS[2])
  if ttl < 0 then ttl = redis.call('PTTL', KEYS[1]) end
  return { 0, ttl }
end
redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return { 1, ttl }
`;

const PEEK = `
local count = redis.call('GET', KEYS[1])
if not count then return nil end
return { tonumber(count), redis.call('PTTL', KEYS[1]) }
`;

export interface RedisRateLimitStoreOptions {
  url: string;
  /** Prepended to every key, so that several deployments (or test runs) can share one Redis. */
  keyPrefix?: string;
  /** A command not answered within this time fails; the caller then counts in process. */
  commandTimeoutMs?: number;
  connectTimeoutMs?: number;
}

type ScriptReply = [number, number] | null;

declare module 'ioredis' {
  interface RedisCommander<Context> {
    rateLimitIncrement(key: string, windowMs: number): Result<ScriptReply, Context>;
    rateLimitRelease(key: string): Result<number, Context>;
    rateLimitReserve(
      key: string,
      alsoCounted: string,
      limit: number,
      windowMs: number,
    ): Result<[number, number], Context>;
    rateLimitPeek(key: string): Result<ScriptReply, Context>;
  }
}

export class RedisRateLimitStore implements RateLimitStore {
  readonly client: Redis;
  private readonly keyPrefix: string;
  private readonly commandTimeoutMs: number;

  constructor(options: RedisRateLimitStoreOptions) {
    this.keyPrefix = options.keyPrefix ?? '';
    this.commandTimeoutMs = options.commandTimeoutMs ?? 250;
    this.client = new Redis(options.url, {
      // While Redis is unreachable a command fails at once instead of waiting in a queue,
      // and a command already sent is not retried: the request must never wait on Redis.
      // The command timeout is this store's own (answered), not ioredis's.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: options.connectTimeoutMs ?? 1000,
      // Reconnect forever, backing off to one attempt a second, so shared counting resumes by itself.
      retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
      lazyConnect: false,
    });
    // Errors reach callers as rejected commands; the event only needs a listener so that ioredis
    // does not print every reconnect failure.
    this.client.on('error', () => {});
    // Sent by digest (EVALSHA), falling back to the full script once per connection.
    this.client.defineCommand('rateLimitIncrement', { numberOfKeys: 1, lua: INCREMENT });
    this.client.defineCommand('rateLimitRelease', { numberOfKeys: 1, lua: RELEASE });
    this.client.defineCommand('rateLimitReserve', { numberOfKeys: 2, lua: RESERVE });
    this.client.defineCommand('rateLimitPeek', { numberOfKeys: 1, lua: PEEK });
  }

  /** Resolves when the connection is ready, or false once `timeoutMs` has passed without it. */
  waitUntilReady(timeoutMs: number): Promise<boolean> {
    if (this.client.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ready: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ready);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), timeoutMs);
      this.client.once('ready', onReady);
    });
  }

  /**
   * The command's reply, or a timeout error once `commandTimeoutMs` has passed without one. A
   * timer that fires late because the event loop was busy (a burst of requests handled in one
   * turn) must not fail a command whose reply is already waiting to be read: the timeout is
   * decided after that turn's I/O (setImmediate runs after the poll phase that reads it). Failing
   * it would send this instance to its own counters, and a limit shared by every instance would
   * be counted twice.
   */
  private answered<T>(command: Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const settle = (finish: () => void) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        finish();
      };
      const timer = setTimeout(
        () =>
          setImmediate(() =>
            settle(() => reject(new Error(`Redis did not answer within ${this.commandTimeoutMs} ms`))),
          ),
        this.commandTimeoutMs,
      );
      command.then(
        (value) => settle(() => resolve(value)),
        (error: unknown) => settle(() => reject(error instanceof Error ? error : new Error(String(error)))),
      );
    });
  }

  async increment(key: string, windowMs: number): Promise<WindowCount> {
    const reply = await this.answered(this.client.rateLimitIncrement(this.keyPrefix + key, windowMs));
    if (!reply) throw new Error('rate-limit script returned nothing');
    return { count: Number(reply[0]), resetAt: Date.now() + Math.max(0, Number(reply[1])) };
  }

  async release(key: string): Promise<void> {
    await this.answered(this.client.rateLimitRelease(this.keyPrefix + key));
  }

  async reserve(
    key: string,
    alsoCounted: string,
    limit: number,
    windowMs: number,
  ): Promise<{ admitted: boolean; resetAt: number }> {
    const [admitted, ttl] = await this.answered(
      this.client.rateLimitReserve(this.keyPrefix + key, this.keyPrefix + alsoCounted, limit, windowMs),
    );
    return { admitted: Number(admitted) === 1, resetAt: Date.now() + Math.max(0, Number(ttl)) };
  }

  async peek(key: string): Promise<WindowCount | null> {
    const reply = await this.answered(this.client.rateLimitPeek(this.keyPrefix + key));
    if (!reply || Number(reply[1]) <= 0) return null;
    return { count: Number(reply[0]), resetAt: Date.now() + Number(reply[1]) };
  }

  async close(): Promise<void> {
    if (this.client.status === 'ready') {
      await this.client.quit().catch(() => this.client.disconnect());
    } else {
      this.client.disconnect();
    }
  }
}
