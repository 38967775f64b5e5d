import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exitOf, freePort, waitUntilHealthy } from '../helpers/servers.js';

// The real server process, as `npm start` runs it (dist/ is built by `pretest`).
const SERVER = resolve('dist/server.js');

function waitForExit(child: ChildProcess, ms: number): Promise<number | null> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done(child.exitCode);
    const timer = setTimeout(() => done(null), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done(code);
    });
  });
}

const waitForHealth = (base: string, child: ChildProcess) => waitUntilHealthy(base, child);

describe('the server process', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (exitOf(child) === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('starts on the embedded default, creating ./data/invoicing.db, and stops cleanly on SIGTERM', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'invoicing-server-'));
    dirs.push(cwd);
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [SERVER], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const base = `http://127.0.0.1:${port}/api/v1.0.0/public`;
    await waitForHealth(base, child);
    expect(existsSync(join(cwd, 'data', 'invoicing.db'))).toBe(true);
    const res = await fetch(base);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(((await res.json()) as { data: unknown }).data).toEqual({ status: 'ok', version: 'v1.0.0' });

    child.kill('SIGTERM');
    expect(await waitForExit(child, 10_000)).toBe(0);
  });

  it('refuses to start with a bad configuration value and says which', async () => {
    const child = spawn(process.execPath, [SERVER], {
      env: { ...process.env, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await waitForExit(child, 10_000);
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toContain('PORT');
  });

  it('cuts off a client that never finishes its headers', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'invoicing-server-'));
    dirs.push(cwd);
    const port = await freePort();
    const child = spawn(process.execPath, [SERVER], {
      cwd,
      env: {
        ...process.env,
        PORT: String(port),
        LOG_LEVEL: 'warn',
        DATABASE_URL: 'sqlite:./db.sqlite',
        HEADERS_TIMEOUT_MS: '1000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    await waitForHealth(`http://127.0.0.1:${port}/api/v1.0.0/public`, child);
    const { connect } = await import('node:net');
    const socket = connect(port, '127.0.0.1');
    socket.write('GET /api/v1.0.0/public HTTP/1.1\r\nHost: x\r\n');
    const closed = await new Promise<string>((done) => {
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('close', () => done(data));
      // Keep trickling a header byte now and then, never finishing.
      const drip = setInterval(() => socket.writable && socket.write('X'), 200);
      socket.on('close', () => clearInterval(drip));
      setTimeout(() => socket.destroy(), 20_000);
    });
    expect(closed).toMatch(/^HTTP\/1.1 408/);
    // In the envelope, with the headers every answer carries.
    const [head, body] = closed.split('\r\n\r\n');
    expect(head).toMatch(/\r\nx-request-id: req_[0-9a-f-]{36}\r\n/i);
    expect(head).toMatch(/\r\ncache-control: no-store\r\n/i);
    expect(head).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(JSON.parse(body!)).toMatchObject({ success: false, error: { code: 'REQUEST_TIMEOUT' } });
  });
});
