// npm run bench: starts the service on a fresh database, bootstraps a key with the service's own
// CLI, and drives each scenario with autocannon from a separate process. Two baselines (a bare
// node:http JSON server, for GET and for POST) are measured in the same run, and every scenario
// is reported as a ratio to its baseline, so figures compare across machines and runs.
//
//   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_CONNECTIONS=50 npm run bench
//   BENCH_SCENARIOS='invoice, hanging webhook' BENCH_SERVER_FLAGS=--cpu-prof npm run bench   (one scenario, profiled)
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench   (a fresh schema is made)
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';

const ROOT = resolve(import.meta.dirname, '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
// A scenario's ratio is to its baseline: a bare server (raw GET/POST), or another scenario of the
// same run where the question is "how much slower than that" (a UBL against the invoice as JSON,
// invoices with a hanging webhook endpoint against invoices without).
const TARGETS = {
  health: { ratio: 0.5 },
  organization: { ratio: process.env.DATABASE_URL?.startsWith('postgres') ? 0.18 : 0.3 },
  invoice: { ratio: process.env.DATABASE_URL?.startsWith('postgres') ? null : 0.2 },
  'get invoice': { ratio: null },
  'invoice UBL': { ratio: 0.5 },
  'invoice PDF': { ratio: null, minRps: 50, rssMb: 250, p99Ms: null },
  'invoice, hanging webhook': { ratio: 0.9 },
};
const P99_TARGET_MS = 20;
// The service runs with the node flags of `npm start`, so the bench measures what operators run.
const START_FLAGS = (/^node (.*?)\s*dist\/server\.js$/.exec(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start)?.[1] ?? '')
  .split(' ')
  .filter(Boolean)
  // Extra flags for the service only, e.g. BENCH_SERVER_FLAGS=--cpu-prof to profile what a scenario costs.
  .concat((process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean));
// BENCH_SCENARIOS='health;invoice' runs only those (and what they compare to).
const ONLY = process.env.BENCH_SCENARIOS ? new Set(process.env.BENCH_SCENARIOS.split(';').map((s) => s.trim())) : null;
const RSS_TARGET_MB = 150;

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
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
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
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return { url: `sqlite:${join(dir, 'bench.db')}`, dialect: 'sqlite' };
  }
  const schema = `bench_${Date.now()}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema "${schema}"`);
  await client.end();
  cleanups.push(async () => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  });
  const separator = url.includes('?') ? '&' : '?';
  return { url: `${url}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`, dialect: 'postgres' };
}

function cli(env, ...args) {
  return JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin/invoicing.js'), ...args, '--json'], { env, encoding: 'utf8' }));
}

function runLoad(scenario, seconds, pid) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench/load.mjs'), JSON.stringify({ ...scenario, duration: seconds, connections: CONNECTIONS })], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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
      done({ ...JSON.parse(out), peakRssMb: peakRss });
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
  };
  delete env.REDIS_URL;
  if (process.env.BENCH_REDIS_URL) env.REDIS_URL = process.env.BENCH_REDIS_URL;

  const logFd = openSync(logFile, 'w');
  const service = spawn(process.execPath, [...START_FLAGS, join(ROOT, 'dist/server.js')], { env, stdio: ['ignore', logFd, logFd] });
  children.push(service);
  const base = `http://127.0.0.1:${servicePort}/api/v1.0.0/public`;
  await waitFor(base, service);

  const baselinePort = await freePort();
  const baseline = spawn(process.execPath, [join(ROOT, 'bench/baseline-server.mjs')], { env: { ...process.env, PORT: String(baselinePort) }, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(baseline);
  const raw = `http://127.0.0.1:${baselinePort}/`;
  await waitFor(raw, baseline);

  // Bootstrap through the service's own code: the admin CLI on the same database.
  const company = cli(env, 'company', 'create', '--name', 'Bench GmbH', '--vat-id', 'DE123456789', '--country', 'DE');
  // A seller profile complete enough for a Peppol e-invoice.
  cli(env, 'company', 'update', company.id, '--legal-name', 'Bench GmbH', '--line1', 'Friedrichstr. 100', '--city', 'Berlin', '--postal-code', '10117',
    '--electronic-address', '9930:DE123456789', '--contact-name', 'Ada Bench', '--contact-phone', '+49 30 987654', '--contact-email', 'billing@bench.example',
    '--iban', 'DE89370400440532013000', '--bic', 'COBADEFFXXX', '--payment-terms', 'Payable within 30 days.');
  const { PERMISSION_NAMES } = await import(join(ROOT, 'dist/auth/permissions.js'));
  const permissions = PERMISSION_NAMES.join(',');
  const { key } = cli(env, 'key', 'create', '--company', company.id, '--name', 'bench', '--permissions', permissions);
  const headers = { 'content-type': 'application/json', 'x-api-key': key };

  const buyer = await (await fetch(`${base}/organization`, { method: 'POST', headers, body: JSON.stringify({
    name: 'Bench Buyer',
    isCustomer: true,
    vatId: 'DE811907980',
    address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
    electronicAddress: { scheme: '9930', identifier: 'DE811907980' },
  }) })).json();
  const invoiceBody = {
    organizationId: buyer.data.id,
    buyerReference: 'PO-4711',
    lines: [
      { name: 'Consulting', quantity: '7.5', unitPrice: '120.00', vatRate: '19' },
      { name: 'Travel', quantity: 1, unitPrice: '245.30', vatRate: '19' },
      { name: 'Books', quantity: 3, unitPrice: '19.99', vatRate: '7' },
      { name: 'Licence', quantity: '12', unitPrice: '9.95', discountPercent: '10', vatRate: '19' },
      { name: 'Export service', quantity: 1, unitPrice: '500', vatRate: '0', vatCategory: 'G' },
    ],
  };
  const invoiceProbe = await fetch(`${base}/invoice`, { method: 'POST', headers, body: JSON.stringify(invoiceBody) });
  const invoice = invoiceProbe.status === 201 ? (await invoiceProbe.json()).data : null;
  const canReadInvoice = invoice !== null && (await fetch(`${base}/invoice/${invoice.id}`, { headers })).status === 200;

  const baselines = {
    'raw GET': { name: 'raw GET', url: raw, method: 'GET', headers: {} },
    'raw POST': { name: 'raw POST', url: raw, method: 'POST', headers: { 'content-type': 'application/json' }, body: 'raw' },
  };
  // A receiver that accepts connections and never answers: every delivery to it runs into the
  // 10-second timeout and is retried.
  const hanging = createServer(() => {});
  await new Promise((done) => hanging.listen(0, '127.0.0.1', done));
  cleanups.push(async () => hanging.close());
  const hangingEndpoint = async () => {
    const res = await fetch(`${base}/webhook-endpoint`, { method: 'POST', headers, body: JSON.stringify({ url: `http://127.0.0.1:${hanging.address().port}/hooks`, events: ['*'] }) });
    if (res.status !== 201) throw new Error(`creating the hanging webhook endpoint answered ${res.status}`);
  };

  const scenarios = [
    { name: 'health', compareTo: 'raw GET', url: base, method: 'GET', headers: { 'x-api-key': key } },
    { name: 'organization', compareTo: 'raw POST', url: `${base}/organization`, method: 'POST', headers, body: 'organization' },
    ...(invoice ? [{ name: 'invoice', compareTo: 'raw POST', url: `${base}/invoice`, method: 'POST', headers, body: 'invoice', invoiceBody }] : []),
    ...(canReadInvoice ? [{ name: 'get invoice', compareTo: 'raw GET', url: `${base}/invoice/${invoice.id}`, method: 'GET', headers: { 'x-api-key': key } }] : []),
    ...(canReadInvoice ? [{ name: 'invoice UBL', compareTo: 'get invoice', url: `${base}/invoice/${invoice.id}/ubl`, method: 'GET', headers: { 'x-api-key': key } }] : []),
    ...(canReadInvoice ? [{ name: 'invoice PDF', compareTo: 'raw GET', url: `${base}/invoice/${invoice.id}/pdf`, method: 'GET', headers: { 'x-api-key': key } }] : []),
    ...(invoice
      ? [{ name: 'invoice, hanging webhook', compareTo: 'invoice', before: hangingEndpoint, url: `${base}/invoice`, method: 'POST', headers, body: 'invoice', invoiceBody }]
      : []),
  ].filter((s, _, all) => !ONLY || ONLY.has(s.name) || all.some((o) => ONLY.has(o.name) && o.compareTo === s.name));

  // Each scenario is measured right after its baseline, so that both see the same machine: on a
  // small shared machine throughput drifts by tens of percent between minutes.
  const measure = async (scenario, pid) => {
    process.stderr.write(`bench: ${scenario.name}: warm-up ${WARMUP} s, then ${DURATION} s with ${CONNECTIONS} connections\n`);
    if (WARMUP > 0) await runLoad(scenario, WARMUP, pid);
    return runLoad(scenario, DURATION, pid);
  };
  const baselineRuns = { 'raw GET': [], 'raw POST': [] };
  const measured = {};
  for (const scenario of scenarios) {
    if (measured[scenario.compareTo]) {
      // Against another scenario of this run: measured again now, right before, on the same machine
      // (and before the scenario's own set-up, such as a webhook endpoint, takes effect).
      const before = await measure(scenarios.find((s) => s.name === scenario.compareTo), service.pid);
      await scenario.before?.();
      measured[scenario.name] = { ...(await measure(scenario, service.pid)), compareTo: scenario.compareTo, baselineRps: before.requestsPerSecond };
      continue;
    }
    const before = await measure(baselines[scenario.compareTo], baseline.pid);
    baselineRuns[scenario.compareTo].push(before);
    measured[scenario.name] = { ...(await measure(scenario, service.pid)), compareTo: scenario.compareTo, baselineRps: before.requestsPerSecond };
  }
  const results = {};
  for (const [name, runs] of Object.entries(baselineRuns)) {
    if (runs.length === 0) continue;
    const mean = (pick) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
    results[name] = {
      requestsPerSecond: mean((r) => r.requestsPerSecond),
      p50: Math.max(...runs.map((r) => r.p50)),
      p99: Math.max(...runs.map((r) => r.p99)),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)),
      compareTo: null,
      runs: runs.length,
    };
  }
  Object.assign(results, measured);

  const rows = Object.entries(results).map(([name, r]) => {
    const ratio = r.compareTo ? r.requestsPerSecond / r.baselineRps : null;
    const target = TARGETS[name]?.ratio ?? null;
    const p99Target = TARGETS[name]?.p99Ms === undefined ? P99_TARGET_MS : TARGETS[name].p99Ms;
    const missed = r.compareTo === null ? [] : [
      ...(target !== null && ratio < target ? ['ratio'] : []),
      ...(TARGETS[name]?.minRps && r.requestsPerSecond < TARGETS[name].minRps ? ['req/s'] : []),
      ...(p99Target !== null && r.p99 > p99Target ? ['p99'] : []),
      ...(r.peakRssMb > (TARGETS[name]?.rssMb ?? RSS_TARGET_MB) ? ['RSS'] : []),
      ...(r.non2xx > 0 || r.errors > 0 ? ['errors'] : []),
    ];
    return { scenario: name, ...r, ratio, targetRatio: target, met: missed.length === 0, missed };
  });

  const targetText = (name, r) => {
    const t = TARGETS[name];
    if (r.ratio === null) return '';
    const parts = [t?.ratio ? `≥ ${t.ratio}×` : null, t?.minRps ? `≥ ${t.minRps}/s` : null, t?.rssMb ? `RSS ≤ ${t.rssMb} MB` : null].filter(Boolean);
    return parts.length ? parts.join(', ') : '-';
  };
  const table = [
    '| scenario | req/s | p50 ms | p99 ms | non-2xx | errors | server RSS MB | ratio to baseline | target | missed |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map((r) =>
      `| ${r.scenario} | ${Math.round(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.errors} | ${r.peakRssMb.toFixed(0)} | ${r.ratio === null ? 'baseline' : `${r.ratio.toFixed(2)} (to ${r.compareTo})`} | ${targetText(r.scenario, r)} | ${r.ratio === null ? '' : r.met ? 'none' : r.missed.join(', ')} |`,
    ),
  ].join('\n');

  const report = {
    date: new Date().toISOString(),
    dialect: database.dialect,
    node: process.version,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    warmupSeconds: WARMUP,
    logLevel: env.LOG_LEVEL,
    targets: { ratios: TARGETS, p99Ms: P99_TARGET_MS, rssMb: RSS_TARGET_MB },
    results: rows,
  };
  mkdirSync(join(ROOT, 'bench/results'), { recursive: true });
  const file = join(ROOT, 'bench/results', `${database.dialect}-${report.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nInvoicing API benchmark — ${database.dialect}, ${CONNECTIONS} connections, ${DURATION} s per scenario after ${WARMUP} s warm-up, log level ${env.LOG_LEVEL}\n\n${table}\n\nTargets: p99 ≤ ${P99_TARGET_MS} ms, server RSS ≤ ${RSS_TARGET_MB} MB, zero non-2xx. Written to ${file}\n`);
}

try {
  await main();
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  for (const cleanup of cleanups) await cleanup().catch(() => {});
}
