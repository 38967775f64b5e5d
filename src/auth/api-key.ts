import { createHash, randomInt, timingSafeEqual } from 'node:crypto';

// Key format: inv_<environment>_<lookup>_<secret>, the environment being live or test. The lookup
// part finds the row; only sha256(whole key) is stored, so a database leak reveals no usable key.
export const KEY_PRODUCT_PREFIX = 'inv';
export type KeyMode = 'live' | 'test';
export const KEY_MODES: readonly KeyMode[] = ['live', 'test'];
const LOOKUP_LENGTH = 8;
const SECRET_LENGTH = 24;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = /^inv_(live|test)_([0-9A-Za-z]{8})_[0-9A-Za-z]{24}$/;

function randomBase62(length: number): string {
  let out = '';
  // randomInt draws from the CSPRNG without modulo bias.
  for (let i = 0; i < length; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export interface GeneratedKey {
  key: string;
  lookupPrefix: string;
  digest: string;
}

export function generateApiKey(mode: KeyMode = 'live'): GeneratedKey {
  const lookupPrefix = randomBase62(LOOKUP_LENGTH);
  const key = `${KEY_PRODUCT_PREFIX}_${mode}_${lookupPrefix}_${randomBase62(SECRET_LENGTH)}`;
  return { key, lookupPrefix, digest: digestApiKey(key) };
}

/** The lookup prefix of a well-formed key, or null for anything else. */
export function lookupPrefixOf(raw: string): string | null {
  return KEY_PATTERN.exec(raw)?.[2] ?? null;
}

/** The mode a well-formed key says it is of, or null for anything else. */
export function modeOf(raw: string): KeyMode | null {
  return (KEY_PATTERN.exec(raw)?.[1] as KeyMode | undefined) ?? null;
}

export function digestApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
