import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SessionRepository } from '../repositories/session-repository.js';
import { uuidv7 } from '../lib/ids.js';
import type { PanelUser } from './users.js';

// Sessions are random 256-bit tokens held in an HttpOnly cookie; the table stores only their
// SHA-256, so a database leak does not sign anyone in. A session ends at its expiry, at
// sign-out, or when its user is deactivated.

export const SESSION_TTL_MS = 12 * 60 * 60 * 1000;

export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export interface Session {
  id: string;
  user: PanelUser;
  expiresAt: string;
}

export interface RevealedKey {
  keyId: string;
  key: string;
}

/** AES-256-GCM under a key derived from the session token, which the server never stores. */
function sealKey(token: string): Buffer {
  return createHash('sha256').update(`reveal:${token}`, 'utf8').digest();
}

export function seal(token: string, payload: RevealedKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(token), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unseal(token: string, sealed: string): RevealedKey | null {
  try {
    const bytes = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(token), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const text = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    const parsed = JSON.parse(text) as RevealedKey;
    return typeof parsed.key === 'string' && typeof parsed.keyId === 'string' ? parsed : null;
  } catch {
    return null;
  }
}

export class SessionStore {
  constructor(private readonly sessions: SessionRepository) {}

  async create(userId: string, now: Date = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await this.sessions.insert({
      id: `ses_${uuidv7()}`,
      token_hash: tokenHash(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      sealed_reveal: null,
    });
    return { token, expiresAt };
  }

  /** The live session of this token with its active user, or null. */
  async find(token: string, now: Date = new Date()): Promise<Session | null> {
    const row = await this.sessions.findWithUser(tokenHash(token));
    if (!row || row.active !== 1 || row.expires_at <= now.toISOString()) return null;
    return {
      id: row.session_id,
      expiresAt: row.expires_at,
      user: {
        id: row.id,
        companyId: row.company_id,
        email: row.email,
        role: row.role,
        active: true,
        mustChangePassword: row.must_change_password === 1,
        createdAt: row.created_at,
      },
    };
  }

  async destroy(token: string): Promise<void> {
    await this.sessions.deleteByTokenHash(tokenHash(token));
  }

  async deleteExpired(now: Date = new Date()): Promise<void> {
    await this.sessions.deleteExpired(now.toISOString());
  }

  /** Holds a just-created key for the next page view of this session only. */
  async holdForReveal(token: string, payload: RevealedKey): Promise<void> {
    await this.sessions.setSealedReveal(tokenHash(token), seal(token, payload));
  }

  /** The held key, once: it is cleared in the same step it is read. */
  async takeReveal(token: string): Promise<RevealedKey | null> {
    const hash = tokenHash(token);
    const sealed = await this.sessions.sealedReveal(hash);
    if (!sealed) return null;
    // Two tabs racing for the same key: only the one that cleared it shows it.
    if (!(await this.sessions.clearSealedReveal(hash, sealed))) return null;
    return unseal(token, sealed);
  }
}
