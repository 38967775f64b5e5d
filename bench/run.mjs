// npm run bench: starts the service on a fresh database, bootstraps a key with the service's own
// CLI, and drives each scenario with autocannon from a separate process. Two baselines (a bare
// node:http JSON server, for GET and for POST) are measured in the same run, and every scenario
// is reported as a ratio to its baseline, so figures compare across machines and runs.
//
//   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_CONNECTIONS=50 npm run bench
//   BENCH_SCENARIOS='invoice;hanging webhook' BENCH_SERVER_FLAGS=--cpu-prof npm run bench   (one scenario, profiled)
//   BENCH_SCENARIOS=finalize BENCH_PROFILE=finalize npm run bench   (its measured run only profiled, profile.mjs)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench   (a fresh schema is made; adds the Express + pg peer; on SQLite, the Express + node:sqlite peer)
//   CLUSTER_WORKERS=2 BENCH_REDIS_URL=redis://127.0.0.1:6379 DATABASE_URL=postgres://… npm run bench   (two processes)
//   BENCH_ROWS=100000,1000000 npm run bench   (then grown to 100,000 and to a million seeded invoices, the writes measured again)
import { spawn, execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { INVOICE_LINES } from './invoice-lines.mjs';
import { profiled, profiledScenarios } from './profile.mjs';
import { seedInvoices } from './seed.mjs';

const ROOT = resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
// A scenario that switches something on against the same requests without it (the hanging
// webhook) is measured in this many pairs, without and with, in the order ABBA ABBA…: a single
// pair moves by ±10 % with what the machine does meanwhile (autovacuum, checkpoints, a database
// that grows).
const PAIRS = Number(process.env.BENCH_PAIRS ?? 4);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// A scenario's ratio is to its baseline: a bare server (raw GET/POST), or another scenario of the
// same run where the question is "how much slower than that" (a UBL against the invoice as JSON,
// invoices with a hanging webhook endpoint against invoices without). The targets are issue 30's
// (13's for the hanging webhook, 16's for UBL and PDF); `null` means none is set for that dialect.
// `minRps` is an absolute rate: finalize runs on one company, so it is also issue 30's "one
// company, finalize, 50 connections" row.
const POSTGRES = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
// The peers: the same requests written lean by a typical team on the same database
// (bench/peer-express.mjs, bench/peer-express-sqlite.mjs), shown beside ours with no factor set
// except the organization's: what this machine gives a write with none of the contract.
const PEER = POSTGRES ? 'Express + pg peer' : 'Express + node:sqlite peer';
const INVOICE_PEER = `invoice (${PEER})`;
const FINALIZE_PEER = `finalize (${PEER})`;
const TARGETS = {
  health: { ratio: POSTGRES ? 0.6 : 0.5 },
  organization: POSTGRES
    ? { ratio: 0.2, peer: { name: 'organization (Express + pg peer)', factor: 1.5 } }
    : { ratio: 0.35 },
  'organization (Express + pg peer)': { ratio: null },
  invoice: { ratio: POSTGRES ? 0.1 : 0.15, peer: { name: INVOICE_PEER, factor: null } },
  [INVOICE_PEER]: { ratio: null },
  'get invoice': { ratio: POSTGRES ? 0.2 : 0.3 },
  finalize: { ratio: POSTGRES ? 0.1 : 0.15, minRps: 1000, peer: { name: FINALIZE_PEER, factor: null } },
  [FINALIZE_PEER]: { ratio: null },
  payment: { ratio: POSTGRES ? 0.1 : 0.15 },
  'credit note': { ratio: POSTGRES ? 0.1 : 0.15 },
  'invoice UBL': { ratio: 0.5 },
  'invoice PDF': { ratio: null, minRps: 50, rssMb: null },
  'invoice, hanging webhook': { ratio: 0.9 },
  // PostgreSQL only: the same finalize spread over 100 companies, against finalize on one.
  'finalize, 100 companies': { ratio: null, over: { name: 'finalize', factor: 1.5 } },
  'purchase invoice intake (20-line UBL)': { ratio: null, minRps: POSTGRES ? 150 : 200 },
};
const COMPANIES = 100;
// No stalls: p99 at most this times the scenario's own mean latency (at 50 connections the mean is
// set by the rate, so this measures the tail, not the queue).
const P99_FACTOR = 3;
// The service runs with the node flags of `npm start`, so the bench measures what operators run.
// BENCH_START_FLAGS replaces them, to measure what a flag costs (e.g. BENCH_START_FLAGS=--max-semi-space-size=4).
const START_FLAGS = (
  process.env.BENCH_START_FLAGS ??
  /^node (.*?)\s*dist\/server\.js$/.exec(
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start,
  )?.[1] ??
  ''
)
  .split(' ')
  .filter(Boolean)
  // Extra flags for the service only, e.g. BENCH_SERVER_FLAGS=--cpu-prof to profile what a scenario costs.
  .concat((process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean));
// BENCH_SCENARIOS='health;invoice' runs only those (and what they compare to).
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(';').map((s) => s.trim())) : null;
// BENCH_ROWS=100000,1000000: after every scenario has run, the database is grown to that many
// seeded invoices (bench/seed.mjs), one size after the other, and the write scenarios are measured
// again at each; a write that keeps less than GROWTH_KEPT of its 1× rate, raw and as a ratio to the
// raw baseline measured just before, is flagged: it has a query plan to fix.
const GROWTH_ROWS = (process.env.BENCH_ROWS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean)
  .map(Number);
if (GROWTH_ROWS.some((n, i) => !Number.isInteger(n) || n <= 0 || n % 10 !== 0 || n <= (GROWTH_ROWS[i - 1] ?? 0)))
  throw new Error(`BENCH_ROWS: ascending whole tens of invoices, e.g. 100000,1000000 (got ${process.env.BENCH_ROWS})`);
const GROWTH_SCENARIOS = ['organization', 'invoice', 'finalize', 'payment', 'credit note'];
const GROWTH_KEPT = 0.8;
// BENCH_KEEP_DATABASE=1 leaves the database (a PostgreSQL schema, a SQLite file) in place and says
// where, to EXPLAIN what a grown one does; drop it after.
const KEEP_DATABASE = process.env.BENCH_KEEP_DATABASE === '1';
// BENCH_PROFILE='finalize': these scenarios' measured runs are profiled (bench/profile.mjs).
const PROFILE = profiledScenarios();
// Server RSS under every scenario but PDF, and right after start-up (before any load).
const RSS_TARGET_MB = 160;
const STARTUP_RSS_TARGET_MB = 120;

const children = [];
const cleanups = [];
process.on('exit', () => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

function rssMb(pid) {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    if (!match) return null;
    // With CLUSTER_WORKERS the service is a cluster primary and its workers: their sum counts.
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    return Number(match[1]) / 1024 + children.reduce((sum, child) => sum + (rssMb(child) ?? 0), 0);
  } catch {
    return null;
  }
}

// Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ; 100 on Linux).
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * The CPU time a process (with its threads and, under CLUSTER_WORKERS, its workers) has used, in
 * ms; null where /proc cannot tell. Per request, it is what a scenario costs the server whatever
 * else the machine runs: on a busy machine req/s swings by a third between runs, CPU per request
 * far less, so A/B comparisons read it first.
 */
function cpuMs(pid) {
  try {
    // Fields after the command's closing parenthesis: state is 3rd, utime 14th, stime 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean);
    return own + children.reduce((sum, child) => sum + (cpuMs(child) ?? 0), 0);
  } catch {
    return null;
  }
}

/**
 * Where the server's memory is right after a scenario: its RSS and V8's heap as its /metrics
 * reports them (committed young and old spaces, used, external), in MB. What is not heap is the
 * binary's pages, native allocations and threads. null when /metrics does not answer.
 */
async function serverMemory(port, pid) {
  try {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const mb = (pattern) => Math.round(Number(pattern.exec(text)?.[1] ?? NaN) / 1048576);
    return {
      rssMb: Math.round(rssMb(pid) ?? NaN),
      heapTotalMb: mb(/^nodejs_heap_size_total_bytes (\S+)/m),
      heapUsedMb: mb(/^nodejs_heap_size_used_bytes (\S+)/m),
      newSpaceMb: mb(/^nodejs_heap_space_size_total_bytes\{space="new"\} (\S+)/m),
      oldSpaceMb: mb(/^nodejs_heap_space_size_total_bytes\{space="old"\} (\S+)/m),
      externalMb: mb(/^nodejs_external_memory_bytes (\S+)/m),
      pdfHeapMb: mb(/^worker_thread_heap_bytes\{pool="pdf",state="committed"\} (\S+)/m),
      receiveHeapMb: mb(/^worker_thread_heap_bytes\{pool="receive",state="committed"\} (\S+)/m),
      ...residentKinds(pid),
    };
  } catch {
    return null;
  }
}

/**
 * What the process's resident pages are, in MB, from /proc/PID/smaps: V8's heap pages (anonymous
 * mappings of exactly 256 KB: every isolate's, the main thread's and each worker thread's, and
 * pages V8 keeps pooled), other anonymous memory (malloc, thread stacks) and file-backed pages
 * (the node binary and libraries).
 */
function residentKinds(pid) {
  try {
    let v8Kb = 0;
    let anonKb = 0;
    let fileKb = 0;
    let mapping = null;
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
      if (head) {
        const sizeKb = (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1024;
        mapping = { sizeKb, file: head[3].startsWith('/') };
      } else if (mapping && line.startsWith('Rss:')) {
        const kb = Number(line.split(/\s+/)[1]);
        if (mapping.file) fileKb += kb;
        else if (mapping.sizeKb === 256) v8Kb += kb;
        else anonKb += kb;
      }
    }
    return {
      v8PagesMb: Math.round(v8Kb / 1024),
      otherAnonMb: Math.round(anonKb / 1024),
      fileMb: Math.round(fileKb / 1024),
    };
  } catch {
    return {};
  }
}

async function waitFor(url, child) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode} before answering`);
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not yet listening
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within 30 s`);
}

async function freshDatabaseUrl() {
  const url = process.env.DATABASE_URL;
  if (!url || url.startsWith('sqlite:')) {
    const dir = mkdtempSync(join(tmpdir(), 'invoicing-bench-'));
    if (KEEP_DATABASE) process.stderr.write(`bench: the database is kept: sqlite:${join(dir, 'bench.db')}\n`);
    else cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { url: `sqlite:${join(dir, 'bench.db')}`, dialect: 'sqlite' };
  }
  const schema = `bench_${Date.now()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema "${schema}"`);
  await client.end();
  if (KEEP_DATABASE) process.stderr.write(`bench: the schema ${schema} is kept: drop schema "${schema}" cascade\n`);
  else
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop schema if exists "${schema}" cascade`);
      await c.end();
    });
  const separator = url.includes('?') ? '&' : '?';
  return { url: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`, dialect: 'postgres' };
}

// Before each scenario on PostgreSQL the bench's tables are vacuumed and analysed, as autovacuum
// would have done by then on a running server: a server without autovacuum (this machine's runs
// with it off) would otherwise plan every statement on tables it has never seen grow.
async function vacuumAnalyse(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('select tablename from pg_tables where schemaname = current_schema()');
    if (rows.length > 0) await client.query(`vacuum (analyze) ${rows.map((r) => `"${r.tablename}"`).join(', ')}`);
  } finally {
    await client.end();
  }
}

const execFileAsync = promisify(execFile);

/** The admin CLI on the bench's database, its `--json` answer parsed. */
async function cli(env, ...args) {
  const { stdout } = await execFileAsync(process.execPath, [join(ROOT, 'bin/invoicing.js'), ...args, '--json'], {
    env,
  });
  return JSON.parse(stdout);
}

/** `work(i)` for i in [0, count), `parallel` at a time; the results in order. */
async function inTurns(count, parallel, work) {
  const results = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await work(i);
      }
    }),
  );
  return results;
}

function runLoad(scenario, seconds, pid) {
  return new Promise((done, fail) => {
    // The scenario goes in on stdin: a list of drafts to finalize is too long for argv.
    const cpuBefore = cpuMs(pid);
    const child = spawn(process.execPath, [join(ROOT, 'bench/load.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
    child.stdin.end(JSON.stringify({ ...scenario, duration: seconds, connections: CONNECTIONS }));
    children.push(child);
    let out = '';
    let peakRss = 0;
    const sampler = setInterval(() => {
      const rss = rssMb(pid);
      if (rss !== null) peakRss = Math.max(peakRss, rss);
    }, 200);
    child.stdout.on('data', (c) => (out += c));
    child.on('exit', (code) => {
      clearInterval(sampler);
      if (code !== 0) return fail(new Error(`load generator exited with ${code}`));
      const cpuAfter = cpuMs(pid);
      const serverCpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      done({ ...JSON.parse(out), peakRssMb: peakRss, serverCpuMs });
    });
  });
}

async function main() {
  const database = await freshDatabaseUrl();
  const servicePort = await freePort();
  const logFile = join(mkdtempSync(join(tmpdir(), 'invoicing-bench-log-')), 'server.log');
  const env = {
    ...process.env,
    // The webhook scenario's receiver listens on loopback.
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    // PostgreSQL needs a data key; a throwaway one serves a benchmark.
    DATA_ENCRYPTION_KEY: process.env.DATA_ENCRYPTION_KEY ?? randomBytes(32).toString('base64'),
    DATABASE_URL: database.url,
    PORT: String(servicePort),
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    RATE_LIMIT_MAX: '1000000000',
    // One address plays 100 companies' clients: key lookups from it are not an attack here.
    AUTH_FAILURE_LIMIT: '1000000000',
  };
  delete env.REDIS_URL;
  if (process.env.BENCH_REDIS_URL) env.REDIS_URL = process.env.BENCH_REDIS_URL;

  const logFd = openSync(logFile, 'w');
  // The inspector, on loopback, only when a scenario is to be profiled.
  const inspectPort = PROFILE.size > 0 ? await freePort() : null;
  const inspect = inspectPort === null ? [] : [`--inspect=127.0.0.1:${inspectPort}`];
  const service = spawn(process.execPath, [...START_FLAGS, ...inspect, join(ROOT, 'dist/server.js')], {
    env,
    stdio: ['ignore', logFd, logFd],
  });
  children.push(service);
  const base = `http://127.0.0.1:${servicePort}/api/v1.0.0/public`;
  await waitFor(base, service);
  const startupRssMb = rssMb(service.pid);

  const baselinePort = await freePort();
  const baseline = spawn(process.execPath, [join(ROOT, 'bench/baseline-server.mjs')], {
    env: { ...process.env, PORT: String(baselinePort) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(baseline);
  const raw = `http://127.0.0.1:${baselinePort}/`;
  await waitFor(raw, baseline);

  // The peer on the same database (PostgreSQL: a table set in the bench's schema; SQLite: a file
  // of its own beside the service's).
  let peer = null;
  if (!ONLY || ['organization', 'invoice', 'finalize'].some((n) => ONLY.has(n) || ONLY.has(`${n} (${PEER})`))) {
    const postgres = database.dialect === 'postgres';
    const child = spawn(
      process.execPath,
      [join(ROOT, postgres ? 'bench/peer-express.mjs' : 'bench/peer-express-sqlite.mjs')],
      {
        env: postgres
          ? { ...process.env, DATABASE_URL: database.url, PORT: '0' }
          : {
              ...process.env,
              PEER_SQLITE_FILE: join(dirname(database.url.slice('sqlite:'.length)), 'peer.db'),
              PORT: '0',
            },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    children.push(child);
    const ready = await new Promise((done, fail) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        if (out.includes('\n')) done(JSON.parse(out));
      });
      child.once('exit', (code) => fail(new Error(`the peer exited with ${code}`)));
    });
    peer = { url: `http://127.0.0.1:${ready.port}`, key: ready.key, buyerId: ready.buyerId, pid: child.pid };
  }

  // Bootstrap through the service's own code: the admin CLI on the same database.
  const company = await cli(
    env,
    'company',
    'create',
    '--name',
    'Bench GmbH',
    '--vat-id',
    'DE123456789',
    '--country',
    'DE',
  );
  // A seller profile complete enough for a Peppol e-invoice.
  await cli(
    env,
    'company',
    'update',
    company.id,
    '--legal-name',
    'Bench GmbH',
    '--line1',
    'Friedrichstr. 100',
    '--city',
    'Berlin',
    '--postal-code',
    '10117',
    '--electronic-address',
    '9930:DE123456789',
    '--contact-name',
    'Ada Bench',
    '--contact-phone',
    '+49 30 987654',
    '--contact-email',
    'billing@bench.example',
    '--iban',
    'DE89370400440532013000',
    '--bic',
    'COBADEFFXXX',
    '--payment-terms',
    'Payable within 30 days.',
  );
  const { PERMISSION_NAMES } = await import(join(ROOT, 'dist/auth/permissions.js'));
  const permissions = PERMISSION_NAMES.join(',');
  const { key } = await cli(
    env,
    'key',
    'create',
    '--company',
    company.id,
    '--name',
    'bench',
    '--permissions',
    permissions,
  );
  const headers = { 'content-type': 'application/json', 'x-api-key': key };

  const buyer = await (
    await fetch(`${base}/organization`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        name: 'Bench Buyer',
        isCustomer: true,
        vatId: 'DE811907980',
        address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
        electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
      }),
    })
  ).json();
  const invoiceBody = {
    organizationId: buyer.data.id,
    buyerReference: 'PO-4711',
    lines: INVOICE_LINES,
  };
  const invoiceProbe = await fetch(`${base}/invoice`, { method: 'POST', headers, body: JSON.stringify(invoiceBody) });
  const invoice = invoiceProbe.status === 201 ? (await invoiceProbe.json()).data : null;
  const canReadInvoice = invoice !== null && (await fetch(`${base}/invoice/${invoice.id}`, { headers })).status === 200;

  const baselines = {
    'raw GET': { name: 'raw GET', url: raw, method: 'GET', headers: {} },
    'raw POST': {
      name: 'raw POST',
      url: raw,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: 'raw',
    },
  };
  // A receiver that accepts connections and never answers: every delivery to it runs into the
  // 10-second timeout and is retried.
  // Its sockets are never read, so a closed peer is not noticed: they are destroyed at the end.
  const hangingSockets = new Set();
  const hanging = createServer((socket) => {
    hangingSockets.add(socket);
    socket.once('close', () => hangingSockets.delete(socket));
  });
  await new Promise((done) => hanging.listen(0, '127.0.0.1', done));
  cleanups.push(async () => {
    hanging.close();
    for (const socket of hangingSockets) socket.destroy();
  });
  // Created for each measurement with it, and deleted (with its deliveries and outbox rows) before
  // each measurement without it: the service then has no endpoint at all, as the issue compares.
  let hangingId = null;
  const switchHanging = async (on) => {
    if (!on) {
      if (hangingId === null) return;
      const res = await fetch(`${base}/webhook-endpoint/${hangingId}`, {
        method: 'DELETE',
        headers: { 'x-api-key': key },
      });
      if (res.status !== 200) throw new Error(`deleting the hanging webhook endpoint answered ${res.status}`);
      hangingId = null;
      return;
    }
    const res = await fetch(`${base}/webhook-endpoint`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ url: `http://127.0.0.1:${hanging.address().port}/hooks`, events: ['*'] }),
    });
    if (res.status !== 201) throw new Error(`creating the hanging webhook endpoint answered ${res.status}`);
    hangingId = (await res.json()).data.id;
  };

  // Finalize needs a fresh draft per request; payments and credit notes go round a pool of issued
  // invoices large enough that none is ever paid or credited in full.
  const collect = async (count, path, json, spread = {}) => {
    if (count <= 0) return [];
    const out = await runLoad(
      { name: 'set-up', url: `${base}${path}`, method: 'POST', headers, body: 'json', json, collect: count, ...spread },
      0,
      service.pid,
    );
    if (out.ids.length !== count)
      throw new Error(
        `set-up: ${count} requests to ${path} created only ${out.ids.length} (answers: ${JSON.stringify(out.statusCodes)}, errors: ${out.errors}; ${out.refusals?.join(' | ')})`,
      );
    return out.ids;
  };
  const large = {
    organizationId: buyer.data?.id,
    lines: [{ name: 'Retainer', quantity: 1, unitPrice: '10000000.00', vatRate: '19' }],
  };
  const drafts = { ids: [], next: 0 };
  const issuedPaths = async (suffix) =>
    (await collect(200, '/invoice', large)).map((id) => `${new URL(base).pathname}${suffix(id)}`);
  // Finalize over many companies (PostgreSQL): each with its own key and buyer, made with the CLI
  // and the API before the scenario; drafts are made round the companies, and each finalize names
  // its company's key.
  const many = POSTGRES && invoice && (!ONLY || ONLY.has('finalize, 100 companies'));
  const tenants = many
    ? await inTurns(COMPANIES, 4, async (i) => {
        const made = await cli(env, 'company', 'create', '--name', `Bench ${i} GmbH`, '--country', 'DE');
        const { key: tenantKey } = await cli(
          env,
          'key',
          'create',
          '--company',
          made.id,
          '--name',
          'bench',
          '--permissions',
          permissions,
        );
        const res = await fetch(`${base}/organization`, {
          method: 'POST',
          headers: { ...headers, 'x-api-key': tenantKey },
          body: JSON.stringify({ name: `Buyer of ${i}`, isCustomer: true }),
        });
        if (res.status !== 201) throw new Error(`set-up: a buyer of company ${i} answered ${res.status}`);
        return { key: tenantKey, buyerId: (await res.json()).data.id };
      })
    : [];
  const spreadDrafts = { entries: [], next: 0 };
  const peerHeaders = peer ? { 'content-type': 'application/json', 'x-api-key': peer.key } : {};
  const peerInvoiceBody = peer ? { ...invoiceBody, organizationId: peer.buyerId } : null;
  const peerDrafts = { ids: [], next: 0 };
  const pathsFor = {
    'finalize, 100 companies': async (seconds) => {
      const rate = Math.max(measured.finalize?.requestsPerSecond ?? 0, 500);
      const need = Math.ceil(rate * 3 * seconds) + 200 - (spreadDrafts.entries.length - spreadDrafts.next);
      if (need > 0) {
        const keyOf = new Map(tenants.map((t) => [t.buyerId, t.key]));
        const made = await collect(need, '/invoice', null, {
          bodies: tenants.map((t) => ({ ...invoiceBody, organizationId: t.buyerId, status: 'draft' })),
          headerSets: tenants.map((t) => ({ 'x-api-key': t.key })),
        });
        spreadDrafts.entries.push(
          ...made.map(({ id, organizationId }) => ({
            path: `${new URL(base).pathname}/invoice/${id}/finalize`,
            headers: { 'x-api-key': keyOf.get(organizationId) },
          })),
        );
      }
      return spreadDrafts.entries.slice(spreadDrafts.next);
    },
    [FINALIZE_PEER]: async (seconds) => {
      // The peer's finalize runs at up to three times its create (SQLite), so drafts for that rate.
      const rate = Math.max(3 * (measured[INVOICE_PEER]?.requestsPerSecond ?? 0), TARGETS.finalize.minRps);
      const need = Math.ceil(rate * 2 * seconds) + 200 - (peerDrafts.ids.length - peerDrafts.next);
      if (need > 0) {
        const out = await runLoad(
          {
            name: 'set-up',
            url: `${peer.url}/invoice`,
            method: 'POST',
            headers: peerHeaders,
            body: 'json',
            json: { ...peerInvoiceBody, status: 'draft' },
            collect: need,
          },
          0,
          peer.pid,
        );
        if (out.ids.length !== need) throw new Error(`set-up: the peer made ${out.ids.length} of ${need} drafts`);
        for (const id of out.ids) peerDrafts.ids.push(id);
      }
      return peerDrafts.ids.slice(peerDrafts.next).map((id) => `/invoice/${id}/finalize`);
    },
    finalize: async (seconds) => {
      // Enough drafts for the rate invoices were created at or finalize's target, whichever is
      // higher, twice over (one company's finalizes outran its issued creates once they stopped
      // waiting on its counter, and ran out of drafts); what is left over serves the next run.
      const rate = Math.max(measured.invoice?.requestsPerSecond ?? 0, TARGETS.finalize.minRps);
      const need = Math.ceil(rate * 2 * seconds) + 200 - (drafts.ids.length - drafts.next);
      if (need > 0) drafts.ids.push(...(await collect(need, '/invoice', { ...invoiceBody, status: 'draft' })));
      return drafts.ids.slice(drafts.next).map((id) => `${new URL(base).pathname}/invoice/${id}/finalize`);
    },
  };

  const scenarios = [
    { name: 'health', compareTo: 'raw GET', url: base, method: 'GET', headers: { 'x-api-key': key } },
    {
      name: 'organization',
      compareTo: 'raw POST',
      url: `${base}/organization`,
      method: 'POST',
      headers,
      body: 'organization',
    },
    ...(peer && POSTGRES
      ? [
          {
            name: 'organization (Express + pg peer)',
            compareTo: 'raw POST',
            url: `${peer.url}/organization`,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': peer.key },
            body: 'organization',
            pid: peer.pid,
          },
        ]
      : []),
    ...(invoice
      ? [
          {
            name: 'invoice',
            compareTo: 'raw POST',
            url: `${base}/invoice`,
            method: 'POST',
            headers,
            body: 'json',
            json: invoiceBody,
          },
        ]
      : []),
    ...(peer && invoice
      ? [
          {
            name: INVOICE_PEER,
            compareTo: 'raw POST',
            url: `${peer.url}/invoice`,
            method: 'POST',
            headers: peerHeaders,
            body: 'json',
            json: peerInvoiceBody,
            pid: peer.pid,
          },
        ]
      : []),
    ...(canReadInvoice
      ? [
          {
            name: 'get invoice',
            compareTo: 'raw GET',
            url: `${base}/invoice/${invoice.id}`,
            method: 'GET',
            headers: { 'x-api-key': key },
          },
        ]
      : []),
    ...(invoice
      ? [
          {
            name: 'finalize',
            compareTo: 'raw POST',
            url: base,
            method: 'POST',
            headers: { 'x-api-key': key },
            freshPaths: pathsFor.finalize,
            consume: (n) => (drafts.next += n),
          },
          ...(peer
            ? [
                {
                  name: FINALIZE_PEER,
                  compareTo: 'raw POST',
                  url: peer.url,
                  method: 'POST',
                  headers: { 'x-api-key': peer.key },
                  freshPaths: pathsFor[FINALIZE_PEER],
                  consume: (n) => (peerDrafts.next += n),
                  pid: peer.pid,
                },
              ]
            : []),
          ...(tenants.length > 0
            ? [
                {
                  name: 'finalize, 100 companies',
                  compareTo: 'raw POST',
                  url: base,
                  method: 'POST',
                  headers: {},
                  freshPaths: pathsFor['finalize, 100 companies'],
                  consume: (n) => (spreadDrafts.next += n),
                },
              ]
            : []),
          {
            name: 'payment',
            compareTo: 'raw POST',
            url: base,
            method: 'POST',
            headers,
            body: 'json',
            json: { amount: '0.01', reference: 'bench' },
            setUp: async (s) => {
              s.paths ??= await issuedPaths((id) => `/invoice/${id}/payment`);
              s.cycle = true;
            },
          },
          {
            name: 'credit note',
            compareTo: 'raw POST',
            url: `${base}/credit-note`,
            method: 'POST',
            headers,
            body: 'json',
            json: null,
            setUp: async (s) => {
              if (s.bodies) return;
              // One credit note of one small line, round the pool: every request names the next invoice.
              const ids = await collect(200, '/invoice', large);
              s.bodies = ids.map((invoiceId) => ({
                invoiceId,
                reason: 'Bench correction',
                lines: [{ name: 'Retainer', quantity: 1, unitPrice: '0.01', vatRate: '19' }],
              }));
            },
          },
        ]
      : []),
    ...(canReadInvoice
      ? [
          {
            name: 'invoice UBL',
            compareTo: 'get invoice',
            url: `${base}/invoice/${invoice.id}/ubl`,
            method: 'GET',
            headers: { 'x-api-key': key },
          },
        ]
      : []),
    ...(canReadInvoice
      ? [
          {
            name: 'invoice PDF',
            compareTo: 'raw GET',
            url: `${base}/invoice/${invoice.id}/pdf`,
            method: 'GET',
            headers: { 'x-api-key': key },
          },
        ]
      : []),
    ...(invoice
      ? [
          {
            name: 'invoice, hanging webhook',
            compareTo: 'invoice',
            switch: switchHanging,
            url: `${base}/invoice`,
            method: 'POST',
            headers,
            body: 'json',
            json: invoiceBody,
          },
        ]
      : []),
    ...(canReadInvoice
      ? [
          {
            name: 'purchase invoice intake (20-line UBL)',
            compareTo: 'raw POST',
            url: `${base}/purchase-invoice`,
            method: 'POST',
            headers: { 'content-type': 'application/xml', 'x-api-key': key },
            body: 'template',
            setUp: async (s) => {
              if (s.template) return;
              // Our own 20-line invoice as UBL, received as a supplier's: each request a new number.
              const lines = Array.from({ length: 20 }, (_, i) => ({
                ...invoiceBody.lines[i % invoiceBody.lines.length],
                name: `Item ${i + 1}`,
              }));
              const res = await fetch(`${base}/invoice`, {
                method: 'POST',
                headers,
                body: JSON.stringify({ ...invoiceBody, lines }),
              });
              const made = (await res.json()).data;
              s.template = await (await fetch(`${base}/invoice/${made.id}/ubl`, { headers })).text();
              s.placeholder = `<cbc:ID>${made.number}</cbc:ID>`;
              s.unique = made.number;
              if (!s.template.includes(s.placeholder))
                throw new Error('set-up: the UBL does not carry the invoice number');
            },
          },
        ]
      : []),
  ].filter(
    (s, _, all) =>
      !ONLY ||
      ONLY.has(s.name) ||
      all.some(
        (o) =>
          ONLY.has(o.name) &&
          (o.compareTo === s.name || TARGETS[o.name]?.peer?.name === s.name || TARGETS[o.name]?.over?.name === s.name),
      ),
  );

  // Each scenario is measured right after its baseline, so that both see the same machine: on a
  // small shared machine throughput drifts by tens of percent between minutes.
  // With `profile`, the load alone (not the set-up before it) runs under the service's profiler.
  const loadOnce = async (scenario, seconds, pid, profile = false) => {
    const load = (s) =>
      profile
        ? profiled(
            inspectPort,
            join(ROOT, 'bench/results', `${database.dialect}-${s.name.replace(/\W+/g, '-')}-${Date.now()}.cpuprofile`),
            () => runLoad(s, seconds, pid),
          )
        : runLoad(s, seconds, pid);
    if (scenario.freshPaths) {
      const paths = await scenario.freshPaths(seconds);
      // The rows just made for it (thousands of drafts) are analysed too, or the statements are
      // planned for the tables as they were before them.
      if (database.dialect === 'postgres' && pid !== baseline.pid) await vacuumAnalyse(database.url);
      const out = await load({ ...scenario, paths });
      scenario.consume(out.consumed);
      return out;
    }
    return load(scenario);
  };
  const measure = async (scenario, pid) => {
    await scenario.setUp?.(scenario);
    if (database.dialect === 'postgres' && pid !== baseline.pid) await vacuumAnalyse(database.url);
    process.stderr.write(
      `bench: ${scenario.name}: warm-up ${WARMUP} s, then ${DURATION} s with ${CONNECTIONS} connections\n`,
    );
    if (WARMUP > 0) await loadOnce(scenario, WARMUP, pid);
    const run = await loadOnce(scenario, DURATION, pid, pid === service.pid && PROFILE.has(scenario.name));
    return pid === service.pid ? { ...run, memory: await serverMemory(servicePort, pid) } : run;
  };
  // Runs of equal length as one: the mean rate, the worst latencies and memory, every error.
  const combine = (runs) => {
    if (runs.length === 1) return runs[0];
    const sum = (pick) => runs.reduce((total, r) => total + pick(r), 0);
    const statusCodes = {};
    for (const r of runs)
      for (const [code, stats] of Object.entries(r.statusCodes ?? {}))
        statusCodes[code] = { count: (statusCodes[code]?.count ?? 0) + stats.count };
    return {
      requestsPerSecond: sum((r) => r.requestsPerSecond) / runs.length,
      total: sum((r) => r.total),
      p50: Math.max(...runs.map((r) => r.p50)),
      p99: Math.max(...runs.map((r) => r.p99)),
      meanMs:
        sum((r) => r.meanMs * r.total) /
        Math.max(
          1,
          sum((r) => r.total),
        ),
      non2xx: sum((r) => r.non2xx),
      errors: sum((r) => r.errors),
      statusCodes,
      consumed: sum((r) => r.consumed),
      peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
      serverCpuMs: runs.some((r) => r.serverCpuMs === null) ? null : sum((r) => r.serverCpuMs),
      memory: runs.at(-1).memory ?? null,
    };
  };
  const baselineRuns = { 'raw GET': [], 'raw POST': [] };
  const measured = {};
  const record = (scenario, run, before) => ({
    ...run,
    compareTo: scenario.compareTo,
    baselineRps: before.requestsPerSecond,
    baselineP99: before.p99,
  });
  for (const scenario of scenarios) {
    const pid = scenario.pid ?? service.pid;
    if (measured[scenario.compareTo]) {
      // Against another scenario of this run: measured again now, on the same machine, with what
      // the scenario switches on (a webhook endpoint) switched off, and on; PAIRS times over.
      // Every other pair is measured the other way round (with, then without), so that what
      // drifts during the run (a database that grows) weighs on both sides alike.
      const befores = [];
      const afters = [];
      const plain = scenarios.find((s) => s.name === scenario.compareTo);
      for (let pair = 0; pair < (scenario.switch ? PAIRS : 1); pair++) {
        for (const on of pair % 2 === 0 ? [false, true] : [true, false]) {
          await scenario.switch?.(on);
          if (on) afters.push(await measure(scenario, pid));
          else befores.push(await measure(plain, service.pid));
        }
      }
      measured[scenario.name] = {
        ...record(scenario, combine(afters), combine(befores)),
        pairs: afters.map((after, i) => ({ without: befores[i].requestsPerSecond, with: after.requestsPerSecond })),
      };
      continue;
    }
    const before = await measure(baselines[scenario.compareTo], baseline.pid);
    baselineRuns[scenario.compareTo].push(before);
    measured[scenario.name] = record(scenario, await measure(scenario, pid), before);
  }
  // How cost grows: the write scenarios again on the database grown to each BENCH_ROWS size, each
  // right after its baseline, as above.
  const growth = [];
  const growing = scenarios.filter((s) => GROWTH_SCENARIOS.includes(s.name) && measured[s.name]);
  if (GROWTH_ROWS.length > 0 && growing.length > 0) {
    // 1× is measured again once the database is settled as each grown one will be (PostgreSQL
    // analysed: this server may run without autovacuum) and the service warm, then at each size.
    let seeded = 0;
    for (const rows of [0, ...GROWTH_ROWS]) {
      process.stderr.write(`bench: seeding invoices ${seeded} to ${rows}\n`);
      const seed = await seedInvoices({ url: database.url, companyId: company.id, from: seeded, to: rows });
      seeded = rows;
      process.stderr.write(`bench: ${seed.invoices} invoices after ${seed.seconds.toFixed(1)} s of seeding\n`);
      const results = {};
      for (const scenario of growing) {
        const before = await measure(baselines[scenario.compareTo], baseline.pid);
        const run = await measure(scenario, service.pid);
        results[scenario.name] = { ...run, baselineRps: before.requestsPerSecond };
      }
      growth.push({ seeded: rows, invoices: seed.invoices, seedSeconds: seed.seconds, results });
    }
  }
  const growthRows = growing
    .filter(() => growth.length > 0)
    .map((scenario) => {
      const [first, ...grown] = growth.map((g) => g.results[scenario.name]);
      const sizes = grown.map((r) => {
        const kept = r.requestsPerSecond / first.requestsPerSecond;
        const keptToBaseline = r.requestsPerSecond / r.baselineRps / (first.requestsPerSecond / first.baselineRps);
        return {
          requestsPerSecond: r.requestsPerSecond,
          kept,
          keptToBaseline,
          // Both: the baseline itself swings by half between runs on a busy machine.
          slower: kept < GROWTH_KEPT && keptToBaseline < GROWTH_KEPT,
          failed: r.non2xx + r.errors,
        };
      });
      return { scenario: scenario.name, requestsPerSecond: first.requestsPerSecond, sizes };
    });

  const results = {};
  for (const [name, runs] of Object.entries(baselineRuns)) {
    if (runs.length === 0) continue;
    results[name] = { ...combine(runs), compareTo: null, runs: runs.length };
  }
  Object.assign(results, measured);

  const rows = Object.entries(results).map(([name, r]) => {
    const ratio = r.compareTo ? r.requestsPerSecond / r.baselineRps : null;
    const t = TARGETS[name] ?? {};
    const peerRun = t.peer ? results[t.peer.name] : undefined;
    const peerFactor = peerRun ? r.requestsPerSecond / peerRun.requestsPerSecond : null;
    const overRun = t.over ? results[t.over.name] : undefined;
    const overFactor = overRun ? r.requestsPerSecond / overRun.requestsPerSecond : null;
    const rssLimit = t.rssMb === undefined ? RSS_TARGET_MB : t.rssMb;
    const missed =
      r.compareTo === null || name === t.peer?.name
        ? []
        : [
            ...(t.ratio && ratio < t.ratio ? ['ratio'] : []),
            ...(peerFactor !== null && t.peer.factor && peerFactor < t.peer.factor ? ['vs peer'] : []),
            ...(overFactor !== null && overFactor < t.over.factor ? [`vs ${t.over.name}`] : []),
            ...(t.minRps && r.requestsPerSecond < t.minRps ? ['req/s'] : []),
            ...(r.p99 > P99_FACTOR * r.meanMs ? ['p99'] : []),
            ...(rssLimit !== null && r.peakRssMb > rssLimit ? ['RSS'] : []),
            ...(r.non2xx > 0 || r.errors > 0 ? ['errors'] : []),
          ];
    return {
      scenario: name,
      ...r,
      // The server's CPU time per answered request, µs (the baselines' own for their rows).
      cpuPerRequestUs: r.serverCpuMs === null || !r.total ? null : (r.serverCpuMs * 1000) / r.total,
      ratio,
      targetRatio: t.ratio ?? null,
      peerFactor,
      overFactor,
      met: missed.length === 0,
      missed,
    };
  });

  const targetText = (r) => {
    const t = TARGETS[r.scenario] ?? {};
    if (r.ratio === null) return '';
    const parts = [
      t.ratio ? `≥ ${t.ratio}×` : null,
      t.peer?.factor ? `≥ ${t.peer.factor}× peer` : null,
      t.over ? `≥ ${t.over.factor}× ${t.over.name}` : null,
      t.minRps ? `≥ ${t.minRps}/s` : null,
      `p99 ≤ ${Math.round(P99_FACTOR * r.meanMs)} ms`,
      t.rssMb === null ? 'RSS: none' : null,
    ].filter(Boolean);
    return parts.join(', ');
  };
  const isPeer = (name) => Object.values(TARGETS).some((t) => t.peer?.name === name);
  const table = [
    '| scenario | req/s | p50 ms | p99 ms | non-2xx | errors | server RSS MB | server CPU µs/req | ratio to baseline | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${Math.round(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${r.peakRssMb.toFixed(0)} | ${r.cpuPerRequestUs === null ? '?' : Math.round(r.cpuPerRequestUs)} | ${r.ratio === null ? 'baseline' : `${r.ratio.toFixed(2)} (to ${r.compareTo})${r.peerFactor === null ? '' : `, ${r.peerFactor.toFixed(2)}× peer`}${r.overFactor === null ? '' : `, ${r.overFactor.toFixed(2)}× ${TARGETS[r.scenario].over.name}`}`} | ${isPeer(r.scenario) ? 'peer, no target' : targetText(r)} | ${r.ratio === null || isPeer(r.scenario) ? '' : r.met ? 'yes' : `no: ${r.missed.join(', ')}`} |`,
    ),
  ].join('\n');

  // Where the RSS under load sits: the heap against the rest, after each scenario of the service.
  const withMemory = rows.filter((r) => r.memory);
  const memoryText =
    withMemory.length === 0
      ? ''
      : [
          '',
          '',
          'Server memory right after each scenario, MB (heap from its /metrics; RSS less heap is the binary, native memory and threads;',
          "worker heaps are the PDF and reading threads' committed V8 heaps from /metrics; the last three columns split the RSS by kind",
          'of page: V8 heap pages of every isolate, other anonymous memory, file-backed):',
          '',
          '| scenario | RSS | heap committed (young, old) | heap used | external | not heap | worker heaps (PDF, reading) | V8 pages | other anonymous | file |',
          '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
          ...withMemory.map(
            ({ scenario, memory: m }) =>
              `| ${scenario} | ${m.rssMb} | ${m.heapTotalMb} (${m.newSpaceMb}, ${m.oldSpaceMb}) | ${m.heapUsedMb} | ${m.externalMb} | ${m.rssMb - m.heapTotalMb} | ${m.pdfHeapMb}, ${m.receiveHeapMb} | ${m.v8PagesMb ?? '?'} | ${m.otherAnonMb ?? '?'} | ${m.fileMb ?? '?'} |`,
          ),
        ].join('\n');

  // One column pair per size: req/s there, and what it kept of the 1× rate (raw; as a ratio to the baseline).
  const count = (n) => n.toLocaleString('en');
  const growthText =
    growth.length === 0
      ? ''
      : [
          '',
          '',
          `How cost grows: the write scenarios on the database grown by seeded invoices (bench/seed.mjs); "kept" is the grown rate over the 1× one, raw and as ratios to the raw POST baseline measured just before each; below ${GROWTH_KEPT} of it both ways (slower by more than ${Math.round((1 - GROWTH_KEPT) * 100)} %) is flagged.`,
          '',
          `| scenario | 1× (${count(growth[0].invoices)} invoices) req/s | ${growth
            .slice(1)
            .map((g) => `${count(g.invoices)} invoices req/s | kept (raw; to baseline)`)
            .join(' | ')} | slower by more than ${Math.round((1 - GROWTH_KEPT) * 100)} % |`,
          `|---|---:|${growth
            .slice(1)
            .map(() => '---:|---:|')
            .join('')}---|`,
          ...growthRows.map(
            (r) =>
              `| ${r.scenario} | ${Math.round(r.requestsPerSecond)} | ${r.sizes
                .map(
                  (z) =>
                    `${Math.round(z.requestsPerSecond)}${z.failed > 0 ? ` (${z.failed} failed)` : ''} | ${z.kept.toFixed(2)}; ${z.keptToBaseline.toFixed(2)}`,
                )
                .join(' | ')} | ${r.sizes.some((z) => z.slower) ? 'yes: a plan to fix' : 'no'} |`,
          ),
          '',
          `Seeding: ${growth
            .slice(1)
            .map((g) => `to ${count(g.seeded)} seeded invoices in ${g.seedSeconds.toFixed(0)} s`)
            .join(', ')}.`,
        ].join('\n');
  const report = {
    date: new Date().toISOString(),
    dialect: database.dialect,
    node: process.version,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    logLevel: env.LOG_LEVEL,
    processes: Number(env.CLUSTER_WORKERS ?? 1),
    targets: { scenarios: TARGETS, p99Factor: P99_FACTOR, rssMb: RSS_TARGET_MB, startupRssMb: STARTUP_RSS_TARGET_MB },
    startupRssMb,
    results: rows,
    ...(growth.length > 0
      ? {
          growth: {
            keptTarget: GROWTH_KEPT,
            sizes: growth.map(({ seeded, invoices, seedSeconds }) => ({ seeded, invoices, seedSeconds })),
            scenarios: growthRows,
          },
        }
      : {}),
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `${database.dialect}-${report.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(
    `\nInvoicing API benchmark — ${database.dialect}, ${CONNECTIONS} connections, ${DURATION} s per scenario after ${WARMUP} s warm-up, log level ${env.LOG_LEVEL}\n\n${table}\n\nServer RSS right after start-up: ${startupRssMb?.toFixed(0) ?? '?'} MB (target ≤ ${STARTUP_RSS_TARGET_MB} MB: ${startupRssMb !== null && startupRssMb <= STARTUP_RSS_TARGET_MB ? 'met' : 'missed'}).\nEvery scenario also: p99 ≤ ${P99_FACTOR}× its own mean latency, server RSS ≤ ${RSS_TARGET_MB} MB (but PDF), zero non-2xx.${memoryText}${growthText}\n\nWritten to ${file}\n`,
  );
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  // The service and the peer are stopped, and gone, before their schema is dropped: a server
  // still finishing its work holds locks that a DROP SCHEMA … CASCADE deadlocks with.
  await Promise.all(
    children
      .filter((child) => child.exitCode === null && child.signalCode === null)
      .map(
        (child) =>
          new Promise((done) => {
            const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(force);
              done();
            });
            child.kill('SIGTERM');
          }),
      ),
  );
  for (const cleanup of cleanups)
    await cleanup().catch((error) => console.error(`bench: clean-up failed: ${error.message}`));
  // Nothing is left to wait for: a socket some library keeps open must not keep the bench alive.
  process.exit(process.exitCode ?? 0);
}
