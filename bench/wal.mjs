// What each write costs a PostgreSQL primary in write-ahead log: the built server on a fresh
// schema, one request at a time (no concurrency, so nothing but the write itself is counted), the
// WAL position read before and after `BENCH_WAL_REQUESTS` (1,000) of each write.
//
//   npm run build && node bench/wal.mjs postgres://postgres@127.0.0.1:5432/test
//
// The machine should be quiet: the WAL position is the whole server's. A checkpoint in the middle
// of a write's requests adds full-page images to its figure (one per page touched first after it).
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { INVOICE_LINES } from './invoice-lines.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const url = process.argv[2];
if (!url?.startsWith('postgres')) throw new Error('usage: node bench/wal.mjs <postgres://… URL>');
const COUNT = Number(process.env.BENCH_WAL_REQUESTS ?? 1000);

const admin = new pg.Client({ connectionString: url });
await admin.connect();
const schema = `bench_wal_${Date.now()}`;
await admin.query(`create schema "${schema}"`);

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const databaseUrl = new URL(url);
databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
const env = {
  ...process.env,
  DATABASE_URL: databaseUrl.href,
  DATA_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  HOST: '127.0.0.1',
  PORT: String(port),
  LOG_LEVEL: 'warn',
  RATE_LIMIT_MAX: '100000000',
};
const cli = (...args) =>
  JSON.parse(execFileSync(process.execPath, [join(ROOT, 'bin/invoicing.js'), ...args, '--json'], { env }).toString());

let server;
try {
  const company = cli('company', 'create', '--name', 'WAL GmbH', '--vat-id', 'DE123456789', '--country', 'DE');
  const { PERMISSION_NAMES } = await import(join(ROOT, 'dist/auth/permissions.js'));
  const { key } = cli(
    'key',
    'create',
    '--company',
    company.id,
    '--name',
    'wal',
    '--permissions',
    PERMISSION_NAMES.join(','),
  );
  server = spawn(process.execPath, [join(ROOT, 'dist/server.js')], { env, stdio: ['ignore', 'ignore', 'ignore'] });
  const base = `http://127.0.0.1:${port}/api/v1.0.0/public`;
  const deadline = Date.now() + 30_000;
  while (
    !(await fetch(base).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (Date.now() > deadline || server.exitCode !== null) throw new Error('the server did not answer within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const post = async (path, body) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = await res.json();
    if (!answer.success) throw new Error(`${path}: ${res.status} ${JSON.stringify(answer.error)}`);
    return answer.data;
  };
  const buyer = await post('/organization', {
    name: 'Buyer AG',
    isCustomer: true,
    vatId: 'DE811907980',
    address: { line1: 'Weg 2', city: 'Hamburg', postalCode: '20095', countryCode: 'DE' },
  });
  // The bench's invoice of five lines.
  const invoice = {
    organizationId: buyer.id,
    lines: INVOICE_LINES,
  };

  const walPosition = async () => (await admin.query('select pg_current_wal_lsn() as lsn')).rows[0].lsn;
  const rows = [];
  async function measure(name, write) {
    const before = await walPosition();
    for (let i = 0; i < COUNT; i++) await write(i);
    const { rows: diff } = await admin.query('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1)::float8 as bytes', [
      before,
    ]);
    rows.push(`| ${name} | ${Math.round(diff[0].bytes / COUNT).toLocaleString('en')} |`);
  }

  const drafts = [];
  const issued = [];
  await measure('`POST /organization`', (i) => post('/organization', { name: `Customer ${i}`, isCustomer: true }));
  await measure('`POST /invoice`, draft (5 lines)', async () =>
    drafts.push((await post('/invoice', { ...invoice, status: 'draft' })).id),
  );
  await measure('`POST /invoice`, issued (5 lines)', async () => issued.push((await post('/invoice', invoice)).id));
  await measure('finalize', (i) => post(`/invoice/${drafts[i]}/finalize`));
  await measure('payment', (i) => post(`/invoice/${issued[i]}/payment`, { amount: '0.01' }));
  await measure('credit note (1 line)', (i) =>
    post('/credit-note', {
      invoiceId: issued[i],
      reason: 'Correction',
      lines: [{ name: 'Retainer', quantity: 1, unitPrice: '0.01', vatRate: '19' }],
    }),
  );
  process.stdout.write(`| write | WAL bytes a request |\n|---|---:|\n${rows.join('\n')}\n`);
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  await admin.query(`drop schema "${schema}" cascade`);
  await admin.end();
}
