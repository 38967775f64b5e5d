// The SQLite peer: the lean invoice and finalize of peer-express.mjs on node:sqlite, the way a
// typical team would write them with the same durability as ours (WAL, `synchronous = FULL`): the
// writes that arrive in one turn of the event loop share one transaction and one COMMIT (a group
// commit), and their answers go out after it. Express 5, the API key checked by SHA-256 on every
// request. No idempotency, events, limits, schema validation or e-invoice rules.
//
//   PEER_SQLITE_FILE=/tmp/x/peer.db PORT=0 node bench/peer-express-sqlite.mjs
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate } from 'node:timers';
import { fail, invoiceJson, peerApp, readInvoice } from './peer-invoice.mjs';

const db = new DatabaseSync(process.env.PEER_SQLITE_FILE);
db.exec(`pragma journal_mode = wal; pragma synchronous = full; pragma busy_timeout = 5000;
create table if not exists peer_api_keys (prefix text primary key, secret_hash blob not null, company_id text not null, revoked_at text);
create table if not exists peer_organizations (id text primary key, company_id text not null, name text not null);
create table if not exists peer_counters (company_id text primary key, next_number integer not null);
create table if not exists peer_invoices (id text primary key, company_id text not null, organization_id text not null,
  status text not null, number integer, buyer_reference text, net text not null, tax text not null, gross text not null,
  created_at text not null, issued_at text, unique (company_id, number));
create table if not exists peer_invoice_lines (invoice_id text not null, position integer not null, name text not null,
  quantity text not null, unit_price text not null, vat_rate text not null, net text not null, primary key (invoice_id, position));
insert or ignore into peer_counters values ('company_peer', 1);`);
const sha256 = (text) => createHash('sha256').update(text).digest();
const buyerId = `org_${randomUUID()}`;
db.prepare(`insert into peer_organizations values (?, 'company_peer', 'Peer buyer')`).run(buyerId);
const prefix = randomBytes(6).toString('hex');
const secret = randomBytes(24).toString('base64url');
db.prepare('insert into peer_api_keys (prefix, secret_hash, company_id) values (?, ?, ?)').run(
  prefix,
  sha256(secret),
  'company_peer',
);

const findKey = db.prepare('select secret_hash, company_id, revoked_at from peer_api_keys where prefix = ?');
const findBuyer = db.prepare('select id from peer_organizations where id = ? and company_id = ?');
const takeNumber = db.prepare(
  'update peer_counters set next_number = next_number + 1 where company_id = ? returning next_number - 1 as number',
);
const insertInvoice = db.prepare(`insert into peer_invoices
  (id, company_id, organization_id, status, number, buyer_reference, net, tax, gross, created_at, issued_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning *`);
const insertLine = db.prepare('insert into peer_invoice_lines values (?, ?, ?, ?, ?, ?, ?)');
const issueDraft = db.prepare(`update peer_invoices set status = 'issued', number = ?, issued_at = ?
  where id = ? and company_id = ? and status = 'draft' returning *`);
const isDraft = db.prepare(`select 1 from peer_invoices where id = ? and company_id = ? and status = 'draft'`);
const linesOf = db.prepare('select * from peer_invoice_lines where invoice_id = ? order by position');

// Group commit: each write runs inside the turn's transaction; its answer is sent after COMMIT.
let queue = [];
function write(work, answer) {
  if (queue.length === 0) setImmediate(flush);
  queue.push({ work, answer });
}
function flush() {
  const batch = queue;
  queue = [];
  db.exec('begin immediate');
  const results = batch.map(({ work }) => work());
  db.exec('commit');
  batch.forEach(({ answer }, i) => answer(results[i]));
}

const app = peerApp();
app.use((req, res, next) => {
  const match = /^sk_([0-9a-f]{12})_(.+)$/.exec(req.get('x-api-key') ?? '');
  const row = match ? findKey.get(match[1]) : undefined;
  if (!row || row.revoked_at || !timingSafeEqual(Buffer.from(row.secret_hash), sha256(match[2])))
    return fail(res, 401, 'INVALID_API_KEY', 'The API key is missing or invalid.');
  res.locals.companyId = row.company_id;
  next();
});

app.post('/invoice', (req, res) => {
  const invoice = readInvoice(req, res);
  if (!invoice) return;
  const { organizationId, buyerReference, draft, ...priced } = invoice;
  const company = res.locals.companyId;
  if (!findBuyer.get(organizationId, company)) return fail(res, 404, 'NOT_FOUND', 'No such organization.');
  const id = `inv_${randomUUID()}`;
  write(
    () => {
      const now = new Date().toISOString();
      const number = draft ? null : takeNumber.get(company).number;
      const row = insertInvoice.get(
        id,
        company,
        organizationId,
        draft ? 'draft' : 'issued',
        number,
        buyerReference,
        priced.net,
        priced.tax,
        priced.gross,
        now,
        draft ? null : now,
      );
      for (const l of priced.parsed)
        insertLine.run(id, l.position, l.name, l.quantity, l.unit_price, l.vat_rate, l.net);
      return { ...row, lines: priced.parsed };
    },
    (row) => res.status(201).json({ success: true, data: invoiceJson(row), requestId: res.locals.requestId }),
  );
});

app.post('/invoice/:id/finalize', (req, res) => {
  const company = res.locals.companyId;
  if (!isDraft.get(req.params.id, company)) return fail(res, 409, 'CONFLICT', 'No such draft.');
  write(
    () => {
      // Checked again in the transaction: a finalize of the same draft earlier in the batch won.
      if (!isDraft.get(req.params.id, company)) return null;
      const row = issueDraft.get(takeNumber.get(company).number, new Date().toISOString(), req.params.id, company);
      return { ...row, lines: linesOf.all(req.params.id) };
    },
    (row) =>
      row
        ? res.json({ success: true, data: invoiceJson(row), requestId: res.locals.requestId })
        : fail(res, 409, 'CONFLICT', 'No such draft.'),
  );
});

app.use((req, res) => fail(res, 404, 'NOT_FOUND', 'No such route.'));
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port, key: `sk_${prefix}_${secret}`, buyerId })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
