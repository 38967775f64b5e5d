// The PostgreSQL peer: POST /organization written the way a typical team writes it, to measure our
// service against in the same run (issue 16). Express 5 with express.json, a pg Pool, the API key
// looked up by its prefix and checked by SHA-256 on every request, one INSERT, an envelope answer.
// It keeps its own tables in the bench's throwaway schema and prints {port, key, buyerId} when ready.
//
// It also writes invoices as lean as such a team could: POST /invoice (totals with decimal.js; the
// invoice, its lines and, unless a draft, its gapless number in one statement) and POST
// /invoice/:id/finalize (the number and the status in one statement). No idempotency, events,
// limits, schema validation or e-invoice rules: what one company's numbers cost at the least on
// the same machine and database, against which our own invoice and finalize are read.
//
//   DATABASE_URL=postgres://…?options=-c%20search_path%3Dbench_x PORT=0 node bench/peer-express.mjs
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import pg from 'pg';
import { fail, invoiceJson, peerApp, readInvoice } from './peer-invoice.mjs';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.PEER_POOL_MAX ?? 10) });
const sha256 = (text) => createHash('sha256').update(text).digest();

await pool.query(`create table if not exists peer_api_keys (
  prefix text primary key, secret_hash bytea not null, company_id text not null, revoked_at timestamptz)`);
await pool.query(`create table if not exists peer_organizations (
  id text primary key, company_id text not null, name text not null, is_customer boolean not null,
  created_at timestamptz not null default now())`);
await pool.query(`create table if not exists peer_counters (
  company_id text primary key, next_number bigint not null)`);
await pool.query(`create table if not exists peer_invoices (
  id text primary key, company_id text not null, organization_id text not null, status text not null,
  number bigint, buyer_reference text, net numeric(19, 2) not null, tax numeric(19, 2) not null,
  gross numeric(19, 2) not null, created_at timestamptz not null default now(), issued_at timestamptz,
  unique (company_id, number))`);
await pool.query(`create table if not exists peer_invoice_lines (
  invoice_id text not null, position int not null, name text not null, quantity numeric not null,
  unit_price numeric not null, vat_rate numeric not null, net numeric(19, 2) not null,
  primary key (invoice_id, position))`);
await pool.query(`insert into peer_counters values ('company_peer', 1) on conflict do nothing`);
const buyerId = `org_${randomUUID()}`;
await pool.query(
  `insert into peer_organizations (id, company_id, name, is_customer) values ($1, 'company_peer', 'Peer buyer', true)`,
  [buyerId],
);
const prefix = randomBytes(6).toString('hex');
const secret = randomBytes(24).toString('base64url');
await pool.query('insert into peer_api_keys (prefix, secret_hash, company_id) values ($1, $2, $3)', [
  prefix,
  sha256(secret),
  'company_peer',
]);

const app = peerApp();

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

// The invoice with its lines, as the statements below return it.
const withLines = `(select json_agg(l order by l.position) from lines l) as lines`;

app.post('/invoice', async (req, res) => {
  const invoice = readInvoice(req, res);
  if (!invoice) return;
  const { organizationId, buyerReference, draft, parsed, net, tax, gross } = invoice;
  const { rows } = await pool.query(
    `with buyer as (select id from peer_organizations where id = $2 and company_id = $3),
     counter as (update peer_counters set next_number = next_number + 1
                 where company_id = $3 and not $8 and exists (select 1 from buyer) returning next_number - 1 as number),
     invoice as (insert into peer_invoices (id, company_id, organization_id, status, number, buyer_reference, net, tax, gross, issued_at)
                 select $1, $3, buyer.id, case when $8 then 'draft' else 'issued' end, (select number from counter), $4, $5, $6, $7,
                        case when $8 then null else now() end
                 from buyer returning *),
     lines as (insert into peer_invoice_lines (invoice_id, position, name, quantity, unit_price, vat_rate, net)
               select invoice.id, x.position, x.name, x.quantity, x.unit_price, x.vat_rate, x.net
               from invoice, jsonb_to_recordset($9::jsonb) as x(position int, name text, quantity numeric, unit_price numeric, vat_rate numeric, net numeric)
               returning *)
     select invoice.*, ${withLines} from invoice`,
    [
      `inv_${randomUUID()}`,
      organizationId,
      res.locals.companyId,
      buyerReference,
      net,
      tax,
      gross,
      draft,
      JSON.stringify(parsed),
    ],
  );
  if (rows.length === 0) return fail(res, 404, 'NOT_FOUND', 'No such organization.');
  res.status(201).json({ success: true, data: invoiceJson(rows[0]), requestId: res.locals.requestId });
});

app.post('/invoice/:id/finalize', async (req, res) => {
  // The draft's row is locked first, so two finalizes of one draft take one number between them.
  const { rows } = await pool.query(
    `with draft as (select id from peer_invoices where id = $1 and company_id = $2 and status = 'draft' for update),
     counter as (update peer_counters set next_number = next_number + 1
                 where company_id = $2 and exists (select 1 from draft) returning next_number - 1 as number),
     invoice as (update peer_invoices i set status = 'issued', number = counter.number, issued_at = now()
                 from counter where i.id = $1 returning i.*),
     lines as (select * from peer_invoice_lines where invoice_id = $1)
     select invoice.*, ${withLines} from invoice`,
    [req.params.id, res.locals.companyId],
  );
  if (rows.length === 0) return fail(res, 409, 'CONFLICT', 'No such draft.');
  res.json({ success: true, data: invoiceJson(rows[0]), requestId: res.locals.requestId });
});

app.use((req, res) => fail(res, 404, 'NOT_FOUND', 'No such route.'));
app.use((error, req, res, next) => {
  if (res.headersSent) return next(error);
  fail(res, error.status ?? 500, error.status === 400 ? 'VALIDATION_ERROR' : 'INTERNAL_ERROR', 'The request failed.');
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port, key: `sk_${prefix}_${secret}`, buyerId })}\n`);
});
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
