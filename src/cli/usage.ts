import { readFileSync } from 'node:fs';
import { PERMISSION_NAMES } from '../auth/permissions.js';

// The help texts: one per group (shown for `invoicing <group> --help` and for a group given
// without a command) and the whole list for `invoicing --help`.

const PROFILE_FLAGS =
  '[--legal-name] [--line1] [--line2] [--city] [--postal-code] [--country] [--vat-id] [--tax-number]\n' +
  '      [--legal-registration-id [<ICD>:]<id>] [--electronic-address <scheme>:<id>] [--contact-name] [--contact-phone]\n' +
  '      [--contact-email] [--iban] [--bic] [--account-name] [--payment-terms] [--creditor-id] [--json]';

interface GroupHelp {
  summary: string;
  commands: [syntax: string, description: string][];
  footer?: string;
}

export const GROUP_HELP: Record<string, GroupHelp> = {
  company: {
    summary: 'Companies (tenants) and their seller profile',
    commands: [
      [
        'company create --name <name> [--currency <ISO 4217>] [--vat-id <id>] [--country <ISO 3166-1>] [--json]',
        'Creates a company; the currency defaults to EUR.',
      ],
      ['company list [--json]', 'Lists every company of the instance with its id, currency and country.'],
      [
        `company update <companyId> ${PROFILE_FLAGS}`,
        "Sets the company's seller profile; an empty value clears a field.",
      ],
      [
        'company reset-test-data <companyId> [--json]',
        "Deletes the company's test data and restarts its TEST- numbers; live data stays.",
      ],
    ],
  },
  key: {
    summary: 'API keys',
    commands: [
      [
        'key create --company <companyId> --name <label> --permissions <p1,p2> [--mode live|test] [--expires-at <ISO-8601>] [--json]',
        'Creates a key and prints the full key once.',
      ],
      ['key list --company <companyId> [--json]', 'Lists keys (never a secret).'],
      ['key revoke <keyId> [--json]', 'Revokes a key.'],
      [
        'key roll <keyId> [--overlap <hours>] [--json]',
        'Issues a successor with the same name, permissions, mode and expiry and prints it once; the old key\n' +
          '      keeps working for the overlap (default 24 hours, at most 168; 0 revokes it now).',
      ],
      ['key rename <keyId> --name <label> [--json]', 'Renames a key.'],
    ],
    footer: `Permissions: ${PERMISSION_NAMES.join(', ')}\nKey ids look like key_…; "invoicing key list" shows them.`,
  },
  user: {
    summary: 'Web-panel users',
    commands: [
      [
        'user create --company <companyId> --email <email> --role owner|admin|member --password-stdin [--json]',
        'Creates a panel user; the password is read from standard input.',
      ],
      [
        'user list [--company <companyId>] [--json]',
        "Lists panel users (every company's, or one's) with role and status.",
      ],
      [
        'user reset-password <userId> --password-stdin [--json]',
        'Sets a new password, read from standard input, and ends every session of the user.',
      ],
      [
        'user deactivate <userId> [--json]',
        'Deactivates a user and ends their sessions; a company keeps at least one active owner.',
      ],
    ],
    footer: 'User ids look like usr_…; "invoicing user list" shows them. Passwords never appear in argv or output.',
  },
  webhook: {
    summary: 'Webhook endpoints',
    commands: [
      [
        'webhook list [--company <companyId>] [--json]',
        "Lists webhook endpoints (every company's, or one's) with mode, status and events; never a secret.",
      ],
      [
        'webhook disable <endpointId> [--json]',
        'Disables an endpoint: nothing more is sent to it until it is enabled again.',
      ],
    ],
    footer: 'Endpoint ids look like we_…; "invoicing webhook list" shows them.',
  },
  reminders: {
    summary: 'Reminders of open invoices (dunning)',
    commands: [
      [
        'reminders run [--as-of <YYYY-MM-DD>] [--json]',
        "Runs one reminder pass for the day (default today, UTC): queues each reminder due, once, and marks invoices overdue; a server's email worker sends the messages.",
      ],
    ],
    footer:
      'The server runs a pass for today every REMINDER_INTERVAL_SECONDS (default 60; 0: never). docs/reminders.md.',
  },
  schedules: {
    summary: 'Recurring invoices',
    commands: [
      [
        'schedules run [--as-of <datetime>] [--company <companyId>] [--json]',
        'Runs one pass of the recurring invoice scheduler as of now or the given instant: every due period, once.',
      ],
    ],
    footer:
      'Safe beside running servers: each period is made once, whoever runs it. The servers pass every RECURRING_INTERVAL_SECONDS.',
  },
  'setup-link': {
    summary: 'A one-time link to claim the panel',
    commands: [
      ['setup-link [--base-url <url>] [--json]', 'While no panel user exists, prints a fresh one-time setup link.'],
    ],
  },
  migrate: {
    summary: 'The database schema',
    commands: [['migrate [--json]', 'Brings the database schema up to date (the server does this at start too).']],
  },
};

export const GROUPS = Object.keys(GROUP_HELP);

const FOOTER =
  'Database: DATABASE_URL (default sqlite:./data/invoicing.db). --json prints exactly one JSON object on stdout.';

export function groupUsage(group: string): string {
  const help = GROUP_HELP[group]!;
  const lines = help.commands.map(([syntax, description]) => `  invoicing ${syntax}\n      ${description}`);
  return [
    `invoicing ${group}: ${help.summary}\n\nUsage:`,
    ...lines,
    '',
    ...(help.footer ? [help.footer] : []),
    FOOTER,
  ].join('\n');
}

export function mainUsage(): string {
  const lines = GROUPS.flatMap((group) => GROUP_HELP[group]!.commands.map(([syntax]) => `  invoicing ${syntax}`));
  return [
    'invoicing: the admin CLI of the Invoicing API\n\nUsage:',
    ...lines,
    '  invoicing --help | --version',
    '',
    `Run "invoicing <group> --help" (${GROUPS.join(', ')}) for what each command does.`,
    FOOTER,
  ].join('\n');
}

export function version(): string {
  // The same relative path from src/cli (tests) and dist/cli (the bin).
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}
