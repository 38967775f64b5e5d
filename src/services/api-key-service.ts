import { generateApiKey, type KeyMode } from '../auth/api-key.js';
import { isPermission, type Permission } from '../auth/permissions.js';
import { newId } from '../lib/ids.js';
import type { ApiKeyRepository, ApiKeyRow } from '../repositories/api-key-repository.js';
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
}

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
}

export type CreateApiKeyResult =
  | { ok: true; value: CreatedApiKey }
  | { ok: false; reason: 'company_not_found' | 'unknown_permission' | 'invalid_name' | 'invalid_expiry' | 'no_permission'; detail: string };

export function parsePermissions(json: string): Permission[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((p): p is Permission => typeof p === 'string' && isPermission(p)) : [];
}

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
  };
}

export class ApiKeyService {
  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly companies: CompanyRepository,
  ) {}

  async create(input: CreateApiKeyInput, now: Date = new Date()): Promise<CreateApiKeyResult> {
    const name = input.name.trim();
    if (name === '' || name.length > 200) {
      return { ok: false, reason: 'invalid_name', detail: 'The key name must be 1 to 200 characters.' };
    }
    const unknown = input.permissions.filter((p) => !isPermission(p));
    if (unknown.length > 0) {
      return { ok: false, reason: 'unknown_permission', detail: `Unknown permission: ${unknown.join(', ')}` };
    }
    const permissions = [...new Set(input.permissions)] as Permission[];
    if (permissions.length === 0) {
      return { ok: false, reason: 'no_permission', detail: 'A key needs at least one permission.' };
    }
    let expiresAt: string | null = null;
    if (input.expiresAt) {
      const time = Date.parse(input.expiresAt);
      if (!/^\d{4}-\d{2}-\d{2}/.test(input.expiresAt) || Number.isNaN(time)) {
        return { ok: false, reason: 'invalid_expiry', detail: 'The expiry must be an ISO-8601 date or date-time.' };
      }
      if (time <= now.getTime()) {
        return { ok: false, reason: 'invalid_expiry', detail: 'The expiry must be in the future.' };
      }
      expiresAt = new Date(time).toISOString();
    }
    if (!(await this.companies.findById(input.companyId))) {
      return { ok: false, reason: 'company_not_found', detail: `No company with id ${input.companyId}` };
    }
    const mode = input.mode ?? 'live';
    const generated = generateApiKey(mode);
    const row: ApiKeyRow = {
      id: newId('key'),
      company_id: input.companyId,
      name,
      lookup_prefix: generated.lookupPrefix,
      key_digest: generated.digest,
      permissions: JSON.stringify(permissions),
      created_at: now.toISOString(),
      created_by: input.createdBy ?? null,
      expires_at: expiresAt,
      revoked_at: null,
      last_used_at: null,
      livemode: mode === 'live' ? 1 : 0,
    };
    await this.keys.insert(row);
    return { ok: true, value: { ...summarizeKey(row, now), key: generated.key } };
  }

  async list(companyId: string, now: Date = new Date()): Promise<ApiKeySummary[]> {
    return (await this.keys.listByCompany(companyId)).map((row) => summarizeKey(row, now));
  }

  async revoke(
    keyId: string,
    now: Date = new Date(),
  ): Promise<{ ok: true; value: ApiKeySummary } | { ok: false; reason: 'not_found' | 'already_revoked' }> {
    const existing = await this.keys.findById(keyId);
    if (!existing) return { ok: false, reason: 'not_found' };
    if (!(await this.keys.revoke(keyId, now.toISOString()))) return { ok: false, reason: 'already_revoked' };
    return { ok: true, value: summarizeKey({ ...existing, revoked_at: now.toISOString() }, now) };
  }

  /** Revokes a key of this company only; another company's key id is "not found". */
  async revokeForCompany(
    companyId: string,
    keyId: string,
    now: Date = new Date(),
  ): Promise<{ ok: true; value: ApiKeySummary } | { ok: false; reason: 'not_found' | 'already_revoked' }> {
    const existing = await this.keys.findById(keyId);
    if (!existing || existing.company_id !== companyId) return { ok: false, reason: 'not_found' };
    return this.revoke(keyId, now);
  }
}
