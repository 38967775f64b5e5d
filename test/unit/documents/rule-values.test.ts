import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../../src/documents/identifiers.js';
import { dec } from '../../../src/documents/rules/finding.js';

// The value helpers the rules share answer the same whether or not they have seen the text before.

describe('dec', () => {
  it('reads a decimal as written, trimmed, and refuses text that is no decimal, each time it is asked', () => {
    for (let round = 0; round < 2; round++) {
      expect(dec(' 12.50 ')?.toFixed()).toBe('12.5');
      expect(dec('-0.005')?.toFixed()).toBe('-0.005');
      expect(dec('12,50')).toBeNull();
      expect(dec('1e3')).toBeNull();
      expect(dec('')).toBeNull();
      expect(dec(null)).toBeNull();
    }
  });

  it('keeps reading every text right after more texts than it remembers', () => {
    const texts = Array.from({ length: 10_000 }, (_, i) => `${i}.${i % 100}`);
    for (const text of texts) expect(dec(text)?.toFixed()).toBe(String(Number(text)));
    for (const text of texts.slice(0, 50)) expect(dec(text)?.toFixed()).toBe(String(Number(text)));
  });

  it('reads a text longer than any amount as well, each time it is asked', () => {
    const long = `1${'0'.repeat(60)}.5`;
    expect(dec(long)?.toFixed()).toBe(long);
    expect(dec(long)?.toFixed()).toBe(long);
    expect(dec(`${long}x`)).toBeNull();
  });
});

describe('isCountryCode', () => {
  it('knows the codes of the EN 16931 country list, with the two it adds, and no others', () => {
    expect(['DE', 'FR', 'NO', 'GB', 'SS', '1A', 'XI'].map(isCountryCode)).toEqual(Array(7).fill(true));
    expect(['XY', 'QQ', 'de', 'DEU', '', ' DE'].map(isCountryCode)).toEqual(Array(6).fill(false));
  });

  it('refuses the codes ICU can name that the official list does not hold, as BR-CL-14 and BR-CO-9 do', () => {
    // UK for GB is the common slip; EU, XK and ZZ are named by ICU too.
    expect(['UK', 'EU', 'XK', 'ZZ', 'UN', 'YU', 'AN'].map(isCountryCode)).toEqual(Array(7).fill(false));
  });
});
