import { parseArgs } from 'node:util';
import { PERMISSION_NAMES } from '../auth/permissions.js';
import { ConfigError, loadConfig } from '../config.js';
import { createContainer } from '../container.js';
import { migrateToLatest, openStorage } from '../db/database.js';
import type { ApiKeySummary } from '../services/api-key-service.js';
import type { ProfileChanges, ProfileField } from '../services/company-profile.js';
import { FirstRunSetup, setupLinkMessage, setupPath } from '../panel/setup.js';
import { isRole, UserService } from '../panel/users.js';
import { resetTestData } from '../services/test-data.js';

// The admin CLI: `invoicing <noun> <verb> [options]`. It uses the same DATABASE_URL as the
// server. Errors go to stderr with exit code 1 (2 for usage); --json prints one JSON object.

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** The whole of standard input (for secrets that must not appear in argv). */
  readStdin?: () => Promise<string>;
}

class UsageError extends Error {}
class CommandError extends Error {}

const USAGE = `Usage:
  invoicing company create --name <name> [--currency <ISO 4217>] [--vat-id <id>] [--country <ISO 3166-1>] [--json]
  invoicing company update <companyId> [--legal-name] [--line1] [--line2] [--city] [--postal-code] [--country]
      [--vat-id] [--tax-number] [--legal-registration-id [<ICD>:]<id>] [--electronic-address <scheme>:<id>] [--contact-name]
      [--contact-phone] [--contact-email] [--iban] [--bic] [--account-name] [--payment-terms] [--creditor-id] [--json]
  invoicing company reset-test-data <companyId> [--json]
  invoicing key create --company <companyId> --name <label> --permissions <p1,p2> [--mode live|test] [--expires-at <ISO-8601>] [--json]
  invoicing key list --company <companyId> [--json]
  invoicing key revoke <keyId> [--json]
  invoicing user create --company <companyId> --email <email> --role owner|admin|member --password-stdin [--json]
  invoicing setup-link [--base-url <url>] [--json]
  invoicing migrate [--json]

Permissions: ${PERMISSION_NAMES.join(', ')}
Database: DATABASE_URL (default sqlite:./data/invoicing.db)`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  currency: { type: 'string' },
  'vat-id': { type: 'string' },
  country: { type: 'string' },
  company: { type: 'string' },
  permissions: { type: 'string' },
  'expires-at': { type: 'string' },
  mode: { type: 'string' },
  email: { type: 'string' },
  role: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'base-url': { type: 'string' },
  'legal-name': { type: 'string' },
  line1: { type: 'string' },
  line2: { type: 'string' },
  city: { type: 'string' },
  'postal-code': { type: 'string' },
  'tax-number': { type: 'string' },
  'legal-registration-id': { type: 'string' },
  'electronic-address': { type: 'string' },
  'contact-name': { type: 'string' },
  'contact-phone': { type: 'string' },
  'contact-email': { type: 'string' },
  iban: { type: 'string' },
  bic: { type: 'string' },
  'account-name': { type: 'string' },
  'payment-terms': { type: 'string' },
  'creditor-id': { type: 'string' },
} as const;

/** `company update` options and the profile field each one sets ('' clears a field). */
const PROFILE_OPTIONS: [keyof typeof OPTIONS, ProfileField][] = [
  ['legal-name', 'legalName'],
  ['line1', 'line1'],
  ['line2', 'line2'],
  ['city', 'city'],
  ['postal-code', 'postalCode'],
  ['country', 'countryCode'],
  ['vat-id', 'vatId'],
  ['tax-number', 'taxNumber'],
  ['legal-registration-id', 'legalRegistrationId'],
  ['electronic-address', 'electronicAddress'],
  ['contact-name', 'contactName'],
  ['contact-phone', 'contactPhone'],
  ['contact-email', 'contactEmail'],
  ['iban', 'iban'],
  ['bic', 'bic'],
  ['account-name', 'accountName'],
  ['payment-terms', 'paymentTerms'],
  ['creditor-id', 'creditorId'],
];

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`Missing required option --${flag}`);
  return value;
}

function keyTable(keys: ApiKeySummary[]): string {
  if (keys.length === 0) return 'No keys.';
  const rows = keys.map((k) => [k.id, k.prefix, k.mode, k.name, k.status, k.permissions.join(','), k.expiresAt ?? '-', k.lastUsedAt ?? '-']);
  const header = ['ID', 'PREFIX', 'MODE', 'NAME', 'STATUS', 'PERMISSIONS', 'EXPIRES', 'LAST USED'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n');
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`${(error as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [noun, verb, ...rest] = positionals;
  if (values.help || noun === undefined) {
    (values.help ? io.stdout : io.stderr)(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }
  const json = values.json === true;
  const print = (object: object, text: string) => io.stdout(json ? `${JSON.stringify(object)}\n` : `${text}\n`);

  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`Configuration error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  const command = `${noun} ${verb ?? ''}`.trim();
  const known = ['company create', 'company update', 'company reset-test-data', 'key create', 'key list', 'key revoke', 'user create', 'setup-link', 'migrate'];
  if (!known.includes(command)) {
    io.stderr(`Unknown command: ${command}\n\n${USAGE}\n`);
    return 2;
  }

  const storage = openStorage(config.databaseUrl, { poolMax: 2, busyTimeoutMs: config.databaseBusyTimeoutMs });
  try {
    const applied = await migrateToLatest(storage.db);
    const container = createContainer(storage, { apiKeyCacheTtlMs: 0 });
    switch (command) {
      case 'setup-link': {
        // For operators who missed the link the server printed at start (or run it in a container).
        const token = await new FirstRunSetup(storage.db).issueToken();
        if (token === null) throw new CommandError('This instance already has panel users: sign in at /panel, or ask an owner to add you.');
        const baseUrl = (values['base-url'] ?? `http://${config.host}:${config.port}`).replace(/\/+$/, '');
        const url = `${baseUrl}${setupPath(token)}`;
        print({ url }, setupLinkMessage(url).trim());
        return 0;
      }
      case 'migrate': {
        print({ applied }, applied.length ? `Applied: ${applied.join(', ')}` : 'The database is up to date.');
        return 0;
      }
      case 'company create': {
        const result = await container.companies.create({
          name: required(values.name, 'name'),
          currency: values.currency,
          vatId: values['vat-id'] ?? null,
          countryCode: values.country ?? null,
        });
        if (!result.ok) throw new CommandError(result.detail);
        const c = result.value;
        print(c, `Created company ${c.id} (${c.name}, currency ${c.currency})`);
        return 0;
      }
      case 'company update': {
        const companyId = required(rest[0], 'companyId (positional)');
        const changes: ProfileChanges = {};
        for (const [option, field] of PROFILE_OPTIONS) {
          const value = values[option];
          if (typeof value === 'string') changes[field] = value;
        }
        if (Object.keys(changes).length === 0) throw new UsageError('Give at least one field to change, e.g. --iban DE89370400440532013000');
        const result = await container.companyProfiles.update(companyId, changes, { userId: null, label: 'cli' });
        if (!result.ok) {
          throw new CommandError(
            result.reason === 'not_found'
              ? `No company with id ${companyId}`
              : result.problems.map((p) => `--${PROFILE_OPTIONS.find(([, f]) => f === p.field)![0]}: ${p.message}`).join('; '),
          );
        }
        print(result.value, `Updated company ${companyId}. The change is in the company's audit list.`);
        return 0;
      }
      case 'company reset-test-data': {
        const companyId = required(rest[0], 'companyId (positional)');
        if (!(await container.companies.find(companyId))) throw new CommandError(`No company with id ${companyId}`);
        const deleted = await resetTestData(storage.db, companyId);
        print(
          { companyId, deleted },
          `Deleted the test data of ${companyId}: ${deleted.organizations} organizations, ${deleted.invoices} invoices, ${deleted.creditNotes} credit notes, ${deleted.payments} payments, ${deleted.events} events. Test numbers start again at 00001; live data is untouched.`,
        );
        return 0;
      }
      case 'key create': {
        const mode = values.mode ?? 'live';
        if (mode !== 'live' && mode !== 'test') throw new UsageError(`--mode must be live or test, got "${mode}"`);
        const result = await container.apiKeys.create({
          mode,
          companyId: required(values.company, 'company'),
          name: required(values.name, 'name'),
          permissions: required(values.permissions, 'permissions').split(',').map((p) => p.trim()).filter(Boolean),
          expiresAt: values['expires-at'] ?? null,
          createdBy: 'cli',
        });
        if (!result.ok) throw new CommandError(result.detail);
        const k = result.value;
        print(
          k,
          `Created ${k.mode} key ${k.id} (${k.name}) with permissions ${k.permissions.join(', ')}.\n\n  ${k.key}\n\n` +
            'This is the only time the full key is shown. Store it in a secret manager now.',
        );
        return 0;
      }
      case 'key list': {
        const keys = await container.apiKeys.list(required(values.company, 'company'));
        print({ keys }, keyTable(keys));
        return 0;
      }
      case 'key revoke': {
        const keyId = required(rest[0], 'keyId (positional)');
        const result = await container.apiKeys.revoke(keyId);
        if (!result.ok) {
          throw new CommandError(result.reason === 'not_found' ? `No key with id ${keyId}` : `Key ${keyId} is already revoked`);
        }
        print(result.value, `Revoked key ${keyId}. Running servers refuse it within a few seconds.`);
        return 0;
      }
      case 'user create': {
        const role = required(values.role, 'role');
        if (!isRole(role)) throw new UsageError(`--role must be owner, admin or member, got "${role}"`);
        // Passwords never travel in argv, where ps and shell history would show them.
        if (!values['password-stdin'] || !io.readStdin) throw new UsageError('Give the password on standard input with --password-stdin.');
        const password = (await io.readStdin()).replace(/\r?\n$/, '');
        const result = await new UserService(storage.db).create({ companyId: required(values.company, 'company'), email: required(values.email, 'email'), role, password });
        if (!result.ok) throw new CommandError(result.field === 'password' ? `Password: ${result.detail}` : result.detail);
        const u = result.value;
        print({ id: u.id, companyId: u.companyId, email: u.email, role: u.role }, `Created ${u.role} ${u.email} (${u.id}) in company ${u.companyId}.`);
        return 0;
      }
    }
    return 2;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof CommandError) {
      io.stderr(`Error: ${error.message}\n`);
      return 1;
    }
    io.stderr(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await storage.close();
  }
}

export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
      return Buffer.concat(chunks).toString('utf8');
    },
  });
  process.exitCode = code;
}
