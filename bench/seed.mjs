// Grows a bench database with past invoices, set-based (PostgreSQL generate_series, SQLite a
// recursive CTE), so that the bench can measure the write scenarios again on a database holding
// ten or a hundred times the rows of its own run (BENCH_ROWS, bench/README.md). A million invoices
// with their lines, payments, credit notes and events take a couple of minutes on two cores.
//
// What is seeded, for invoice n of the series (n counts across calls, so a database grows in
// steps: seed(0 → 100,000), then seed(100,000 → 1,000,000)):
// - every ten invoices share one buyer (organization); blocks of ten alternate between the bench
//   company and one of SEED_COMPANIES other companies, so half the rows are the bench company's
//   and the tables as a whole are twice as big;
// - as an older book looks: 5 % drafts never issued, 2 % issued and still unpaid (overdue, and
//   marked so, as the reminder pass leaves them), 93 % paid (one payment each), 5 % of them after a
//   credit note of one line; three lines each;
// - events as a running instance keeps them (it purges those older than 30 days): one for every
//   twentieth invoice, dated over the last four weeks;
// - created over the five years before this one, ids UUIDv7-shaped with those times (so they sort
//   before the run's own, as history does), numbers from each company's counter rows of those
//   years (advanced here): the numbers the run takes this year never meet a seeded one.
//
//   node bench/seed.mjs <DATABASE_URL> <company id> <invoices>   (standalone, e.g. to EXPLAIN on a grown database)
import { DatabaseSync } from 'node:sqlite';
import { resolve } from 'node:path';
import pg from 'pg';

export const SEED_COMPANIES = 100;
const YEARS = 5;
const DAY_MS = 86_400_000;
// Blocks of ten invoices share a buyer; a step must not split a block.
const BLOCK = 10;

/** SQL that differs between the two databases; everything else is written once. */
const DIALECTS = {
  postgres: {
    series: (from, to) => `select generate_series(${from}::bigint, ${to - 1}::bigint)`,
    hex: (expr, width) => `lpad(to_hex((${expr})::bigint), ${width}, '0')`,
    // lpad cuts what is longer: a counter past 99999 keeps all its digits.
    pad: (expr, width) => `lpad((${expr})::text, greatest(${width}, length((${expr})::text)), '0')`,
    iso: (ms) => `to_char(to_timestamp((${ms}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    day: (ms, plusDays = 0) =>
      `to_char(to_timestamp((${ms}) / 1000.0 + ${plusDays * 86_400}) at time zone 'UTC', 'YYYY-MM-DD')`,
    int: (expr) => `(${expr})::integer`,
  },
  sqlite: {
    series: (from, to) => `select ${from} union all select n + 1 from s where n < ${to - 1}`,
    hex: (expr, width) => `printf('%0${width}x', ${expr})`,
    pad: (expr, width) => `printf('%0${width}d', ${expr})`,
    iso: (ms) => `strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`,
    day: (ms, plusDays = 0) => `date((${ms}) / 1000.0, 'unixepoch', '+${plusDays} days')`,
    int: (expr) => `cast(${expr} as integer)`,
  },
};

/** The statements that seed invoices [from, to) for `companyId`, in order. */
export function seedStatements(dialect, companyId, from, to, now = new Date()) {
  const d = DIALECTS[dialect];
  const year = now.getUTCFullYear();
  const start = Date.UTC(year - YEARS, 0, 1);
  const span = Date.UTC(year, 0, 1) - start - DAY_MS;
  // Invoices one after the other a few minutes apart; a million fill the five years once.
  const step = Math.floor(span / 1_000_000);
  // A UUIDv7 of that instant whose random part says "seeded" and holds n: unique per prefix.
  const id = (prefix, ms, n) =>
    `'${prefix}_' || substr(${d.hex(ms, 12)}, 1, 8) || '-' || substr(${d.hex(ms, 12)}, 9, 4) || '-7eed-8000-' || ${d.hex(n, 12)}`;
  const seedCompany = (s) =>
    `'cmp_' || substr(${d.hex(start, 12)}, 1, 8) || '-' || substr(${d.hex(start, 12)}, 9, 4) || '-7eed-8000-' || ${d.hex(s, 12)}`;
  const recent = now.getTime() - 29 * DAY_MS;
  const eventMs = `${recent} + (r.n * 7919) % ${28 * DAY_MS}`;
  const bench = `'${companyId.replaceAll("'", "''")}'`;
  const seller = JSON.stringify({
    name: 'Seeded GmbH',
    legalName: null,
    vatId: 'DE123456789',
    taxNumber: null,
    legalRegistrationId: null,
    countryCode: 'DE',
    address: { line1: 'Seedweg 1', line2: null, city: 'Berlin', postalCode: '10117', countryCode: 'DE' },
    electronicAddress: null,
    contact: { name: null, phone: null, email: null },
    creditorId: null,
  });
  const buyer = (nameExpr) =>
    `'{"name":"' || ${nameExpr} || '","typeCode":"P","firstName":null,"lastName":null,"vatId":null,"taxNumber":null,"legalRegistrationId":null,"email":null,"phone":null,"address":{"line1":"Weg 2","line2":null,"city":"Hamburg","postalCode":"20095","countryCode":"DE"},"electronicAddress":null}'`;
  const breakdown = (taxable, tax) =>
    `'[{"vatCategory":"S","vatRate":"19","taxableAmount":"${taxable}","taxAmount":"${tax}","exemptionReason":null}]'`;
  const issued = `r.status <> 'draft'`;
  return [
    'drop table if exists seed_rows',
    'drop table if exists seed_numbered',
    // One row per invoice: who, when, what state.
    `create temp table seed_rows as
       with recursive s(n) as (${d.series(from, to)})
       select n, n / ${BLOCK} as b,
              case when (n / ${BLOCK}) % 2 = 0 then ${bench} else ${seedCompany(`((n / ${BLOCK}) / 2) % ${SEED_COMPANIES}`)} end as company_id,
              ${start} + (n * ${step}) % ${span} as ms,
              case when n % 100 < 5 then 'draft' when n % 100 < 7 then 'issued' else 'paid' end as status,
              case when n % 100 >= 7 and n % 100 < 12 then 1 else 0 end as credited
       from s`,
    // Numbers after each counter's last value, per company and year (drafts have none).
    `create temp table seed_numbered as
       select r.n, r.b, r.company_id, r.ms, r.status, r.credited,
              ${id('inv', 'r.ms', 'r.n')} as id,
              ${id('org', `${start} + (r.b * ${BLOCK} * ${step}) % ${span}`, 'r.b')} as organization_id,
              ${d.iso('r.ms')} as created_at,
              ${d.day('r.ms')} as issue_date,
              case when ${issued} then substr(${d.day('r.ms')}, 1, 4) || '-' || ${d.pad(
                `coalesce(inv.last_value, 0) + row_number() over (partition by r.company_id, substr(${d.day('r.ms')}, 1, 4), r.status = 'draft' order by r.n)`,
                5,
              )} end as number,
              case when r.credited = 1 then 'CN-' || substr(${d.day('r.ms')}, 1, 4) || '-' || ${d.pad(
                `coalesce(cn.last_value, 0) + row_number() over (partition by r.company_id, substr(${d.day('r.ms')}, 1, 4), r.credited order by r.n)`,
                5,
              )} end as credit_note_number
       from seed_rows r
       left join number_sequences inv on inv.company_id = r.company_id and inv.livemode = 1
         and inv.sequence = 'invoice' and inv.year = ${d.int(`substr(${d.day('r.ms')}, 1, 4)`)}
       left join number_sequences cn on cn.company_id = r.company_id and cn.livemode = 1
         and cn.sequence = 'credit-note' and cn.year = ${d.int(`substr(${d.day('r.ms')}, 1, 4)`)}`,
    `insert into companies (id, name, currency, vat_id, country_code, created_at)
       select ${seedCompany('n')}, 'Seeded company ' || n, 'EUR', null, 'DE', ${d.iso(start)}
       from (with recursive s(n) as (${d.series(0, SEED_COMPANIES)}) select n from s) c
       where true
       on conflict (id) do nothing`,
    `insert into organizations (id, company_id, livemode, name, name_key, type_code, is_customer, is_supplier,
         address_line1, address_city, address_postal_code, address_country_code, created_at, updated_at)
       select organization_id, company_id, 1, 'Seeded customer ' || b, 'seeded customer ' || b, 'P', 1, 0,
              'Weg 2', 'Hamburg', '20095', 'DE', min(created_at), min(created_at)
       from seed_numbered where true
       group by organization_id, company_id, b
       on conflict (id) do nothing`,
    `insert into invoices (id, company_id, organization_id, number, status, issue_date, due_date, currency,
         prices_include_tax, buyer_snapshot, seller_snapshot, vat_breakdown, line_net_total, tax_exclusive, tax_total,
         tax_inclusive, rounding_amount, payable, amount_paid, amount_credited, amount_refunded, allowance_total,
         charge_total, finalized_at, paid_at, version, livemode, created_at, updated_at)
       select r.id, r.company_id, r.organization_id, r.number, r.status,
              case when ${issued} then r.issue_date end, case when ${issued} then ${d.day('r.ms', 30)} end, 'EUR', 0,
              case when ${issued} then ${buyer(`'Seeded customer ' || r.b`)} end,
              case when ${issued} then '${seller}' end,
              ${breakdown('300.00', '57.00')}, '300.00', '300.00', '57.00', '357.00', '0.00', '357.00',
              case when r.credited = 1 then '345.1' when r.status = 'paid' then '357' else '0' end,
              case when r.credited = 1 then '11.9' else '0' end, '0',
              '0.00', '0.00', case when ${issued} then r.created_at end,
              case when r.status = 'paid' then ${d.iso(`r.ms + ${7 * DAY_MS}`)} end, 1, 1, r.created_at, r.created_at
       from seed_numbered r order by r.n`,
    `insert into invoice_lines (invoice_id, company_id, position, name, quantity, unit_code, unit_price, vat_rate,
         vat_category, net_amount)
       select r.id, r.company_id, p.position, 'Service ' || p.position, '1', 'C62', '100', '19', 'S', '100.00'
       from seed_numbered r cross join (select 1 as position union all select 2 union all select 3) p
       order by r.n, p.position`,
    `insert into payments (id, company_id, invoice_id, livemode, kind, amount, date, method, reference, created_at)
       select ${id('pay', `r.ms + ${7 * DAY_MS}`, 'r.n')}, r.company_id, r.id, 1, 'payment',
              case when r.credited = 1 then '345.10' else '357.00' end,
              ${d.day('r.ms', 7)}, 'credit_transfer', null, ${d.iso(`r.ms + ${7 * DAY_MS}`)}
       from seed_numbered r where r.status = 'paid' order by r.n`,
    `insert into credit_notes (id, company_id, livemode, invoice_id, invoice_number, invoice_issue_date, number, reason,
         issue_date, currency, prices_include_tax, buyer_snapshot, seller_snapshot, vat_breakdown, line_net_total,
         tax_exclusive, tax_total, tax_inclusive, rounding_amount, payable, allowance_total, charge_total, offset_amount,
         created_at)
       select ${id('cn', `r.ms + ${DAY_MS}`, 'r.n')}, r.company_id, 1, r.id, r.number, r.issue_date, r.credit_note_number,
              'Seeded correction', ${d.day('r.ms', 1)}, 'EUR', 0, ${buyer(`'Seeded customer ' || r.b`)}, '${seller}',
              ${breakdown('10.00', '1.90')}, '10.00', '10.00', '1.90', '11.90', '0.00', '11.90', '0.00', '0.00', '11.90',
              ${d.iso(`r.ms + ${DAY_MS}`)}
       from seed_numbered r where r.credited = 1 order by r.n`,
    `insert into credit_note_lines (credit_note_id, company_id, position, name, quantity, unit_code, unit_price, vat_rate,
         vat_category, net_amount)
       select ${id('cn', `r.ms + ${DAY_MS}`, 'r.n')}, r.company_id, 1, 'Service 1', '1', 'C62', '10', '19', 'S', '10.00'
       from seed_numbered r where r.credited = 1 order by r.n`,
    `insert into events (id, company_id, livemode, type, request_id, object, created_at)
       select ${id('evt', eventMs, 'r.n')}, r.company_id, 1, 'invoice.updated', null,
              '{"id":"' || r.id || '","livemode":true,"number":' || coalesce('"' || r.number || '"', 'null') || ',"status":"' || r.status || '","totals":{"payable":"357.00"},"createdAt":"' || r.created_at || '"}',
              ${d.iso(eventMs)}
       from seed_numbered r where r.n % 20 = 0 order by r.n`,
    // The reminder pass marked the unpaid ones overdue long ago (its first pass after a bulk load
    // would otherwise do that for all of them while the scenarios run).
    `insert into invoice_reminder_states (invoice_id, company_id, livemode, overdue_at, updated_at)
       select r.id, r.company_id, 1, ${d.iso(`r.ms + ${31 * DAY_MS}`)}, ${d.iso(`r.ms + ${31 * DAY_MS}`)}
       from seed_numbered r where r.status = 'issued' order by r.n`,
    // The counters stand at the last number seeded.
    ...[
      ['invoice', 'number'],
      ['credit-note', 'credit_note_number'],
    ].map(
      ([sequence, column]) => `insert into number_sequences (company_id, livemode, sequence, year, last_value)
       select company_id, 1, '${sequence}', ${d.int('substr(issue_date, 1, 4)')}, count(*)
       from seed_numbered where ${column} is not null
       group by company_id, substr(issue_date, 1, 4)
       on conflict (company_id, livemode, sequence, year)
       do update set last_value = number_sequences.last_value + excluded.last_value`,
    ),
    'drop table seed_rows',
    'drop table seed_numbered',
  ];
}

const SEEDED_TABLES = [
  'invoice_reminder_states',
  'companies',
  'organizations',
  'invoices',
  'invoice_lines',
  'payments',
  'credit_notes',
  'credit_note_lines',
  'events',
  'number_sequences',
];

/**
 * Seeds invoices [from, to) (none when they are equal: the database is only settled) for the bench company into the database at `url` (a `sqlite:` path or
 * a PostgreSQL URL, search_path included) in one transaction, then leaves the database as a
 * running one would be: PostgreSQL analysed (as autovacuum would) and checkpointed, SQLite's WAL
 * checkpointed. Answers the seconds it took and how many invoices the database holds now.
 */
export async function seedInvoices({ url, companyId, from, to }) {
  if (from % BLOCK !== 0 || to % BLOCK !== 0 || to < from)
    throw new Error(`seed: give steps of whole tens of invoices (${from} → ${to})`);
  const began = performance.now();
  if (url.startsWith('sqlite:')) {
    const db = new DatabaseSync(resolve(url.slice('sqlite:'.length)));
    try {
      db.exec('pragma busy_timeout = 60000');
      db.exec('begin immediate');
      if (to > from) for (const statement of seedStatements('sqlite', companyId, from, to)) db.exec(statement);
      db.exec('commit');
      db.exec('pragma wal_checkpoint(truncate)');
      const { n } = db.prepare('select count(*) as n from invoices').get();
      return { seconds: (performance.now() - began) / 1000, invoices: Number(n) };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    // The numbering's window sorts a million rows: in memory, not in temporary files.
    await client.query("set local work_mem = '256MB'");
    if (to > from)
      for (const statement of seedStatements('postgres', companyId, from, to)) await client.query(statement);
    await client.query('commit');
    await client.query(`analyze ${SEEDED_TABLES.join(', ')}`);
    // What the load wrote is on disk before the scenarios run again: they measure a grown
    // database, not the flush of its bulk load.
    await client.query('checkpoint').catch(() => undefined);
    const { rows } = await client.query('select count(*)::bigint as n from invoices');
    return { seconds: (performance.now() - began) / 1000, invoices: Number(rows[0].n) };
  } finally {
    await client.end();
  }
}

/** How many invoices the database at `url` holds. */
export async function countInvoices(url) {
  if (url.startsWith('sqlite:')) {
    const db = new DatabaseSync(resolve(url.slice('sqlite:'.length)), { readOnly: true });
    try {
      return Number(db.prepare('select count(*) as n from invoices').get().n);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('select count(*)::bigint as n from invoices')).rows[0].n);
  } finally {
    await client.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [url, companyId, invoices] = process.argv.slice(2);
  if (!url || !companyId || !invoices) {
    console.error('usage: node bench/seed.mjs <DATABASE_URL> <company id> <invoices>');
    process.exit(2);
  }
  const result = await seedInvoices({ url, companyId, from: 0, to: Number(invoices) });
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
