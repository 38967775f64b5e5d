import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import type { ErrorCode } from '../errors/codes.js';
import type { Access } from '../http/access.js';
import type { Container } from '../container.js';
import type { RateLimitStore } from '../rate-limit/store.js';
import type { KeyEventLog } from './key-events.js';
import type { PanelRecords } from './records.js';
import type { Session, SessionStore } from './sessions.js';
import type { FirstRunSetup } from './setup.js';
import { isPrivileged, type PanelUser, type UserService } from './users.js';
import { PANEL_PATH, type Chrome } from './views/layout.js';

// What every panel route shares: its services, the cookie rules and the request's session.

/** The session's token; the cookie lives exactly as long as the session (SESSION_TTL_MS). */
export const SESSION_COOKIE = 'invoicing_session';
/**
 * "This browser was signed in": no secret, and longer-lived than a session, so that a browser
 * whose session cookie ran out with its session is told the session expired (and a form it sends
 * comes back after sign-in, see return-to.ts), rather than shown a bare sign-in page.
 */
export const SIGNED_IN_COOKIE = 'invoicing_signed_in';

/** Whether the browser had a session: a session cookie (live or dead) or the signed-in marker. */
export function hadSession(request: FastifyRequest): boolean {
  return request.cookies?.[SESSION_COOKIE] !== undefined || request.cookies?.[SIGNED_IN_COOKIE] !== undefined;
}
/** Which world the panel shows: absent (live) or 'test' (see mode.ts). */
export const MODE_COOKIE = 'invoicing_mode';

export interface SignInLimits {
  /** Sign-in attempts per client address per window, successful or not. */
  attemptsPerAddress: number;
  /** Failed attempts per account per window; over it even the right password is refused. */
  failuresPerAccount: number;
  windowMs: number;
}

export interface PanelDeps {
  container: Container;
  users: UserService;
  sessions: SessionStore;
  setup: FirstRunSetup;
  keyEvents: KeyEventLog;
  records: PanelRecords;
  rateLimitStore: RateLimitStore;
  signInLimits: SignInLimits;
}

declare module 'fastify' {
  interface FastifyRequest {
    panelSession: Session | null;
    panelToken: string | null;
  }
}

/** Panel routes carry no API key; the app's access hook still rate-limits them per address. */
export function openAccess(): { access: Access } {
  return { access: { kind: 'none' } };
}

/** The request came over TLS; X-Forwarded-Proto counts only when TRUST_PROXY says so (Fastify's request.protocol). */
export function isSecure(request: FastifyRequest): boolean {
  return request.protocol === 'https';
}

export function cookieOptions(request: FastifyRequest) {
  return { path: PANEL_PATH, httpOnly: true, sameSite: 'lax' as const, secure: isSecure(request) };
}

export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  return reply.generateCsrf(cookieOptions(request));
}

/**
 * A refusal of the panel: an AppError, so its status comes from the one code -> status table,
 * with the page's own title. Its message is the page's explanation.
 */
export class PanelError extends AppError {
  override name = 'PanelError';
  constructor(
    code: ErrorCode,
    readonly title: string,
    explanation: string,
    headers?: Record<string, string>,
  ) {
    super(code, explanation, headers ? { headers } : {});
  }
}

/** Too many sign-in (or password) attempts: a 429 page with Retry-After. */
export function tooManyAttempts(resetAt: number, title = 'Too many sign-in attempts'): PanelError {
  const retryAfter = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
  return new PanelError('RATE_LIMITED', title, `Wait ${Math.ceil(retryAfter / 60)} minute(s) and try again.`, {
    'retry-after': String(retryAfter),
  });
}

/** Failed sign-ins and wrong current passwords count against one budget per account (by email). */
export const ACCOUNT_ATTEMPTS = 'panel-sign-in:account';

export function forbidden(
  explanation = 'Your role does not allow this. Owners and admins manage keys, webhooks and users.',
): PanelError {
  return new PanelError('FORBIDDEN', 'Not allowed', explanation);
}

export function notFound(): PanelError {
  return new PanelError('NOT_FOUND', 'Not found', 'There is nothing here, or it belongs to another company.');
}

export function signedInUser(request: FastifyRequest): PanelUser {
  const user = request.panelSession?.user;
  if (!user) throw new PanelError('UNAUTHORIZED', 'Sign in first', 'Your session has ended.');
  return user;
}

/** The signed-in owner or admin; anyone else gets `refusal` (a 403 saying what the role may not do). */
export function requirePrivileged(request: FastifyRequest, refusal: PanelError = forbidden()): PanelUser {
  const user = signedInUser(request);
  if (!isPrivileged(user.role)) throw refusal;
  return user;
}

export async function chromeFor(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PanelDeps,
): Promise<Chrome & { user: PanelUser }> {
  const user = signedInUser(request);
  const company = await deps.container.companies.find(user.companyId);
  const livemode = request.cookies[MODE_COOKIE] !== 'test';
  return { user, companyName: company?.name ?? '', csrf: csrfToken(request, reply), livemode, path: request.url };
}

export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(page);
}

/** Form fields arrive as a string, or an array when repeated. */
export function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
