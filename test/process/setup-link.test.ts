import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import { exitOf, freePort, START_FLAGS, waitUntilHealthy } from '../helpers/servers.js';
import { eventually } from '../helpers/eventually.js';

// The one-time setup link is for the operator's eyes: on stderr, never on stdout (the JSON log
// that is shipped elsewhere) and never in a log line. Whoever missed it gets a fresh one from
// `invoicing setup-link` while no panel user exists.

const SERVER = resolve('dist/server.js');

async function cli(args: string[], databaseUrl: string) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runCli(args, {
    stdout: (s) => stdout.push(s),
    stderr: (s) => stderr.push(s),
    env: { DATABASE_URL: databaseUrl, PORT: '4321' },
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

describe('the first-run setup link', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (exitOf(child) === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is printed by the server on stderr only, never on stdout or in a log line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-setup-'));
    dirs.push(dir);
    const port = await freePort();
    const child = spawn(process.execPath, [...START_FLAGS, SERVER], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'trace',
        DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    const origin = `http://127.0.0.1:${port}`;
    await waitUntilHealthy(`${origin}/api/v1.0.0/public`, child);
    await eventually(() => stderr.includes('/panel/setup?token='), {
      intervalMs: 50,
      what: 'the setup link on stderr',
    });
    const link = /(http:\/\/\S+\/panel\/setup\?token=(\S+))/.exec(stderr);
    expect(link).not.toBeNull();
    // The link works, and following it leaves its token out of the access log.
    expect((await fetch(link![1]!)).status).toBe(200);
    child.kill('SIGTERM');
    await new Promise((done) => child.once('exit', done));
    expect(stdout).toContain('request completed');
    expect(stdout).not.toContain(link![2]!);
    expect(stdout).not.toContain('setup?token=' + link![2]!.slice(0, 8));
  });

  it('prints a fresh working link from the CLI while no panel user exists, and refuses once one does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-setup-cli-'));
    dirs.push(dir);
    const databaseUrl = `sqlite:${join(dir, 'db.sqlite')}`;
    const first = await cli(['setup-link', '--json'], databaseUrl);
    expect(first.code).toBe(0);
    const { url } = JSON.parse(first.stdout) as { url: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4321\/panel\/setup\?token=[A-Za-z0-9_-]{32}$/);
    const custom = await cli(['setup-link', '--base-url', 'https://billing.example.com/', '--json'], databaseUrl);
    expect(JSON.parse(custom.stdout).url).toMatch(/^https:\/\/billing\.example\.com\/panel\/setup\?token=/);

    const company = JSON.parse(
      (await cli(['company', 'create', '--name', 'Claimed', '--json'], databaseUrl)).stdout,
    ) as { id: string };
    const user = await runCli(
      ['user', 'create', '--company', company.id, '--email', 'o@example.com', '--role', 'owner', '--password-stdin'],
      {
        stdout: () => {},
        stderr: () => {},
        env: { DATABASE_URL: databaseUrl },
        readStdin: async () => 'a long enough password',
      },
    );
    expect(user).toBe(0);
    const refused = await cli(['setup-link'], databaseUrl);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already has panel users');
    expect(refused.stdout).toBe('');
  });
});
