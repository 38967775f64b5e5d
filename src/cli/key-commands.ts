import {
  CLI_ACTOR,
  DEFAULT_ROLL_OVERLAP_HOURS,
  MAX_ROLL_OVERLAP_HOURS,
  type ApiKeySummary,
  type CreatedApiKey,
} from '../services/api-key-service.js';
import { existingCompany, keyIdArgument, required, textTable, type CliCommand } from './command.js';
import { CommandError, UsageError } from './errors.js';

// `invoicing key …`: create, list, revoke, roll, rename. Every change is recorded in the key
// activity with "CLI" as its actor, as the panel records its users.

const CACHE_NOTE = 'Running servers see the change within API_KEY_CACHE_TTL_MS (2 s by default).';

function keyTable(keys: ApiKeySummary[]): string {
  const rows = keys.map((k) => [
    k.id,
    k.prefix,
    k.mode,
    k.name,
    k.status,
    k.permissions.join(','),
    k.expiresAt ?? '-',
    k.lastUsedAt ?? '-',
  ]);
  return textTable(['ID', 'PREFIX', 'MODE', 'NAME', 'STATUS', 'PERMISSIONS', 'EXPIRES', 'LAST USED'], rows, 'No keys.');
}

function shownOnce(k: CreatedApiKey): string {
  return `\n\n  ${k.key}\n\nThis is the only time the full key is shown. Store it in a secret manager now.`;
}

/** --overlap in hours: a number from 0 to 168 (whole or with up to two decimals). */
function overlapHours(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_ROLL_OVERLAP_HOURS;
  const hours = /^\d{1,3}(\.\d{1,2})?$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (Number.isNaN(hours) || hours > MAX_ROLL_OVERLAP_HOURS) {
    throw new UsageError(
      `--overlap must be a number of hours from 0 to ${MAX_ROLL_OVERLAP_HOURS} (7 days), got "${raw}".`,
      'key',
    );
  }
  return hours;
}

export const KEY_COMMANDS: CliCommand[] = [
  {
    group: 'key',
    verb: 'create',
    positionals: [],
    options: ['company', 'name', 'permissions', 'mode', 'expires-at'],
    async run(context) {
      const { values } = context;
      const mode = values.mode ?? 'live';
      if (mode !== 'live' && mode !== 'test')
        throw new UsageError(`--mode must be live or test, got "${mode}".`, 'key');
      const companyId = required(context, 'key create', 'company');
      const name = required(context, 'key create', 'name');
      const permissions = required(context, 'key create', 'permissions')
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean);
      const result = await context.container.apiKeys.create({
        mode,
        companyId: await existingCompany(context, companyId, 'key'),
        name,
        permissions,
        expiresAt: values['expires-at'] ?? null,
        createdBy: 'cli',
        actor: CLI_ACTOR,
      });
      if (!result.ok) throw new CommandError(result.detail);
      const k = result.value;
      context.print(
        k,
        `Created ${k.mode} key ${k.id} (${k.name}) with permissions ${k.permissions.join(', ')}.${shownOnce(k)}`,
      );
    },
  },
  {
    group: 'key',
    verb: 'list',
    positionals: [],
    options: ['company'],
    async run(context) {
      const companyId = await existingCompany(context, required(context, 'key list', 'company'), 'key');
      const keys = await context.container.apiKeys.list(companyId);
      context.print({ keys }, keyTable(keys));
    },
  },
  {
    group: 'key',
    verb: 'revoke',
    positionals: ['keyId'],
    options: [],
    async run(context) {
      const keyId = keyIdArgument(context.args[0]!);
      const result = await context.container.apiKeys.revoke(keyId, new Date(), CLI_ACTOR);
      if (!result.ok)
        throw new CommandError(
          result.reason === 'not_found' ? `No key with id ${keyId}.` : `Key ${keyId} is already revoked.`,
        );
      context.print(result.value, `Revoked key ${keyId}. ${CACHE_NOTE}`);
    },
  },
  {
    group: 'key',
    verb: 'roll',
    positionals: ['keyId'],
    options: ['overlap'],
    check: (values) => void overlapHours(values.overlap),
    async run(context) {
      const keyId = keyIdArgument(context.args[0]!);
      const overlap = overlapHours(context.values.overlap);
      const result = await context.container.apiKeys.roll(keyId, { overlapHours: overlap, actor: CLI_ACTOR });
      if (!result.ok) {
        switch (result.reason) {
          case 'not_found':
            throw new CommandError(`No key with id ${keyId}.`);
          case 'revoked':
          case 'expired':
            throw new CommandError(
              `Key ${keyId} is ${result.reason}; only a working key can be rolled. Create a new key instead.`,
            );
          case 'already_rolled':
            throw new CommandError(
              `Key ${keyId} was rolled already${result.successorId ? ` (to ${result.successorId}); roll that key instead` : ''}.`,
            );
          case 'invalid_overlap':
            throw new UsageError(`--overlap must be a number of hours from 0 to ${MAX_ROLL_OVERLAP_HOURS}.`, 'key');
        }
      }
      const { successor: k, previous } = result.value;
      const old =
        previous.status === 'active'
          ? `The old key ${previous.id} (${previous.prefix}) keeps working until ${previous.expiresAt}, then it is refused.`
          : `The old key ${previous.id} (${previous.prefix}) is revoked.`;
      context.print(
        { ...k, previous },
        `Rolled key ${previous.id} (${k.name}): new ${k.mode} key ${k.id} with permissions ${k.permissions.join(', ')}.${shownOnce(k)}\n${old} ${CACHE_NOTE}`,
      );
    },
  },
  {
    group: 'key',
    verb: 'rename',
    positionals: ['keyId'],
    options: ['name'],
    async run(context) {
      const keyId = keyIdArgument(context.args[0]!);
      const name = required(context, 'key rename', 'name');
      const result = await context.container.apiKeys.rename(keyId, name, { actor: CLI_ACTOR });
      if (!result.ok) throw new CommandError(result.detail);
      context.print(result.value, `Renamed key ${keyId} to "${result.value.name}".`);
    },
  },
];
