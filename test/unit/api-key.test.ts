import { describe, expect, it } from 'vitest';
import { digestApiKey, digestsEqual, generateApiKey, lookupPrefixOf } from '../../src/auth/api-key.js';
import { uuidv7 } from '../../src/lib/ids.js';

describe('API keys', () => {
  it('have the shape inv_live_<8 base62>_<24 base62> and carry their lookup prefix', () => {
    const { key, lookupPrefix, digest } = generateApiKey();
    expect(key).toMatch(/^inv_live_[0-9A-Za-z]{8}_[0-9A-Za-z]{24}$/);
    expect(key.split('_')[2]).toBe(lookupPrefix);
    expect(lookupPrefixOf(key)).toBe(lookupPrefix);
    expect(digest).toBe(digestApiKey(key));
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('are different every time and use the whole base62 alphabet', () => {
    const keys = Array.from({ length: 2000 }, () => generateApiKey().key);
    expect(new Set(keys).size).toBe(keys.length);
    const secrets = keys.map((k) => k.split('_')[3]).join('');
    expect(new Set(secrets).size).toBe(62);
  });

  it.each([
    '',
    'inv_live_short_x',
    'inv_demo_ABCDEFGH_abcdefghijklmnopqrstuvwx',
    'inv_live_ABCDEFGH_abcdefghijklmnopqrstuvw!',
    ` ${'inv_live_ABCDEFGH_abcdefghijklmnopqrstuvwx'}`,
  ])('finds no lookup prefix in the malformed key %j', (raw) => {
    expect(lookupPrefixOf(raw)).toBeNull();
  });

  it('compares digests exactly', () => {
    const a = digestApiKey('a');
    expect(digestsEqual(a, a)).toBe(true);
    expect(digestsEqual(a, digestApiKey('b'))).toBe(false);
    expect(digestsEqual(a, 'abc')).toBe(false);
  });
});

describe('ids', () => {
  it('are RFC 9562 version 7 UUIDs ordered by creation time', () => {
    const early = uuidv7(1_700_000_000_000);
    const late = uuidv7(1_700_000_000_001);
    expect(early).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(early < late).toBe(true);
    expect(early.slice(0, 13)).toBe('018bcfe5-6800');
  });
});

describe('ids made in one process', () => {
  it('increase strictly, even thousands within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    for (let i = 1; i < ids.length; i++) expect(ids[i]! > ids[i - 1]!, `${ids[i - 1]} then ${ids[i]}`).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
