import { availableParallelism } from 'node:os';

// Configuration comes only from environment variables, read and validated once at start.
// A bad value stops the process with a message naming the variable (see server.ts).

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  host: string;
  port: number;
  /** CLUSTER_WORKERS: server processes on this machine; above 1 a cluster primary forks that many workers (src/cluster.ts). */
  clusterWorkers: number;
  databaseUrl: string;
  databasePoolMax: number;
  redisUrl: string | undefined;
  /** REDIS_KEY_PREFIX: prepended to every rate-limit key, so deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  /** When set, GET /metrics requires Authorization: Bearer <token>. */
  metricsToken: string | undefined;
  /** DATABASE_STARTUP_WAIT_MS: how long start-up waits for an unreachable database before giving up. */
  databaseStartupWaitMs: number;
  /** DATABASE_BUSY_TIMEOUT_MS (SQLite): how long a write waits for another process's lock before answering 503. */
  databaseBusyTimeoutMs: number;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  authFailureLimit: number;
  bodyLimitBytes: number;
  /** RESPONSE_MAX_BYTES: list answers end their page before this size (one item always fits). */
  responseMaxBytes: number;
  /** SOCKET_TIMEOUT_MS: a connection on which no byte moves either way for this long is closed. */
  socketTimeoutMs: number;
  logLevel: LogLevel;
  /** LOG_BUFFER_MAX_BYTES: log lines waiting for stdout beyond this are dropped (and counted). */
  logBufferMaxBytes: number;
  apiKeyCacheTtlMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** TRUST_PROXY: whose X-Forwarded-For/-Proto to believe: false (default), true, a hop count, or addresses/CIDRs. */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  /** DATA_ENCRYPTION_KEY: keys sealing stored secrets, newest first; empty means "the key file beside the SQLite database". */
  dataEncryptionKeys: Buffer[];
  /** WEBHOOK_ALLOW_PRIVATE_URLS: lets webhook endpoints be http and on private addresses (tests, closed networks). */
  webhookAllowPrivateUrls: boolean;
  /** WEBHOOK_RETRY_SCHEDULE_MS: the delays before each retry of a failed delivery. */
  webhookRetryScheduleMs: number[];
  /** WEBHOOK_MAX_CONCURRENT: deliveries in flight at once per instance. */
  webhookMaxConcurrent: number;
  /** REMINDER_INTERVAL_SECONDS: how often each instance runs a reminder pass for today (and once at start); 0: never (docs/reminders.md). */
  reminderIntervalSeconds: number;
  /** RECURRING_INTERVAL_SECONDS, as ms: how often the recurring invoice scheduler passes (and once at start); 0 turns it off. */
  recurringIntervalMs: number;
  /** PDF_WORKERS: threads rendering PDFs per process; default the machine's cores. */
  pdfWorkers: number;
  /** PDF_QUEUE_MAX: PDFs that may wait for a thread per process; past it, 503 with Retry-After. */
  pdfQueueMax: number;
  /** PDF_TIMEOUT_MS: the longest one PDF may take to render once a thread has it. */
  pdfTimeoutMs: number;
  /** PDF_WORKER_MEMORY_MB: the heap one rendering thread (one PDF at a time) may use. */
  pdfWorkerMemoryMb: number;
  /** RECEIVE_MAX_BYTES: the largest received document (POST /purchase-invoice) accepted; 413 above. */
  receiveMaxBytes: number;
  /** RECEIVE_WORKERS: threads reading received documents per process. */
  receiveWorkers: number;
  /** RECEIVE_QUEUE_MAX: received documents that may wait for a reading thread per process; past it, 503 with Retry-After. */
  receiveQueueMax: number;
  /** RECEIVE_TIMEOUT_MS: the longest reading one received document may take once a thread has it (422 past it). */
  receiveTimeoutMs: number;
  /** RECEIVE_WORKER_MEMORY_MB: the heap one reading thread (one document at a time) may use (422 past it). */
  receiveWorkerMemoryMb: number;
  /** PUBLIC_BASE_URL: where customers reach this service (https://invoices.example.com); hosted page links are built from it, none without it. */
  publicBaseUrl: string | null;
  /** HOSTED_RATE_LIMIT_MAX: views (page and downloads) of one hosted page link per HOSTED_RATE_LIMIT_WINDOW_MS. */
  hostedRateLimitMax: number;
  hostedRateLimitWindowMs: number;
  /** Sending documents by email (docs/delivery.md); absent without SMTP_URL: POST …/send then answers 503. */
  email?: EmailConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const DEFAULT_SQLITE_URL = 'sqlite:./data/invoicing.db';

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be a whole number between ${min} and ${max}, got "${raw}"`);
  }
  const value = Number(raw.trim());
  if (value < min || value > max) {
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  }
  return value;
}

function databaseUrl(env: Env): string {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) return DEFAULT_SQLITE_URL;
  if (/^sqlite:.+/.test(raw) || /^postgres(ql)?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError(`DATABASE_URL must look like "sqlite:<path>" or "postgres://user@host:port/db", got "${raw}"`);
}

function redisUrl(env: Env): string | undefined {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return undefined;
  if (/^rediss?:\/\/.+/.test(raw)) return raw;
  throw new ConfigError(`REDIS_URL must look like "redis://host:port", got "${raw}"`);
}

function redisKeyPrefix(env: Env): string {
  const raw = env.REDIS_KEY_PREFIX ?? 'invoicing:rl:';
  if (/^[\x21-\x7e]{0,100}$/.test(raw)) return raw;
  throw new ConfigError(`REDIS_KEY_PREFIX must be at most 100 printable characters without spaces, got "${raw}"`);
}

function trustProxy(env: Env): Config['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d{1,2}$/.test(raw)) {
    const hops = Number(raw);
    return (_address, hop) => hop < hops;
  }
  if (/^[0-9a-zA-Z.:/]+(\s*,\s*[0-9a-zA-Z.:/]+)*$/.test(raw)) return raw; // addresses, CIDRs, loopback…
  throw new ConfigError(
    `TRUST_PROXY must be false, true, a hop count or comma-separated proxy addresses/CIDRs, got "${raw}"`,
  );
}

function logLevel(env: Env): LogLevel {
  const raw = (env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if ((LOG_LEVELS as readonly string[]).includes(raw)) return raw as LogLevel;
  throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
}

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h: Standard Webhooks' suggested schedule, about 28 hours in all. */
export const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

function dataEncryptionKeys(env: Env): Buffer[] {
  const raw = env.DATA_ENCRYPTION_KEY?.trim() ?? '';
  if (raw === '') return [];
  return raw.split(',').map((part) => {
    const text = part.trim();
    const key = Buffer.from(text, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || key.length !== 32) {
      throw new ConfigError(
        'DATA_ENCRYPTION_KEY must be base64 of 32 random bytes (e.g. `openssl rand -base64 32`), or several such keys separated by commas, newest first',
      );
    }
    return key;
  });
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase() ?? '';
  if (raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

function retrySchedule(env: Env, name = 'WEBHOOK_RETRY_SCHEDULE_MS'): number[] {
  const raw = env[name]?.trim() ?? '';
  if (raw === '') return DEFAULT_RETRY_SCHEDULE_MS;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || !parts.every((part) => /^\d{1,9}$/.test(part))) {
    throw new ConfigError(
      `${name} must be up to 20 comma-separated delays in milliseconds (e.g. 5000,300000), got "${raw}"`,
    );
  }
  return parts.map(Number);
}

/** How documents are sent by email: the relay, the sender, optional DKIM, retries. */
export interface EmailConfig {
  /** SMTP_URL: smtp://user:pass@host:587 (STARTTLS) or smtps://…:465; TLS is required unless the host is loopback. */
  smtpUrl: URL;
  /** SMTP_FROM: the address every message is sent from; the company's name is its display name. */
  from: string;
  /** SMTP_TLS_CA_FILE: a PEM file of certificates to trust for the relay beyond the system's (a private CA). */
  tlsCaFile?: string;
  /** EMAIL_DKIM_DOMAIN, EMAIL_DKIM_SELECTOR, EMAIL_DKIM_PRIVATE_KEY_FILE: sign each message (all three, or none). */
  dkim?: { domainName: string; keySelector: string; privateKeyFile: string };
  /** EMAIL_RETRY_SCHEDULE_MS: the delays before each retry of a message the relay did not take. */
  retryScheduleMs: number[];
  /** EMAIL_MAX_CONCURRENT: messages in flight at once per instance. */
  maxConcurrent: number;
}

const EMAIL_ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** Whether a text is one plain email address (no display name, no list). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && EMAIL_ADDRESS.test(value);
}

function emailConfig(env: Env): EmailConfig | undefined {
  const raw = env.SMTP_URL?.trim() ?? '';
  if (raw === '') return undefined;
  let smtpUrl: URL;
  try {
    smtpUrl = new URL(raw);
  } catch {
    throw new ConfigError(
      'SMTP_URL must be a URL such as smtp://user:password@relay.example.com:587 or smtps://relay.example.com:465',
    );
  }
  if (smtpUrl.protocol !== 'smtp:' && smtpUrl.protocol !== 'smtps:') {
    throw new ConfigError(
      `SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS from the start), got ${smtpUrl.protocol}//`,
    );
  }
  const from = env.SMTP_FROM?.trim() ?? '';
  if (!isEmailAddress(from))
    throw new ConfigError(
      `SMTP_FROM must be the address messages are sent from (invoices@example.com) when SMTP_URL is set, got "${from}"`,
    );
  const dkimNames = ['EMAIL_DKIM_DOMAIN', 'EMAIL_DKIM_SELECTOR', 'EMAIL_DKIM_PRIVATE_KEY_FILE'] as const;
  const dkimValues = dkimNames.map((name) => env[name]?.trim() ?? '');
  const given = dkimValues.filter((value) => value !== '').length;
  if (given !== 0 && given !== dkimNames.length)
    throw new ConfigError(`DKIM signing needs all of ${dkimNames.join(', ')}, or none of them`);
  const tlsCaFile = env.SMTP_TLS_CA_FILE?.trim() || undefined;
  return {
    smtpUrl,
    from,
    ...(tlsCaFile ? { tlsCaFile } : {}),
    ...(given > 0
      ? { dkim: { domainName: dkimValues[0]!, keySelector: dkimValues[1]!, privateKeyFile: dkimValues[2]! } }
      : {}),
    retryScheduleMs: retrySchedule(env, 'EMAIL_RETRY_SCHEDULE_MS'),
    maxConcurrent: integer(env, 'EMAIL_MAX_CONCURRENT', 4, 1, 100),
  };
}

function publicBaseUrl(env: Env): string | null {
  const raw = env.PUBLIC_BASE_URL?.trim() ?? '';
  if (raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `PUBLIC_BASE_URL must be the URL customers reach this service at, such as https://invoices.example.com, got "${raw}"`,
    );
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search || url.hash || url.username || url.password)
    throw new ConfigError(
      `PUBLIC_BASE_URL must be an http(s) URL without query, fragment or credentials, got "${raw}"`,
    );
  return url.href.replace(/\/+$/, '');
}

/**
 * Several processes of one machine must count rate limits in one place (Redis) and write through
 * a database built for several writers (PostgreSQL): SQLite's group-commit writer and WAL
 * checkpointer assume one process per database file.
 */
function checkClusterWorkers(config: Config): void {
  const processes = config.clusterWorkers;
  if (processes === 1) return;
  const missing: string[] = [];
  if (config.databaseUrl.startsWith('sqlite:')) {
    missing.push(
      "a PostgreSQL DATABASE_URL (SQLite's group-commit writer and WAL checkpointer are built for one process per database file)",
    );
  }
  if (config.redisUrl === undefined) {
    missing.push(
      `REDIS_URL (rate limits and the failed-key-check limit must be shared by the processes; without Redis each would count alone, allowing up to ${processes} × the limit)`,
    );
  }
  if (missing.length > 0) {
    throw new ConfigError(
      `CLUSTER_WORKERS=${processes} runs ${processes} server processes, which needs ${missing.join(' and ')}`,
    );
  }
}

export function loadConfig(env: Env = process.env): Config {
  const host = env.HOST?.trim() || '127.0.0.1';
  const config: Config = {
    host,
    port: integer(env, 'PORT', 3000, 0, 65535),
    clusterWorkers: integer(env, 'CLUSTER_WORKERS', 1, 1, 64),
    databaseUrl: databaseUrl(env),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1000),
    redisUrl: redisUrl(env),
    redisKeyPrefix: redisKeyPrefix(env),
    metricsToken: env.METRICS_TOKEN?.trim() || undefined,
    databaseStartupWaitMs: integer(env, 'DATABASE_STARTUP_WAIT_MS', 30_000, 0, 600_000),
    databaseBusyTimeoutMs: integer(env, 'DATABASE_BUSY_TIMEOUT_MS', 5000, 0, 600_000),
    rateLimitMax: integer(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000_000),
    rateLimitWindowMs: integer(env, 'RATE_LIMIT_WINDOW_MS', 60_000, 100, 86_400_000),
    authFailureLimit: integer(env, 'AUTH_FAILURE_LIMIT', 30, 1, 1_000_000_000),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    responseMaxBytes: integer(env, 'RESPONSE_MAX_BYTES', 1_048_576, 16 * 1024, 104_857_600),
    socketTimeoutMs: integer(env, 'SOCKET_TIMEOUT_MS', 30_000, 1000, 3_600_000),
    logLevel: logLevel(env),
    logBufferMaxBytes: integer(env, 'LOG_BUFFER_MAX_BYTES', 4 * 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
    apiKeyCacheTtlMs: integer(env, 'API_KEY_CACHE_TTL_MS', 2000, 0, 5000),
    headersTimeoutMs: integer(env, 'HEADERS_TIMEOUT_MS', 10_000, 500, 120_000),
    requestTimeoutMs: integer(env, 'REQUEST_TIMEOUT_MS', 30_000, 1000, 600_000),
    trustProxy: trustProxy(env),
    dataEncryptionKeys: dataEncryptionKeys(env),
    webhookAllowPrivateUrls: boolean(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    webhookRetryScheduleMs: retrySchedule(env),
    webhookMaxConcurrent: integer(env, 'WEBHOOK_MAX_CONCURRENT', 20, 1, 1000),
    reminderIntervalSeconds: integer(env, 'REMINDER_INTERVAL_SECONDS', 60, 0, 86_400),
    recurringIntervalMs: integer(env, 'RECURRING_INTERVAL_SECONDS', 60, 0, 86_400) * 1000,
    pdfWorkers: integer(env, 'PDF_WORKERS', availableParallelism(), 1, 64),
    pdfQueueMax: integer(env, 'PDF_QUEUE_MAX', 256, 0, 100_000),
    pdfTimeoutMs: integer(env, 'PDF_TIMEOUT_MS', 30_000, 100, 600_000),
    pdfWorkerMemoryMb: integer(env, 'PDF_WORKER_MEMORY_MB', 256, 32, 16_384),
    receiveMaxBytes: integer(env, 'RECEIVE_MAX_BYTES', 20 * 1024 * 1024, 1024, 100 * 1024 * 1024),
    receiveWorkers: integer(env, 'RECEIVE_WORKERS', Math.max(1, Math.min(2, availableParallelism())), 1, 64),
    receiveQueueMax: integer(env, 'RECEIVE_QUEUE_MAX', 32, 0, 10_000),
    receiveTimeoutMs: integer(env, 'RECEIVE_TIMEOUT_MS', 20_000, 100, 600_000),
    receiveWorkerMemoryMb: integer(env, 'RECEIVE_WORKER_MEMORY_MB', 512, 64, 16_384),
    publicBaseUrl: publicBaseUrl(env),
    hostedRateLimitMax: integer(env, 'HOSTED_RATE_LIMIT_MAX', 60, 1, 1_000_000),
    hostedRateLimitWindowMs: integer(env, 'HOSTED_RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
  };
  const email = emailConfig(env);
  if (email) config.email = email;
  checkClusterWorkers(config);
  return config;
}

/** Whether the server listens only where this machine alone reaches it: 127.0.0.0/8, ::1, localhost. */
export function isLoopbackHost(host: string): boolean {
  const name = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (name === 'localhost' || name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  return /^(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/**
 * What only a server that listens must hold (the CLI loads the same variables and need not):
 * /metrics shows the service's traffic, errors and timings to whoever reaches it, so beyond
 * loopback it needs METRICS_TOKEN, and the server does not start without one.
 */
export function checkServerConfig(config: Config): void {
  if (config.metricsToken === undefined && !isLoopbackHost(config.host)) {
    throw new ConfigError(
      `METRICS_TOKEN must be set when HOST=${config.host} listens beyond this machine (anything but 127.0.0.1, ::1 or localhost): without it /metrics would answer anyone who reaches the server. Set METRICS_TOKEN to a long random secret (e.g. \`openssl rand -hex 32\`); Prometheus then sends it as Authorization: Bearer <METRICS_TOKEN>.`,
    );
  }
}

/** The configuration of a server that is about to listen: loadConfig, and checkServerConfig. */
export function loadServerConfig(env: Env = process.env): Config {
  const config = loadConfig(env);
  checkServerConfig(config);
  return config;
}
