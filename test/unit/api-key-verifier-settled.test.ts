import { describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/auth/api-key.js';
import { ApiKeyVerifier } from '../../src/auth/verify-api-key.js';
import type { ApiKeyRepository } from '../../src/repositories/api-key-repository.js';

// settled() with the key table replaced by a row in memory: no database, so what is tested is
// that it waits for the last_used_at write a verification started and not awaited.

function verifierWithOneKey() {
  const { key, lookupPrefix, digest } = generateApiKey('live');
  const row = {
    id: 'key_1',
    company_id: 'company',
    lookup_prefix: lookupPrefix,
    key_digest: digest,
    livemode: 1,
    permissions: '[]',
    revoked_at: null,
    expires_at: null,
  };
  const written: string[] = [];
  let finishWrite!: () => void;
  const keys = {
    findByLookupPrefix: async () => row,
    touchLastUsed: (id: string) =>
      new Promise<void>((resolve) => {
        finishWrite = () => {
          written.push(id);
          resolve();
        };
      }),
  } as unknown as ApiKeyRepository;
  const verifier = new ApiKeyVerifier(keys, { cacheTtlMs: 0 });
  return { verifier, key, written, finishWrite: () => finishWrite() };
}

describe('the key verifier settled()', () => {
  it('resolves only once the last_used_at write a verification started has finished', async () => {
    const { verifier, key, written, finishWrite } = verifierWithOneKey();
    expect((await verifier.verify(key)).ok).toBe(true);
    let settled = false;
    const waiting = verifier.settled().then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    finishWrite();
    await waiting;
    expect(written).toEqual(['key_1']);
  });

  it('resolves at once when no write is under way', async () => {
    const { verifier } = verifierWithOneKey();
    await expect(verifier.settled()).resolves.toBeUndefined();
  });
});
