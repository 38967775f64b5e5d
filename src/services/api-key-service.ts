import type { Kysely } from 'kysely';
import { generateApiKey, type KeyMode } from '../auth/api-key.js';
import { isPermission, parsePermissions, type Permission } from '../auth/permissions.js';
import type { Database } from '../db/schema.js';
import { inTransaction } from '../db/transactions.js';
import { validationError, type AppError, type ErrorDetail } from '../errors/app-error.js';
import { newId, uuidv7 } from '../lib/ids.js';
import type { ApiKeyEventRow, ApiKeyRepository, ApiKeyRow } from '../repositories/api-key-repository.js';
import type { CompanyRepository } from '../repositories/company-repository.js';

export type ApiKeyStatus = 'active' | 'revoked' | 'expired';

/** What may be shown of a key after its creation: never the secret, never the digest. */
export interface ApiKeySummary {
  id: string;
  companyId: string;
  name: string;
  prefix: string;
  /** live keys work on live data, test keys (inv_test_…) on the company's test sandbox. */
  mode: KeyMode;
  permissions: Permission[];
  status: ApiKeyStatus;
  createdAt: string;
  createdBy: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  /** The key that replaced this one when it was rolled. */
  replacedBy: string | null;
}

/** Who changed a key, for its activity: a panel user (by id and email) or the CLI. */
export interface KeyActor {
  userId: string | null;
  label: string;
}

export const CLI_ACTOR: KeyActor = { userId: null, label: 'CLI' };

/** How long a rolled key keeps working beside its successor, in hours. */
export const DEFAULT_ROLL_OVERLAP_HOURS = 24;
export const MAX_ROLL_OVERLAP_HOURS = 168;

export interface CreatedApiKey extends ApiKeySummary {
  /** The full key. Returned once, at creation, and never again. */
  key: string;
}

export interface CreateApiKeyInput {
  companyId: string;
  name: string;
  permissions: string[];
  expiresAt?: string | null;
  createdBy?: string | null;
  /** live (default) or test. */
  mode?: KeyMode;
  /** Who creates it; with an actor the creation is recorded in the key activity. */
  actor?: KeyActor;
}

export type CreateApiKeyResult =
  | { ok: true; value: CreatedApiKey }
  | {
      ok: false;
      reason: 'company_not_found' | 'unknown_permission' | 'invalid_name' | 'invalid_expiry' | 'no_permission';
      detail: string;
    };

export function statusOfKey(row: ApiKeyRow, now: Date): ApiKeyStatus {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && Date.parse(row.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

export function summarizeKey(row: ApiKeyRow, now: Date = new Date()): ApiKeySummary {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    prefix: row.lookup_prefix,
    mode: row.livemode === 1 ? 'live' : 'test',
    permissions: parsePermissions(row.permissions),
    status: statusOfKey(row, now),
    createdAt: row.created_at,
    createdBy: row.created_by,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    replacedBy: row.replaced_by,
  };
}

export type KeyChangeResult =
  { ok: true; value: ApiKeySummary } | { ok: false; reason: 'not_found' | 'already_revoked' };

export interface RollOptions {
  /** Hours the old key keeps working, 0 to MAX_ROLL_OVERLAP_HOURS; 0 revokes it at once. */
  overlapHours: number;
  actor: KeyActor;
  /** When given, a key of another company is "not found". */
  companyId?: string;
}

export interface RolledKey {
  /** The successor, with its full key: shown once. */
  successor: CreatedApiKey;
  /** The old key as it is now: expiring at the end of the overlap (or revoked for none). */
  previous: ApiKeySummary;
}

export type RollResult =
  | { ok: true; value: RolledKey }
  | { ok: false; reason: 'not_found' | 'revoked' | 'expired' | 'invalid_overlap' }
  | { ok: false; reason: 'already_rolled'; successorId: string | null };

export type RenameResult =
  { ok: true; value: ApiKeySummary } | { ok: false; reason: 'not_found' | 'invalid_name'; detail: string };

type KeyInputProblem = 'invalid_name' | 'unknown_permission' | 'no_permission' | 'invalid_expiry';

/**
 * Every rule a new key's name, permissions and expiry must meet, each broken one as a detail
 * (field \`name\`, \`permissions\` or \`expiresAt\`, its code the result's reason), or null when all
 * hold. \`create\` runs it; a form runs it to name every problem at once, in these words.
 */
export function keyInputProblems(
  input: Pick<CreateApiKeyInput, 'name' | 'permissions' | 'expiresAt'>,
  now: Date = new Date(),
): AppError | null {
  const details: ErrorDetail[] = [];
  const problem = (field: string, code: KeyInputProblem, message: string) => details.push({ field, code, message });
  const nameProblem = keyNameProblem(input.name);
  if (nameProblem !== null) problem('name', 'invalid_name', nameProblem);
  const unknown = input.permissions.filter((p) => !isPermission(p));
  if (unknown.length > 0) problem('permissions', 'unknown_permission', `Unknown permission: ${unknown.join(', ')}`);
  else if (input.permissions.length === 0)
    problem('permissions', 'no_permission', 'A key needs at least one permission.');
  if (input.expiresAt) {
    const time = Date.parse(input.expiresAt);
    if (!/^\d{4}-\d{2}-\d{2}/.test(input.expiresAt) || Number.isNaN(time)) {
      problem('expiresAt', 'invalid_expiry', 'The expiry must be an ISO-8601 date or date-time.');
    } else if (time <= now.getTime()) {
      problem('expiresAt', 'invalid_expiry', 'The expiry must be in the future.');
    }
  }
  return details.length > 0 ? validationError(details) : null;
}

/** The longest key name, once trimmed. */
export const MAX_KEY_NAME_LENGTH = 200;

/** A key name is 1 to MAX_KEY_NAME_LENGTH characters once trimmed; null when it is fine. */
export function keyNameProblem(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give the key a name.';
  if (trimmed.length > MAX_KEY_NAME_LENGTH) return `The key name must be at most ${MAX_KEY_NAME_LENGTH} characters.`;
  return null;
}

export function isValidOverlap(hours: number): boolean {
  return Number.isFinite(hours) && hours >= 0 && hours <= MAX_ROLL_OVERLAP_HOURS;
}

/** Thrown inside a roll's transaction when another change won the race; it rolls everything back. */
class LostRace extends Error {}

export class ApiKeyService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly keys: ApiKeyRepository,
    private readonly companies: CompanyRepository,
  ) {}

  async create(input: CreateApiKeyInput, now: Date = new Date()): Promise<CreateApiKeyResult> {
    const refusal = keyInputProblems(input, now);
    if (refusal) {
      // The first problem, as the result's reason (each detail's code is one).
      const first = refusal.details![0]!;
      return { ok: false, reason: first.code as KeyInputProblem, detail: first.message };
    }
    const name = input.name.trim();
    const permissions = [...new Set(input.permissions)] as Permission[];
    const expiresAt = input.expiresAt ? new Date(Date.parse(input.expiresAt)).toISOString() : null;
    if (!(await this.companies.findById(input.companyId))) {
      return { ok: false, reason: 'company_not_found', detail: `No company with id ${input.companyId}` };
    }
    const mode = input.mode ?? 'live';
    const { row, key } = newKeyRow(
      { companyId: input.companyId, name, permissions, mode, expiresAt, createdBy: input.createdBy ?? null },
      now,
    );
    await inTransaction(this.db, undefined, async (trx) => {
      await this.keys.insert(row, trx);
      if (input.actor) await this.keys.insertEvent(eventRow(row, 'create', input.actor, now), trx);
    });
    return { ok: true, value: { ...summarizeKey(row, now), key } };
  }

  async list(companyId: string, now: Date = new Date()): Promise<ApiKeySummary[]> {
    return (await this.keys.listByCompany(companyId)).map((row) => summarizeKey(row, now));
  }

  /** One key of the company, or undefined (also for another company's key). */
  async find(companyId: string, keyId: string, now: Date = new Date()): Promise<ApiKeySummary | undefined> {
    const row = await this.keys.findById(keyId);
    return row && row.company_id === companyId ? summarizeKey(row, now) : undefined;
  }

  async revoke(keyId: string, now: Date = new Date(), actor?: KeyActor): Promise<KeyChangeResult> {
    const existing = await this.keys.findById(keyId);
    if (!existing) return { ok: false, reason: 'not_found' };
    const revoked = await inTransaction(this.db, undefined, async (trx) => {
      if (!(await this.keys.revoke(keyId, now.toISOString(), trx))) return false;
      if (actor) await this.keys.insertEvent(eventRow(existing, 'revoke', actor, now), trx);
      return true;
    });
    if (!revoked) return { ok: false, reason: 'already_revoked' };
    return { ok: true, value: summarizeKey({ ...existing, revoked_at: now.toISOString() }, now) };
  }

  /** Revokes a key of this company only; another company's key id is "not found". */
  async revokeForCompany(
    companyId: string,
    keyId: string,
    now: Date = new Date(),
    actor?: KeyActor,
  ): Promise<KeyChangeResult> {
    const existing = await this.keys.findById(keyId);
    if (!existing || existing.company_id !== companyId) return { ok: false, reason: 'not_found' };
    return this.revoke(keyId, now, actor);
  }

  /**
   * Issues a successor of a key (same company, name, permissions, mode and expiry) and keeps the
   * old key working for the overlap: its expiry becomes the earlier of its own and now + overlap;
   * an overlap of 0 revokes it at once. Successor, old key and event commit together. A revoked,
   * expired or already rolled key is refused.
   */
  async roll(keyId: string, options: RollOptions, now: Date = new Date()): Promise<RollResult> {
    if (!isValidOverlap(options.overlapHours)) return { ok: false, reason: 'invalid_overlap' };
    const existing = await this.keys.findById(keyId);
    if (!existing || (options.companyId !== undefined && existing.company_id !== options.companyId))
      return { ok: false, reason: 'not_found' };
    const status = statusOfKey(existing, now);
    if (status !== 'active') return { ok: false, reason: status };
    if (existing.replaced_by !== null)
      return { ok: false, reason: 'already_rolled', successorId: existing.replaced_by };

    const overlapEnd = new Date(now.getTime() + Math.round(options.overlapHours * 3_600_000)).toISOString();
    // The old key's own expiry is in the future here (it is active), so the successor keeps it.
    const oldKeyUntil =
      existing.expires_at !== null && existing.expires_at < overlapEnd ? existing.expires_at : overlapEnd;
    const revokedAt = options.overlapHours === 0 ? now.toISOString() : null;
    const { row, key } = newKeyRow(
      {
        companyId: existing.company_id,
        name: existing.name,
        permissions: parsePermissions(existing.permissions),
        mode: existing.livemode === 1 ? 'live' : 'test',
        expiresAt: existing.expires_at,
        createdBy: options.actor.userId ?? 'cli',
      },
      now,
    );
    try {
      await inTransaction(this.db, undefined, async (trx) => {
        await this.keys.insert(row, trx);
        if (
          !(await this.keys.markRolled(
            keyId,
            { successorId: row.id, expiresAt: oldKeyUntil, revokedAt },
            now.toISOString(),
            trx,
          ))
        )
          throw new LostRace();
        const detail = {
          successorId: row.id,
          successorPrefix: row.lookup_prefix,
          oldKeyUntil: revokedAt ?? oldKeyUntil,
        };
        await this.keys.insertEvent(eventRow(existing, 'roll', options.actor, now, detail), trx);
      });
    } catch (error) {
      if (!(error instanceof LostRace)) throw error;
      // Revoked, expired or rolled in the meantime: answer as if it had been so before.
      const current = await this.keys.findById(keyId);
      if (!current) return { ok: false, reason: 'not_found' };
      const currentStatus = statusOfKey(current, now);
      if (currentStatus !== 'active') return { ok: false, reason: currentStatus };
      return { ok: false, reason: 'already_rolled', successorId: current.replaced_by };
    }
    const previous = summarizeKey(
      { ...existing, replaced_by: row.id, expires_at: oldKeyUntil, revoked_at: revokedAt },
      now,
    );
    return { ok: true, value: { successor: { ...summarizeKey(row, now), key }, previous } };
  }

  /** Renames a key (any status: the name is only a label); the change is in the key activity. */
  async rename(
    keyId: string,
    name: string,
    options: { actor: KeyActor; companyId?: string },
    now: Date = new Date(),
  ): Promise<RenameResult> {
    const problem = keyNameProblem(name);
    if (problem !== null) return { ok: false, reason: 'invalid_name', detail: problem };
    const existing = await this.keys.findById(keyId);
    if (!existing || (options.companyId !== undefined && existing.company_id !== options.companyId)) {
      return { ok: false, reason: 'not_found', detail: `No key with id ${keyId}` };
    }
    const trimmed = name.trim();
    if (trimmed !== existing.name) {
      await inTransaction(this.db, undefined, async (trx) => {
        await this.keys.rename(keyId, trimmed, trx);
        await this.keys.insertEvent(
          eventRow({ ...existing, name: trimmed }, 'rename', options.actor, now, { previousName: existing.name }),
          trx,
        );
      });
    }
    return { ok: true, value: summarizeKey({ ...existing, name: trimmed }, now) };
  }
}

function newKeyRow(
  input: {
    companyId: string;
    name: string;
    permissions: Permission[];
    mode: KeyMode;
    expiresAt: string | null;
    createdBy: string | null;
  },
  now: Date,
): { row: ApiKeyRow; key: string } {
  const generated = generateApiKey(input.mode);
  const row: ApiKeyRow = {
    id: newId('key'),
    company_id: input.companyId,
    name: input.name,
    lookup_prefix: generated.lookupPrefix,
    key_digest: generated.digest,
    permissions: JSON.stringify(input.permissions),
    created_at: now.toISOString(),
    created_by: input.createdBy,
    expires_at: input.expiresAt,
    revoked_at: null,
    last_used_at: null,
    livemode: input.mode === 'live' ? 1 : 0,
    replaced_by: null,
  };
  return { row, key: generated.key };
}

function eventRow(
  key: ApiKeyRow,
  action: ApiKeyEventRow['action'],
  actor: KeyActor,
  at: Date,
  detail?: object,
): ApiKeyEventRow {
  return {
    id: `kev_${uuidv7(at.getTime())}`,
    company_id: key.company_id,
    api_key_id: key.id,
    key_prefix: key.lookup_prefix,
    key_name: key.name,
    action,
    actor_user_id: actor.userId,
    actor_label: actor.label,
    detail: detail === undefined ? null : JSON.stringify(detail),
    at: at.toISOString(),
  };
}
