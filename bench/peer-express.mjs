// The PostgreSQL peer: POST /organization written the way a typical team writes it, to measure our
// service against in the same run (issue 16). Express 5 with express.json, a pg Pool, the API key
// looked up by its prefix and checked by SHA-256 on every request, one INSERT, an envelope answer.
// It keeps its own two tables in the bench's throwaway schema and prints {port, key} when ready.
//
//   DATABASE_URL=postgres://…?options=-c%20search_path%3Dbench_x PORT=0 node bench/peer-express.mjs
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import express from 'express';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.PEER_POOL_MAX ?? 10) });
const sha256 = (text) => createHash('sha256').update(text).digest();

await pool.query(`create table if not exists peer_api_keys (
  prefix text primary key, secret_hash bytea not null, company_id text not null, revoked_at timestamptz)`);
await pool.query(`create table if not exists peer_organizations (
  id text primary key, company_id text not null, name text not null, is_customer boolean not null,
  created_at timestamptz not null default now())`);
const prefix = randomBytes(6).toString('hex');
const secret = randomBytes(24).toString('base64url');
await pool.query('insert into peer_api_keys (prefix, secret_hash, company_id) values ($1, $2, $3)', [
  prefix,
  sha256(secret),
  'company_peer',
]);

const app = express();
app.use(express.json({ limit: '1mb' }));

const fail = (res, status, code, message) =>
  res.status(status).json({ success: false, error: { code, message }, requestId: res.locals.requestId });

app.use((req, res, next) => {
  res.locals.requestId = `req_${randomUUID()}`;
  res.set('x-request-id', res.locals.requestId);
  next();
});

app.use(async (req, res, next) => {
  const match = /^sk_([0-9a-f]{12})_(.+)$/.exec(req.get('x-api-key') ?? '');
  if (!match) return fail(res, 401, 'INVALID_API_KEY', 'The API key is missing or invalid.');
  const { rows } = await pool.query('select secret_hash, company_id, revoked_at from peer_api_keys where prefix = $1', [
    match[1],
  ]);
  const row = rows[0];
  if (!row || row.revoked_at || !timingSafeEqual(row.secret_hash, sha256(match[2])))
    return fail(res, 401, 'INVALID_API_KEY', 'The API key is missing or invalid.');
  res.locals.companyId = row.company_id;
  next();
});

app.post('/organization', async (req, res) => {
  const { name, isCustomer } = req.body ?? {};
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
    return fail(res, 400, 'VALIDATION_ERROR', 'name must be a non-empty string.');
  const { rows } = await pool.query(
    'insert into peer_organizations (id, company_id, name, is_customer) values ($1, $2, $3, $4) returning id, name, is_customer, created_at',
    [`org_${randomUUID()}`, res.locals.companyId, name.trim(), isCustomer === true],
  );
  const row = rows[0];
  res.status(201).json({
    success: true,
    data: { id: row.id, name: row.name, isCustomer: row.is_customer, createdAt: row.created_at },
    requestId: res.locals.requestId,
  });
});

app.use((req, res) => fail(res, 404, 'NOT_FOUND', 'No such route.'));
app.use((error, req, res, next) => {
  if (res.headersSent) return next(error);
  fail(res, error.status ?? 500, error.status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR', 'The request failed.');
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port, key: `sk_${prefix}_${secret}` })}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
