import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

// Secrets the service must read back (webhook signing secrets, answers that carry them) are kept
// sealed: AES-256-GCM under the service's data key, which lives outside the database. A sealed
// text names the key that sealed it, so keys can be rotated: the first key seals, every key opens.

const PREFIX = 'sealed.v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export const DATA_KEY_BYTES = 32;

function keyIdOf(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

export class Sealer {
  private readonly keys: Map<string, Buffer>;
  private readonly current: { id: string; key: Buffer } | null;

  /** Without keys (the CLI on PostgreSQL without DATA_ENCRYPTION_KEY) it refuses to seal or open. */
  constructor(keys: readonly Buffer[]) {
    for (const key of keys)
      if (key.length !== DATA_KEY_BYTES) throw new Error(`A data key has ${DATA_KEY_BYTES} bytes, not ${key.length}`);
    this.keys = new Map(keys.map((key) => [keyIdOf(key), key]));
    this.current = keys.length > 0 ? { id: keyIdOf(keys[0]!), key: keys[0]! } : null;
  }

  /** Whether a data key is configured to seal with. */
  get canSeal(): boolean {
    return this.current !== null;
  }

  static isSealed(text: string): boolean {
    return text.startsWith(`${PREFIX}.`);
  }

  seal(plain: string): string {
    if (!this.current) throw new Error('No data key is configured (DATA_ENCRYPTION_KEY)');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    return `${PREFIX}.${this.current.id}.${sealed}`;
  }

  /** The plain text; throws when the text was not sealed by one of this sealer's keys, or was altered. */
  open(sealed: string): string {
    const [prefix, version, keyId, data, ...rest] = sealed.split('.');
    if (`${prefix}.${version}` !== PREFIX || keyId === undefined || data === undefined || rest.length > 0)
      throw new Error('Not a sealed text');
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`Sealed with data key ${keyId}, which is not configured (DATA_ENCRYPTION_KEY)`);
    const bytes = Buffer.from(data, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
