import type { KeyMode } from '../auth/api-key.js';
import type { ApiKeyStatus, ApiKeySummary } from './api-key-service.js';

// Search and filters over a company's keys (a company has few, so this runs on the listed keys;
// a key's status depends on the time of the list, which SQL would have to repeat).

export interface KeySearch {
  /** Part of the name (any case) or of the prefix. */
  query?: string;
  status?: ApiKeyStatus;
  mode?: KeyMode;
}

export const KEY_STATUSES: readonly ApiKeyStatus[] = ['active', 'revoked', 'expired'];

export function isKeyStatus(value: unknown): value is ApiKeyStatus {
  return typeof value === 'string' && (KEY_STATUSES as readonly string[]).includes(value);
}

export function searchKeys(keys: ApiKeySummary[], search: KeySearch): ApiKeySummary[] {
  const query = search.query?.trim().toLowerCase() ?? '';
  return keys.filter(
    (k) =>
      (query === '' || k.name.toLowerCase().includes(query) || k.prefix.toLowerCase().includes(query)) &&
      (search.status === undefined || k.status === search.status) &&
      (search.mode === undefined || k.mode === search.mode),
  );
}
