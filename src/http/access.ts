import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Permission } from '../auth/permissions.js';
import type { ApiKeyVerifier, AuthContext } from '../auth/verify-api-key.js';
import { AppError } from '../errors/app-error.js';
import { headerCount } from './headers.js';
import { KeyCheckGuard } from './key-check.js';
import type { RateLimitStore, WindowCount } from '../rate-limit/store.js';

/**
 * What a route demands of the caller. Every route declares one (a test walks the routes):
 * - `key`: a valid API key holding `permission`;
 * - `optional-key`: no key needed, but a presented key is checked (the health check);
 * - `none`: no key is read at all (answers that reveal nothing, such as 405).
 */
export type Access = { kind: 'key'; permission: Permission } | { kind: 'optional-key' } | { kind: 'none' };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** The body may be absent (or empty with a JSON content type) although the route declares one. */
    optionalBody?: boolean;
  }
  interface FastifyRequest {
    /** Epoch milliseconds at which the request was received. */
    receivedAt: number;
    auth: AuthContext | null;
  }
}

export interface AccessOptions {
  verifier: ApiKeyVerifier;
  store: RateLimitStore;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  authFailureLimit: number;
  authFailureWindowMs?: number;
  onRateLimited?: (reason: 'limit' | 'auth_failures') => void;
  onKeyRejected?: (reason: string) => void;
}

type PresentedKey = { kind: 'absent' } | { kind: 'key'; key: string } | { kind: 'ambiguous' };

function presentedKey(request: FastifyRequest): PresentedKey {
  // A credential sent twice is ambiguous, whether the copies agree or not: Node would join two
  // X-API-Key headers and keep only the first Authorization header.
  if (headerCount(request, 'x-api-key') > 1 || headerCount(request, 'authorization') > 1) return { kind: 'ambiguous' };
  const custom = request.headers['x-api-key'];
  const authorization = request.headers.authorization;
  const fromCustom = typeof custom === 'string' ? custom.trim() : undefined;
  let fromBearer: string | undefined;
  if (typeof authorization === 'string') {
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
    fromBearer = match ? match[1] : '';
  }
  if (fromCustom !== undefined && fromBearer !== undefined && fromCustom !== fromBearer) return { kind: 'ambiguous' };
  const key = fromCustom ?? fromBearer;
  return key === undefined ? { kind: 'absent' } : { kind: 'key', key };
}

function secondsUntil(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}

function rateLimited(resetAt: number, now: number): AppError {
  return new AppError('RATE_LIMITED', undefined, { headers: { 'retry-after': String(secondsUntil(resetAt, now)) } });
}

const invalidKey = () => new AppError('INVALID_API_KEY');

/**
 * One onRequest hook decides who is calling and whether they may: the key is checked
 * (exists, secret, revoked, expired), then the permission, then the rate limit. It runs
 * before the body is read, so 401, 403 and 429 never depend on the payload and have no effect.
 */
export function registerAccessControl(app: FastifyInstance, options: AccessOptions): void {
  const keys = new KeyCheckGuard({
    verifier: options.verifier,
    store: options.store,
    limit: options.authFailureLimit,
    windowMs: options.authFailureWindowMs ?? 60_000,
  });

  /** Decides the caller: the error to answer with, or null (with request.auth set when a key was valid). */
  async function authenticate(request: FastifyRequest, access: Access): Promise<AppError | null> {
    if (access.kind === 'none') return null;
    const presented = presentedKey(request);
    if (presented.kind === 'absent') return access.kind === 'key' ? invalidKey() : null;
    const result = await keys.check(request.ip, presented);
    if (result.kind === 'limited') {
      options.onRateLimited?.('auth_failures');
      return rateLimited(result.resetAt, Date.now());
    }
    if (result.kind === 'refused') {
      options.onKeyRejected?.(result.reason);
      request.log.info({ reason: result.reason }, 'api key rejected');
      return invalidKey();
    }
    request.auth = result.context;
    if (access.kind === 'key' && !result.context.permissions.has(access.permission)) {
      return new AppError('FORBIDDEN', `The API key lacks the permission "${access.permission}".`);
    }
    return null;
  }

  function applyRateLimit(reply: FastifyReply, window: WindowCount): AppError | null {
    const now = Date.now();
    reply.header('ratelimit-limit', options.rateLimitMax);
    reply.header('ratelimit-remaining', Math.max(0, options.rateLimitMax - window.count));
    reply.header('ratelimit-reset', secondsUntil(window.resetAt, now));
    reply.header('ratelimit-policy', `${options.rateLimitMax};w=${Math.ceil(options.rateLimitWindowMs / 1000)}`);
    return window.count > options.rateLimitMax ? rateLimited(window.resetAt, now) : null;
  }

  app.decorateRequest('receivedAt', 0);
  app.decorateRequest('auth', null);

  app.addHook('onRequest', async (request, reply) => {
    request.receivedAt = Date.now();
    const access = request.routeOptions.config.access ?? { kind: 'none' };
    const authError = await authenticate(request, access);
    // Every request counts once, against its key when authenticated, else against its address,
    // so every response carries the rate-limit headers. Key and permission are decided first.
    // The count is atomic in the store, so of N parallel requests exactly the limit get through.
    const identity = request.auth ? `key:${request.auth.keyId}` : `ip:${request.ip}`;
    const window = await options.store.increment(identity, options.rateLimitWindowMs);
    const limitError = applyRateLimit(reply, window);
    if (authError) throw authError;
    if (limitError) {
      options.onRateLimited?.('limit');
      throw limitError;
    }
  });
}
