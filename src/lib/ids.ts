import { randomBytes } from 'node:crypto';

// Ids are UUIDv7 (RFC 9562) behind a short type prefix: opaque and unguessable (74 random
// bits), yet ordered by creation time, which keeps index inserts local and lets lists be
// ordered by id. A few lines do not warrant a dependency.

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

let lastMs = -1;
let sequence = 0;

/**
 * A UUIDv7. Without an explicit time, ids of this process are strictly increasing: within one
 * millisecond the 12 bits after the version count up (RFC 9562, method 1), so "newest first"
 * by id is exact even for ids made in the same millisecond.
 */
export function uuidv7(at?: number): string {
  const bytes = random16();
  let ms = at ?? Date.now();
  let counter = ((bytes[6]! & 0x0f) << 8) | bytes[7]!;
  if (at === undefined) {
    if (ms <= lastMs) {
      ms = lastMs;
      sequence += 1;
      if (sequence > 0xfff) {
        ms += 1;
        sequence = counter & 0x7ff;
      }
    } else {
      // Start low in the range so that a busy millisecond has room to count up.
      sequence = counter & 0x7ff;
    }
    lastMs = ms;
    counter = sequence;
  }
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type IdPrefix =
  | 'cmp'
  | 'key'
  | 'org'
  | 'inv'
  | 'usr'
  | 'pay'
  | 'rfd'
  | 'cn'
  | 'evt'
  | 'we'
  | 'whd'
  | 'wha'
  | 'pin'
  | 'ppay'
  | 'quo'
  | 'rin'
  | 'rir'
  | 'eml'
  | 'rem';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${uuidv7()}`;
}
