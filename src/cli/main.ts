import { parseArgs } from 'node:util';
import { ADMIN_COMMANDS } from './admin-commands.js';
import {
  keyIdArgument,
  nameOf,
  OPTIONS,
  type CliCommand,
  type CliIO,
  type CliValues,
  type CommandContext,
  type OptionName,
} from './command.js';
import { COMPANY_COMMANDS } from './company-commands.js';
import {
  CommandError,
  helpPointer,
  looksLikeFullKey,
  parseErrorMessage,
  UsageError,
  withoutSecrets,
} from './errors.js';
import { KEY_COMMANDS } from './key-commands.js';
import { GROUPS, groupUsage, mainUsage, version } from './usage.js';
import { REMINDER_COMMANDS } from './reminder-commands.js';
import { SCHEDULE_COMMANDS } from './schedule-commands.js';
import { USER_COMMANDS } from './user-commands.js';
import { WEBHOOK_COMMANDS } from './webhook-commands.js';

// The admin CLI: `invoicing <group> <command> [options]`. It uses the same DATABASE_URL as the
// server. An error is one line on stderr (plus, for wrong usage, where to find the help); exit
// code 2 for usage, 1 for anything else. --json prints one JSON object. No API key is ever
// echoed in an error, wherever it was typed.
//
// A call loads only what it needs: help, version and wrong usage are answered from this file's
// static imports (the command table and its texts); the database, the services and what a
// command does are imported once the command is known to be runnable.

export type { CliIO };

const COMMANDS: CliCommand[] = [
  ...COMPANY_COMMANDS,
  ...KEY_COMMANDS,
  ...USER_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...REMINDER_COMMANDS,
  ...SCHEDULE_COMMANDS,
  ...ADMIN_COMMANDS,
];
const ALWAYS_ALLOWED: OptionName[] = ['json', 'help', 'version'];

const POSITIONAL_HINTS: Record<string, string> = {
  keyId: 'the id of a key (key_…; "invoicing key list --company <companyId>" shows them)',
  companyId: 'the id of a company (cmp_…)',
  userId: 'the id of a user (usr_…; "invoicing user list" shows them)',
  endpointId: 'the id of a webhook endpoint ("invoicing webhook list" shows them)',
};

/** The command an argv names, with its positional arguments, or a usage error. */
function resolve(group: string, rest: string[]): { command: CliCommand; args: string[] } {
  const own = COMMANDS.filter((c) => c.group === group);
  const single = own.find((c) => c.verb === null);
  if (single) return { command: single, args: rest };
  const [verb, ...args] = rest;
  const command = own.find((c) => c.verb === verb);
  if (!command) {
    const verbs = own.map((c) => c.verb).join(', ');
    throw new UsageError(`Unknown command "${group} ${verb}". The ${group} commands are ${verbs}.`, group);
  }
  return { command, args };
}

function checkArguments(command: CliCommand, args: string[], values: CliValues): void {
  const name = nameOf(command);
  const missing = command.positionals[args.length];
  if (missing !== undefined)
    throw new UsageError(`"invoicing ${name}" needs ${POSITIONAL_HINTS[missing] ?? missing}.`, command.group);
  const extra = args[command.positionals.length];
  if (extra !== undefined)
    throw new UsageError(`Unexpected argument "${extra}" for "invoicing ${name}".`, command.group);
  for (const option of Object.keys(values) as OptionName[]) {
    if (!ALWAYS_ALLOWED.includes(option) && !command.options.includes(option)) {
      throw new UsageError(`Option --${option} does not apply to "invoicing ${name}".`, command.group);
    }
  }
  // A full API key where an id belongs is refused before anything else, without being printed.
  command.positionals.forEach((positional, i) => {
    if (positional === 'keyId') keyIdArgument(args[i]!);
    else if (looksLikeFullKey(args[i]!))
      throw new UsageError(
        `That looks like a full API key, not ${POSITIONAL_HINTS[positional] ?? positional}. The key was not printed.`,
        command.group,
      );
  });
  if (values.company !== undefined && looksLikeFullKey(values.company)) {
    throw new UsageError(
      'That looks like a full API key, not a company id; company ids look like cmp_…. The key was not printed.',
      command.group,
    );
  }
  command.check?.(values, args);
}

export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const fail = (error: unknown): number => {
    if (error instanceof UsageError) {
      io.stderr(withoutSecrets(`Error: ${error.message}\n${helpPointer(error.group)}\n`));
      return 2;
    }
    io.stderr(withoutSecrets(`Error: ${error instanceof Error ? error.message : String(error)}\n`));
    return 1;
  };

  let values: CliValues;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    const group = argv[0] !== undefined && GROUPS.includes(argv[0]) ? argv[0] : null;
    return fail(new UsageError(parseErrorMessage(error), group));
  }
  if (values.version) {
    io.stdout(`invoicing ${version()}\n`);
    return 0;
  }
  const [first, ...rest] = positionals;
  // `help`, `help <group>`, `--help`, `<group> --help`, `<group> help`, `<group> <command> --help`.
  const helpTopic = first === 'help' ? rest[0] : values.help || rest[0] === 'help' ? first : undefined;
  if (first === 'help' || values.help || rest[0] === 'help') {
    if (helpTopic === undefined) {
      io.stdout(`${mainUsage()}\n`);
      return 0;
    }
    if (!GROUPS.includes(helpTopic)) return fail(new UsageError(`Unknown command "${helpTopic}".`));
    io.stdout(`${groupUsage(helpTopic)}\n`);
    return 0;
  }
  if (first === undefined) {
    io.stderr(`${mainUsage()}\n`);
    return 2;
  }
  if (!GROUPS.includes(first)) return fail(new UsageError(`Unknown command "${first}".`));
  const grouped = COMMANDS.some((c) => c.group === first && c.verb !== null);
  if (grouped && rest.length === 0) {
    // A group alone: what it can do.
    io.stderr(`${groupUsage(first)}\n`);
    return 2;
  }

  let resolved: { command: CliCommand; args: string[] };
  try {
    resolved = resolve(first, rest);
    checkArguments(resolved.command, resolved.args, values);
  } catch (error) {
    return fail(error);
  }

  const [{ ConfigError, loadConfig }, { migrateToLatest, openStorage }, { createContainer }] = await Promise.all([
    import('../config.js'),
    import('../db/database.js'),
    import('../container.js'),
  ]);
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) return fail(new CommandError(`Configuration: ${error.message}`));
    throw error;
  }
  const json = values.json === true;
  let storage;
  try {
    storage = openStorage(config.databaseUrl, { poolMax: 2, busyTimeoutMs: config.databaseBusyTimeoutMs });
  } catch (error) {
    return fail(error);
  }
  try {
    const applied = await migrateToLatest(storage.db);
    const context: CommandContext = {
      values,
      args: resolved.args,
      io,
      // With SMTP settings, what a command queues (a recurring run's message, a reminder) is sent by the servers' workers;
      // without them a reminder pass still queues, with only SMTP_FROM (the address the messages are sent from).
      container: createContainer(storage, {
        apiKeyCacheTtlMs: 0,
        ...(config.email ? { email: { config: config.email, onError: () => {} } } : {}),
        ...(!config.email && io.env.SMTP_FROM?.trim() ? { emailFrom: io.env.SMTP_FROM.trim() } : {}),
      }),
      storage,
      config,
      applied,
      print: (object, text) => io.stdout(json ? `${JSON.stringify(object)}\n` : `${text}\n`),
    };
    await resolved.command.run(context);
    return 0;
  } catch (error) {
    return fail(error);
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
