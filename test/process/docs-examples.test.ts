import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/auth/permissions.js';
import {
  comparable,
  instrument,
  jsonValues,
  mask,
  optedOut,
  segments,
  shellExamples,
  type ShellExample,
} from '../helpers/docs-examples.js';
import { startServer, type ServerProcess } from '../helpers/servers.js';
import { eventually } from '../helpers/eventually.js';
import { makeTestCertificate, startSmtpSinkProcess, type TestCertificate } from '../helpers/smtp-server.js';

// Every shell example of README.md and docs/*.md runs, in order, against a fresh server per file
// (dist/server.js on a new SQLite file), and what it prints is compared with the answer the docs
// show. The convention is in test/helpers/docs-examples.ts and docs/README.md.
//
// Each file starts where the README quickstart leaves a reader: the instance was claimed on the
// setup page and a live key "ERP integration" with every permission was made in the panel (done
// here over HTTP, as the browser would), so BASE and KEY are set and the key belongs to the
// setup's company.
// `npx invoicing` runs the clone's CLI on the same database.

const ROOT = resolve(import.meta.dirname, '../..');
const DOC_FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
/** DOCS_EXAMPLES=docs/api.md runs one file's examples while you write it. */
const RUN_FILES = process.env.DOCS_EXAMPLES
  ? DOC_FILES.filter((f) => process.env.DOCS_EXAMPLES!.split(',').includes(f))
  : DOC_FILES;
const DEFAULT_ORIGIN = 'http://127.0.0.1:3000';

/** A browser stand-in over fetch: cookies and the CSRF token of the last page read. */
class Browser {
  private readonly cookies = new Map<string, string>();
  private csrf = '';
  constructor(private readonly origin: string) {}

  private async absorb(response: Response): Promise<{ status: number; body: string; location: string | null }> {
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      this.cookies.set(name!.trim(), value.join('='));
    }
    const body = await response.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { status: response.status, body, location: response.headers.get('location') };
  }

  private cookieHeader(): Record<string, string> {
    return { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }

  async get(path: string) {
    return this.absorb(await fetch(`${this.origin}${path}`, { headers: this.cookieHeader(), redirect: 'manual' }));
  }

  async post(path: string, fields: [string, string][]) {
    const body = new URLSearchParams([['_csrf', this.csrf], ...fields]);
    return this.absorb(
      await fetch(`${this.origin}${path}`, {
        method: 'POST',
        headers: { ...this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
        redirect: 'manual',
      }),
    );
  }
}

/** What the quickstart has a reader do in the browser: claim the instance, then create a live key with every permission. */
async function claimAndCreateKey(server: ServerProcess, origin: string): Promise<string> {
  const link = await eventually(
    () => /\/panel\/setup\?token=([A-Za-z0-9_%-]+)/.exec(server.output.join('\n')) ?? false,
    { intervalMs: 50, what: 'the setup link' },
  ).catch(() => null);
  if (!link) throw new Error(`the server printed no setup link:\n${server.output.join('\n')}`);
  const browser = new Browser(origin);
  const token = decodeURIComponent(link[1]!);
  await browser.get(`/panel/setup?token=${link[1]}`);
  const password = 'correct horse battery staple';
  const setup = await browser.post('/panel/setup', [
    ['token', token],
    ['companyName', 'Acme GmbH'],
    ['currency', 'EUR'],
    ['email', 'owner@acme.example'],
    ['password', password],
    ['passwordConfirm', password],
  ]);
  if (setup.status !== 303) throw new Error(`setup answered ${setup.status}: ${setup.body.slice(0, 500)}`);
  await browser.get('/panel/keys');
  const created = await browser.post('/panel/keys', [
    ['name', 'ERP integration'],
    ['mode', 'live'],
    ['expiresOn', ''],
    ...Object.keys(PERMISSIONS).map((p): [string, string] => ['permissions', p]),
  ]);
  if (created.status !== 303)
    throw new Error(`creating a key answered ${created.status}: ${created.body.slice(0, 500)}`);
  const shown = await browser.get(created.location ?? '/panel/keys/new');
  const key = /inv_live_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}/.exec(shown.body)?.[0];
  if (!key) throw new Error('the panel showed no new key');
  return key;
}

interface FileRun {
  server: ServerProcess;
  dir: string;
  env: NodeJS.ProcessEnv;
  state: string;
}

/**
 * Every file's server sends email to one SMTP server on loopback (docs/delivery.md), over
 * STARTTLS, in a process of its own: the examples run bash synchronously, which blocks this one.
 */
let mail: { certificate: TestCertificate; smtp: { port: number; stop(): Promise<void> } } | undefined;
async function mailEnv(): Promise<Record<string, string>> {
  if (!mail) {
    const certificate = makeTestCertificate();
    mail = { certificate, smtp: await startSmtpSinkProcess(certificate) };
  }
  return {
    SMTP_URL: `smtp://127.0.0.1:${mail.smtp.port}`,
    SMTP_FROM: 'invoices@service.example',
    SMTP_TLS_CA_FILE: mail.certificate.certFile,
    // Hosted page links are built from it (docs/hosted-pages.md); the examples open them on the server itself.
    PUBLIC_BASE_URL: 'https://invoices.example.com',
  };
}
afterAll(async () => {
  await mail?.smtp.stop();
  mail?.certificate.remove();
});

async function startFileRun(): Promise<FileRun> {
  if (spawnSync('jq', ['--version']).error)
    throw new Error('the docs examples pick fields with jq: install it (apt-get install jq)');
  const dir = mkdtempSync(join(tmpdir(), 'invoicing-docs-'));
  const databaseUrl = `sqlite:${join(dir, 'invoicing.db')}`;
  const server = await startServer(
    // No reminder pass of the server's own: docs/reminders.md runs the passes it shows.
    { DATABASE_URL: databaseUrl, REMINDER_INTERVAL_SECONDS: '0', ...(await mailEnv()) },
    { quiet: true, timeoutMs: 45_000 },
  );
  const origin = new URL(server.baseUrl).origin;
  const key = await claimAndCreateKey(server, origin);
  const state = join(dir, 'state.sh');
  writeFileSync(state, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: dir,
    LANG: 'C.UTF-8',
    DATABASE_URL: databaseUrl,
    BASE: server.baseUrl,
    KEY: key,
    INVOICING_ROOT: ROOT,
    // the CLI seals secrets with the same data key as the server it works beside
    ...(process.env.DATA_ENCRYPTION_KEY ? { DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY } : {}),
  };
  return { server, dir, env, state };
}

/** Runs one block in bash after the file's earlier blocks; returns its stdout, stderr and status. */
function runBlock(
  run: FileRun,
  script: string,
  origin: string,
): { stdout: string; stderr: string; status: number | null } {
  const prelude = [
    'set -eo pipefail',
    // `npx invoicing` is the clone's CLI: the package bin, without npx's start-up.
    'npx() { if [ "$1" = invoicing ]; then shift; node "$INVOICING_ROOT/bin/invoicing.js" "$@"; else command npx "$@"; fi; }',
    `set -a; source ${JSON.stringify(run.state)}; set +a`,
  ].join('\n');
  const body = script.replaceAll(DEFAULT_ORIGIN, origin);
  const epilogue = `export -p | grep -v -E '^declare -x (PATH|HOME|PWD|OLDPWD|SHLVL|_)=' > ${JSON.stringify(run.state)}`;
  const result = spawnSync('bash', ['-c', `${prelude}\nset -a\n${body}\nset +a\n${epilogue}`], {
    cwd: run.dir,
    env: run.env,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: result.stdout, stderr: result.stderr, status: result.status };
}

function checkBlock(run: FileRun, example: ShellExample, origin: string, where: string): void {
  const { script, expected } = instrument(example.code);
  const { stdout, stderr, status } = runBlock(run, script, origin);
  expect(status, `${where} failed (exit ${status}):\n${example.code}\nstdout:\n${stdout}\nstderr:\n${stderr}`).toBe(0);
  const { marked, rest } = segments(stdout);
  expected.forEach((answer, n) => {
    const [shown, actual] = comparable(answer, marked[n] ?? '');
    expect(actual, `${where}: the answer before "# → ${answer}"`).toEqual(shown);
  });
  if (example.answer !== null) {
    const [shown, actual] = comparable(example.answer, rest);
    expect(actual, `${where}: the json block after it`).toEqual(shown);
  }
}

describe('the examples of README.md and docs/', () => {
  for (const file of RUN_FILES) {
    const markdown = readFileSync(join(ROOT, file), 'utf8');
    const examples = shellExamples(markdown);
    if (examples.length === 0) continue;
    describe(file, () => {
      let run: FileRun;
      let origin: string;
      beforeAll(async () => {
        run = await startFileRun();
        origin = new URL(run.server.baseUrl).origin;
      }, 90_000);
      afterAll(async () => {
        await run?.server.stop();
        if (run) rmSync(run.dir, { recursive: true, force: true });
      });
      for (const example of examples) {
        it(`runs the example at line ${example.line} and prints what the docs show`, () => {
          checkBlock(run, example, origin, `${file}:${example.line}`);
        }, 90_000);
      }
    });
  }

  it('opens the README with the two commands a newcomer needs, and keeps it a front door of about 200 lines', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const first = readme.split('\n').slice(0, 6).join('\n');
    expect(first).toMatch(/^npm ci && npm start\b/m);
    expect(first).toMatch(/^npm test\b/m);
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    for (const file of DOC_FILES) {
      expect(
        readFileSync(join(ROOT, file), 'utf8'),
        `${file}: the API is ours, no issue numbers or "the spec"`,
      ).not.toMatch(/\bissues? \d|\bthe spec\b/i);
    }
  });

  it('keeps the examples that opt out of running few, and every other sh block runs', () => {
    const skipped = DOC_FILES.flatMap((file) =>
      optedOut(readFileSync(join(ROOT, file), 'utf8')).map((b) => `${file}:${b.line}`),
    );
    const running = DOC_FILES.reduce((n, file) => n + shellExamples(readFileSync(join(ROOT, file), 'utf8')).length, 0);
    expect(running).toBeGreaterThan(skipped.length * 2);
    expect(skipped.length, skipped.join('\n')).toBeLessThanOrEqual(12);
  });
});

describe('the docs examples runner', () => {
  it('cuts output at `# → …` lines and compares JSON with ids, keys and times masked and "…" as any value', () => {
    const { script, expected } = instrument(
      'echo \'{"id":"org_0199aaaa-1b2e-7c41-9a55-3f0e2d1c4b6a","n":1}\'\n# → {"id": "org_…", "n": 1}\necho 201\n# → 201',
    );
    expect(expected).toHaveLength(2);
    const out = spawnSync('bash', ['-c', script], { encoding: 'utf8' }).stdout;
    const { marked } = segments(out);
    expect(marked[1]!.trim()).toBe('201');
    expect(jsonValues(marked[0]!)).toEqual([{ id: 'org_0199aaaa-1b2e-7c41-9a55-3f0e2d1c4b6a', n: 1 }]);
    const [shown, actual] = comparable(
      '{"id": "org_01a1fc3b-9137-7ed8-8562-d52076a13728", "at": "…", "n": 1}',
      '{"id":"org_0199aaaa-1b2e-7c41-9a55-3f0e2d1c4b6a","at":"x","n":1}',
    );
    expect(actual).toEqual(shown);
    expect(mask('inv_live_AbCdEfGh_AbCdEfGhAbCdEfGhAbCdEfGh at 2026-11-21T09:30:00.123Z')).toBe('<key> at <time>');
  });

  it('fails an answer that differs from the shown one, in a value, a missing field or plain text', () => {
    const [shown, actual] = comparable('{"totals": {"payable": "1283.05"}}', '{"totals": {"payable": "1283.06"}}');
    expect(actual).not.toEqual(shown);
    const [shownKeys, actualKeys] = comparable('{"a": 1, "b": 2}', '{"a": 1}');
    expect(actualKeys).not.toEqual(shownKeys);
    const [shownText, actualText] = comparable('201', '409');
    expect(actualText).not.toEqual(shownText);
  });

  it('finds sh blocks with their json answers and skips those marked no-run', () => {
    const examples = shellExamples(
      '```sh\ncurl a\n```\n\nThe answer:\n\n```json\n{"a": 1}\n```\n\n```sh no-run\nnpm start\n```\n\n```sh\ncurl b\n```\n\n```ts\nx\n```\n\n```json\n{}\n```\n',
    );
    expect(examples.map((e) => [e.code, e.answer])).toEqual([
      ['curl a', '{"a": 1}'],
      ['curl b', null],
    ]);
  });
});
