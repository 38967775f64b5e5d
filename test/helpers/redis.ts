import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { eventually, GiveUp } from './eventually.js';
import { freePort } from './servers.js';

// Redis-backed tests use the Redis at TEST_REDIS_URL (default: the local one), each run under a
// key prefix of its own. Under CI=true a missing Redis is a failure; elsewhere those tests are
// skipped with a printed reason. Outage tests never touch that shared Redis: they start a
// throwaway redis-server of their own and stop it.

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisProblem(url: string): Promise<string | null> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    client.disconnect();
  }
}

async function redisAvailable(): Promise<boolean> {
  const problem = await redisProblem(TEST_REDIS_URL);
  if (problem === null) return true;
  if (process.env.CI)
    throw new Error(`Redis is required under CI but does not answer at ${TEST_REDIS_URL}: ${problem}`);
  console.warn(
    `[tests] Redis tests skipped: no answer at ${TEST_REDIS_URL} (${problem}). Set CI=true to make this a failure.`,
  );
  return false;
}

export const REDIS_AVAILABLE: boolean = await redisAvailable();

function redisServerInstalled(): boolean {
  const result = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  if (result.status === 0) return true;
  const reason = result.error?.message ?? `exit ${result.status}`;
  if (process.env.CI) throw new Error(`redis-server is required under CI for the Redis outage tests: ${reason}`);
  console.warn(
    `[tests] Redis outage tests skipped: cannot run redis-server (${reason}). Set CI=true to make this a failure.`,
  );
  return false;
}

/** Whether outage tests can start a throwaway redis-server of their own. */
export const REDIS_SERVER_INSTALLED: boolean = redisServerInstalled();

/** A key prefix no other test run uses, so runs sharing one Redis never see each other's counters. */
export function uniqueRedisPrefix(label: string): string {
  return `test:${label}:${process.pid}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under the prefix (tests clean up after themselves). */
export async function deleteRedisKeys(prefix: string, url = TEST_REDIS_URL): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  client.on('error', () => {});
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** A redis-server child process on a loopback port of its own, which a test may stop, pause and restart. */
export class ThrowawayRedis {
  private child: ChildProcess | null = null;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<ThrowawayRedis> {
    const redis = new ThrowawayRedis(await freePort());
    await redis.start();
    return redis;
  }

  /** Starts (or restarts, on the same port) the server and waits until it answers. */
  async start(): Promise<void> {
    if (this.child) return;
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      { stdio: 'ignore' },
    );
    this.child = child;
    const failed = new Promise<never>((_, reject) =>
      child.once('error', (error) => reject(new GiveUp(`redis-server did not start: ${error.message}`))),
    );
    failed.catch(() => {});
    await eventually(async () => (await Promise.race([redisProblem(this.url), failed])) === null, {
      intervalMs: 50,
      what: `the throwaway redis-server on port ${this.port} to answer`,
    });
  }

  /** Kills the server and waits for it to be gone. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  /** Freezes the server (SIGSTOP): connections stay open but nothing answers. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }
}

/**
 * The environment of service processes that share one PostgreSQL schema and one Redis prefix,
 * with a rate limit low enough to count across them (and key checks that never trip the
 * failure limit).
 */
export function sharedStoresEnv(
  databaseUrl: string,
  redisPrefix: string,
  rateLimitMax: number,
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: redisPrefix,
    RATE_LIMIT_MAX: String(rateLimitMax),
    RATE_LIMIT_WINDOW_MS: '600000',
    AUTH_FAILURE_LIMIT: '10000',
  };
}
