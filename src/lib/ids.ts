import { randomBytes } from 'node:crypto';

// Ids are UUIDv7 (RFC 9562) behind a short type prefix: opaque and unguessable (74 random
// bits), yet ordered by creation time, which keeps index inserts local and lets lists be
// ordered by id. Ten lines do not warrant a dependency.
export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type IdPrefix = 'cmp' | 'key' | 'org' | 'inv' | 'usr';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${uuidv7()}`;
}
