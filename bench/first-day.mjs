// npm run bench:first-day — how long a new user waits, on this machine, from a clone to answers:
// `npm ci` with an empty npm cache, the first `npm start` until health answers, a second start
// on the built tree, and `npx invoicing` calls. Each in a fresh clone of this repository, with the
// PATH the user has (node_modules/.bin of this checkout taken out, so the machine's own node is
// first), exactly as the README's commands are typed. It prints each figure against its target
// (issue 24) and writes the figures to bench/results/first-day-<time>.json.
//
//   npm run bench:first-day                      (3 CLI calls of each kind; about 2 minutes)
//   FIRST_DAY_CLI_RUNS=9 npm run bench:first-day
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const CLI_RUNS = Number(process.env.FIRST_DAY_CLI_RUNS ?? 3);
const HEALTH_DEADLINE_MS = 300_000;
const TARGETS = { npmCi: 90, firstStart: null, builtStart: 5, cli: 1.5 };

const userPath = (process.env.PATH ?? '')
  .split(delimiter)
  .filter((dir) => !dir.includes(`${join('node_modules', '.bin')}`))
  .join(delimiter);

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
    server.on('error', reject);
  });
}

function seconds(startNs) {
  return Number(process.hrtime.bigint() - startNs) / 1e9;
}

const print = (line) => process.stdout.write(`${line}\n`);

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs a shell command as typed; resolves with the seconds until health answered, then stops it. */
async function startUntilHealthy(clone, command, env) {
  const port = await freePort();
  const began = process.hrtime.bigint();
  const child = spawn('bash', ['-c', command], {
    cwd: clone,
    env: { ...env, PORT: String(port) },
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolveExit) => child.once('exit', resolveExit));
  let done = false;
  void exited.then(() => (done = true));
  const deadline = Date.now() + HEALTH_DEADLINE_MS;
  try {
    while (Date.now() < deadline && !done) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1.0.0/public`);
        if (response.ok) return seconds(began);
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`"${command}" never answered health:\n${stderr.slice(-2000)}`);
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    await exited;
  }
}

function timeCommand(clone, command, env) {
  const began = process.hrtime.bigint();
  const result = spawnSync('bash', ['-c', command], {
    cwd: clone,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  const elapsed = seconds(began);
  if (result.status !== 0) throw new Error(`"${command}" failed (${result.status}):\n${result.stderr.slice(-2000)}`);
  return elapsed;
}

const work = mkdtempSync(join(tmpdir(), 'invoicing-first-day-'));
const clone = join(work, 'clone');
const cache = join(work, 'npm-cache');
mkdirSync(cache);
execFileSync('git', ['clone', '-q', ROOT, clone]);
const env = {
  ...process.env,
  PATH: userPath,
  npm_config_cache: cache,
  DATABASE_URL: `sqlite:${join(work, 'first-day.db')}`,
};
for (const key of Object.keys(env)) if (key.startsWith('npm_') && key !== 'npm_config_cache') delete env[key];
const machineNode = execFileSync('node', ['--version'], { env, encoding: 'utf8' }).trim();

try {
  print(
    `first day on node ${machineNode} (the machine's own), npm ${execFileSync('npm', ['--version'], { env, encoding: 'utf8' }).trim()}, empty npm cache`,
  );
  const npmCi = timeCommand(clone, 'npm ci --no-audit --no-fund', env);
  const runtime = execFileSync('bash', ['-c', 'npm exec --offline -- node --version'], {
    cwd: clone,
    env,
    encoding: 'utf8',
  }).trim();
  const firstStart = await startUntilHealthy(clone, 'npm start', env);
  const builtStart = await startUntilHealthy(clone, 'npm start', env);
  const help = [];
  const command = [];
  for (let i = 0; i < CLI_RUNS; i += 1) {
    help.push(timeCommand(clone, 'npx invoicing --help', env));
    command.push(timeCommand(clone, 'npx invoicing company list --json', env));
  }
  const rows = [
    ['npm ci (empty cache)', npmCi, TARGETS.npmCi],
    ['first npm start until health answers', firstStart, TARGETS.firstStart],
    ['npm start on the built tree until health answers', builtStart, TARGETS.builtStart],
    [`npx invoicing --help (median of ${CLI_RUNS})`, median(help), TARGETS.cli],
    [`npx invoicing company list --json (median of ${CLI_RUNS})`, median(command), TARGETS.cli],
  ];
  print(`npm scripts and npx ran on node ${runtime}`);
  print('| step | seconds | target | met |\n|---|---:|---:|---|');
  for (const [step, value, target] of rows) {
    print(
      `| ${step} | ${value.toFixed(2)} | ${target === null ? '–' : `≤ ${target}`} | ${target === null ? '' : value <= target ? 'yes' : 'no'} |`,
    );
  }
  const results = join(ROOT, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const file = join(results, `first-day-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify({ machineNode, runtime, npmCi, firstStart, builtStart, help, command, targets: TARGETS }, null, 2)}\n`,
  );
  print(`figures: ${file}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
