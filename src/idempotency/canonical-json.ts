import { createHash } from 'node:crypto';

/** JSON with the keys of every object sorted, so equal values give equal text whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a repeat must match: the operation and its body, as sha256 hex of the canonical JSON. */
export function requestDigest(operation: string, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ operation, body: body ?? null }))
    .digest('hex');
}
