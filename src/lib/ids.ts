import { randomBytes } from 'node:crypto';

// Ids are UUIDv7 (RFC 9562) behind a short type prefix: opaque and unguessable (74 random
// bits), yet ordered by creation time, which keeps index inserts local and lets lists be
// ordered by id. Ten lines do not warrant a dependency.
// Random bytes are drawn from the CSPRNG in blocks, as the uuid package does: one call per 256 ids.
const POOL_SIZE = 16 * 256;
let pool = randomBytes(POOL_SIZE);
let poolOffset = 0;

function random16(): Buffer {
  if (poolOffset + 16 > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}

export function uuidv7(now: number = Date.now()): string {
  const bytes = random16();
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
