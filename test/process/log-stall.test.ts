import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitOf, freePort, START_FLAGS, waitUntilHealthy } from '../helpers/servers.js';
import { eventually } from '../helpers/eventually.js';

// A log reader that stops reading changes nothing: the server keeps answering, lines that cannot
// be written are dropped and counted (and reported on stderr once writing resumes), and SIGTERM
// ends the process within its shutdown deadline whatever stdout does. A real child process whose
// stdout pipe is never read.

const SERVER = resolve('dist/server.js');
const BUFFER_BYTES = 64 * 1024;

function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

async function hammer(base: string, requests: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < requests; sent += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, requests - sent) }, async () => (await fetch(base)).status),
    );
    statuses.push(...batch);
  }
  return statuses;
}

describe('a server whose log reader stalls', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (exitOf(child) === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<{ child: ChildProcess; base: string; stderr: string[] }> {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-logstall-'));
    dirs.push(dir);
    const port = await freePort();
    const child = spawn(process.execPath, [...START_FLAGS, SERVER], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        LOG_BUFFER_MAX_BYTES: String(BUFFER_BYTES),
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
        RATE_LIMIT_MAX: '1000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    // stdout is never read: its pipe fills and stays full.
    child.stdout!.pause();
    const stderr: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const base = `http://127.0.0.1:${port}/api/v1.0.0/public`;
    await waitUntilHealthy(base, child);
    return { child, base, stderr };
  }

  it('keeps answering 4,000 requests, counts the dropped lines and stops within the deadline on SIGTERM', async () => {
    const { child, base } = await start();
    const rssBefore = rssMb(child.pid!);
    const started = Date.now();
    const statuses = await hammer(base, 4000);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(60_000);
    // The buffer is bounded: memory does not grow with the lines that could not be written.
    expect(rssMb(child.pid!) - rssBefore).toBeLessThan(100);
    const metrics = await (await fetch(`${new URL(base).origin}/metrics`)).text();
    const dropped = Number(/^log_lines_dropped_total (\d+)/m.exec(metrics)?.[1]);
    expect(dropped).toBeGreaterThan(1000);

    const stopping = Date.now();
    const exited = new Promise<number>((done) => child.once('exit', () => done(Date.now() - stopping)));
    child.kill('SIGTERM');
    expect(await exited).toBeLessThan(10_000);
    expect(child.signalCode).toBeNull();
  }, 90_000);

  it('says once on stderr how many lines it dropped when the reader comes back', async () => {
    const { child, base, stderr } = await start();
    await hammer(base, 2000);
    expect(stderr.join('')).not.toContain('log lines were dropped');
    // The reader comes back: the pipe drains, and the next lines are written again.
    child.stdout!.resume();
    child.stdout!.on('data', () => {});
    await eventually(
      async () => {
        if (stderr.join('').includes('log lines were dropped')) return true;
        await fetch(base);
        return false;
      },
      { intervalMs: 50, what: 'the dropped-lines warning' },
    ).catch(() => {});
    const warnings = stderr
      .join('')
      .split('\n')
      .filter((line) => line.includes('log lines were dropped'));
    expect(warnings).toHaveLength(1);
    expect(Number(/(\d+) log lines were dropped/.exec(warnings[0]!)?.[1])).toBeGreaterThan(100);
  }, 90_000);
});
