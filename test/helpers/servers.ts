import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import { BASE_PATH } from '../../src/http/api-version.js';
import { eventually, GiveUp } from './eventually.js';

// Real processes and real sockets for the multi-instance and outage tests: the built server
// (dist/server.js, built by `pretest`), the admin CLI, and a TCP proxy that a test can cut to
// make PostgreSQL unreachable without touching the machine's shared PostgreSQL.

const ROOT = resolve(import.meta.dirname, '../..');
const SERVER_ENTRY = resolve(ROOT, 'dist/server.js');
/** The node flags of `npm start`, so that tests run the server the way operators do. */
export const START_FLAGS: string[] = (
  /^node (.*?)\s*dist\/server\.js$/.exec(
    (JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start,
  )?.[1] ?? ''
)
  .split(' ')
  .filter(Boolean);
const CLI_ENTRY = resolve(ROOT, 'bin/invoicing.js');

/** The environment a child gets: ours minus anything that would change its configuration. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const name of Object.keys(base)) {
    if (/^(PORT|HOST|DATABASE_|REDIS_|RATE_LIMIT_|AUTH_FAILURE_|API_KEY_|LOG_LEVEL|NODE_OPTIONS|VITEST)/.test(name))
      delete base[name];
  }
  return { ...base, ...env };
}

export interface ServerProcess {
  /** e.g. http://127.0.0.1:40123/api/v1.0.0/public */
  baseUrl: string;
  child: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  output: string[];
  stop(): Promise<void>;
}

/** Why a child process is no longer running, or null while it runs. A signal death reads as a crash, not a timeout. */
export function exitOf(child: ChildProcess): string | null {
  if (child.signalCode !== null) return `crashed with signal ${child.signalCode}`;
  if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
  return null;
}

/** Polls `url` until it answers 2xx; fails at once, naming how, when the child dies first. */
export async function waitUntilHealthy(url: string, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  await eventually(
    async () => {
      const exit = exitOf(child);
      if (exit) throw new GiveUp(`server ${exit} before it answered`);
      // Not listening yet is one more ask.
      return (await fetch(url).catch(() => null))?.ok ?? false;
    },
    { timeoutMs, intervalMs: 100, what: `the server to answer ${url}` },
  );
}

/** A loopback port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node dist/server.js` on a free loopback port and resolves once it listens. `quiet` runs
 * it at LOG_LEVEL=warn (no access log to read, for load tests) and waits for its health check.
 */
export async function startServer(
  env: Record<string, string>,
  options: { timeoutMs?: number; onLine?: (line: string) => void; quiet?: boolean } = {},
): Promise<ServerProcess> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const quietPort = options.quiet ? String(await freePort()) : null;
  const child = spawn(process.execPath, [...START_FLAGS, SERVER_ENTRY], {
    cwd: ROOT,
    env: childEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
      ...(quietPort ? { PORT: quietPort, LOG_LEVEL: 'warn' } : {}),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const baseUrl = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${output.join('\n')}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        output.push(line);
        options.onLine?.(line);
        const match = /listening; base URL (http:\/\/[^\s"]+)/.exec(line);
        if (match?.[1]) {
          clearTimeout(timer);
          resolveUrl(match[1]);
        }
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    if (quietPort) {
      const url = `http://127.0.0.1:${quietPort}`;
      waitUntilHealthy(`${url}${BASE_PATH}`, child, timeoutMs).then(() => {
        clearTimeout(timer);
        resolveUrl(url);
      }, reject);
    }
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server ${exitOf(child)} before listening:\n${output.join('\n')}`));
    });
  }).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { baseUrl: baseUrl.endsWith(BASE_PATH) ? baseUrl : `${baseUrl}${BASE_PATH}`, child, output, stop };
}

/** Runs `node dist/server.js` expecting it to exit; resolves with its code and output. */
export function runServerToExit(
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<{ code: number | null; output: string }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [SERVER_ENTRY], {
      cwd: ROOT,
      env: childEnv({ HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not exit within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Runs the admin CLI with --json and returns the parsed object; throws with stderr on failure. */
export function cliJson<T = Record<string, unknown>>(
  args: string[],
  env: Record<string, string>,
  options: { stdin?: string } = {},
): Promise<T> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [CLI_ENTRY, ...args, '--json'], {
      cwd: ROOT,
      env: childEnv(env),
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.stdin !== undefined) child.stdin!.end(options.stdin);
    if (!child.stdout || !child.stderr) throw new Error('the CLI was spawned without pipes');
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`invoicing ${args.join(' ')} exited ${code}: ${stderr}`));
      else done(JSON.parse(stdout) as T);
    });
  });
}

/** Starts the admin CLI with piped output, for a test that races it or kills it; the caller waits for its exit. */
export function spawnCli(args: string[], env: Record<string, string>): ChildProcess & { stdoutText(): string } {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  return Object.assign(child, { stdoutText: () => stdout });
}

type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A TCP proxy on a fixed loopback port in front of a target. `cut()` closes every connection and
 * refuses new ones (the database is down); `blackhole()` accepts connections but never answers
 * (a hung network); `restore()` forwards again on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private mode: ProxyMode = 'forward';

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
    public port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target.host, target.port, 0);
    await proxy.listen();
    return proxy;
  }

  private listen(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    this.server = server;
    return new Promise((done, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address === 'object' && address) this.port = address.port;
        done();
      });
    });
  }

  private accept(client: Socket): void {
    this.sockets.add(client);
    client.on('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    if (this.mode === 'blackhole') return;
    const upstream = connect(this.targetPort, this.targetHost);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  }

  private dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** The database is gone: open connections break, new ones are refused. */
  async cut(): Promise<void> {
    await this.refuseNew();
    this.dropConnections();
  }

  /** New connections are refused; open ones keep working (for the database to close them itself). */
  refuseNew(): Promise<void> {
    this.mode = 'refuse';
    // close() stops listening at once; its callback waits for open connections, which stay.
    this.server?.close();
    this.server = null;
    return Promise.resolve();
  }

  /** The network hangs: open connections break, new ones are accepted and never answered. */
  async blackhole(): Promise<void> {
    this.dropConnections();
    this.mode = 'blackhole';
    if (!this.server) await this.listen();
  }

  async restore(): Promise<void> {
    this.dropConnections();
    this.mode = 'forward';
    if (!this.server) await this.listen();
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
