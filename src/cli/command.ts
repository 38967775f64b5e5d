import type { Config } from '../config.js';
import type { Container } from '../container.js';
import type { Storage } from '../db/database.js';
import { CommandError, looksLikeFullKey, SECRET_REFUSED, UsageError } from './errors.js';

// What a command is and what it gets: the parsed options, its positional arguments, the
// container over the database, and a printer that writes text or one JSON object.

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'V' },
  name: { type: 'string' },
  currency: { type: 'string' },
  'vat-id': { type: 'string' },
  country: { type: 'string' },
  company: { type: 'string' },
  permissions: { type: 'string' },
  'expires-at': { type: 'string' },
  mode: { type: 'string' },
  overlap: { type: 'string' },
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
  'as-of': { type: 'string' },
} as const;

export type OptionName = keyof typeof OPTIONS;
export type CliValues = { [K in OptionName]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string };

export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Record<string, string | undefined>;
  /** The whole of standard input (for secrets that must not appear in argv). */
  readStdin?: () => Promise<string>;
}

export interface CommandContext {
  values: CliValues;
  /** The positional arguments after the command's name, checked against `positionals`. */
  args: string[];
  io: CliIO;
  container: Container;
  storage: Storage;
  config: Config;
  /** Migrations this run applied (it migrates before any command). */
  applied: string[];
  print(object: object, text: string): void;
}

export interface CliCommand {
  group: string;
  /** null for a group that is a command by itself (setup-link, migrate). */
  verb: string | null;
  /** Positional arguments, by name, all required. */
  positionals: string[];
  /** The options it reads besides --json and --help. */
  options: OptionName[];
  /** What can be refused without the database (option values), before it is opened. */
  check?(values: CliValues, args: string[]): void;
  run(context: CommandContext): Promise<void>;
}

export function nameOf(command: CliCommand): string {
  return command.verb ? `${command.group} ${command.verb}` : command.group;
}

/** Rows under a header, each column as wide as its widest cell; `empty` when there are none. */
export function textTable(header: string[], rows: string[][], empty: string): string {
  if (rows.length === 0) return empty;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** A required option's value, else a usage error naming it. */
export function required(context: CommandContext, command: string, option: OptionName): string {
  const value = context.values[option];
  if (typeof value !== 'string' || value.trim() === '')
    throw new UsageError(`"invoicing ${command}" needs --${option}.`, command.split(' ')[0]!);
  return value;
}

/** The key id argument; a full key typed there is refused without being printed. */
export function keyIdArgument(value: string): string {
  if (looksLikeFullKey(value)) throw new UsageError(SECRET_REFUSED, 'key');
  return value;
}

/** A company id that exists, else a command error (an unknown id is never "nothing to show"). */
export async function existingCompany(context: CommandContext, companyId: string, group: string): Promise<string> {
  if (looksLikeFullKey(companyId))
    throw new UsageError(
      'That looks like a full API key, not a company id; company ids look like cmp_…. The key was not printed.',
      group,
    );
  if (!(await context.container.companies.find(companyId))) throw new CommandError(`No company with id ${companyId}.`);
  return companyId;
}
