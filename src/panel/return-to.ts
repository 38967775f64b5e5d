import type { FastifyRequest } from 'fastify';
import { COMPANY_FIELDS } from './company-form.js';
import type { Notice } from './views/layout.js';
import { PANEL_PATH } from './views/layout.js';

// Coming back after a session ends. A page asked for without a valid session sends the browser
// to sign-in with `return=<that page>`; after sign-in the browser lands there again.
//
// A form sent with an ended session cannot be carried out (the user may not be who they were,
// and the CSRF token is bound to the old browser state), so it is not replayed. What we keep:
// the page the form was on, and for the forms that can take them back, the values typed into
// their non-secret fields. Those ride through the sign-in form as one hidden field and come back
// as the query string of the form's page, which fills them in again. Passwords, tokens and
// anything not in RESTORABLE are never kept: a query string ends up in history and logs.

/** The create-key form's fields: none is a secret (the key is made by the server). */
export const KEY_FORM_FIELDS = ['name', 'permissions', 'allPermissions', 'expiresOn', 'mode'] as const;

/** The pages whose forms take typed values back, and the fields they take. */
const RESTORABLE: Record<string, readonly string[]> = {
  [`${PANEL_PATH}/users`]: ['email', 'role'],
  [`${PANEL_PATH}/company`]: COMPANY_FIELDS,
  [`${PANEL_PATH}/webhooks`]: ['url', 'events', 'description'],
  [`${PANEL_PATH}/keys`]: KEY_FORM_FIELDS,
};

/** The kept values must fit a URL comfortably; past this only the page is kept. */
export const MAX_RESTORE_LENGTH = 4000;

/** Marks a page view as carrying restored values in its query. */
export const RESTORED_PARAM = 'restored';

export const EXPIRED_NOTICE: Notice = { kind: 'info', text: 'Your session expired; sign in again.' };
export const RESTORED_NOTICE: Notice = {
  kind: 'info',
  text: 'You are signed in again. What you typed before your session expired is back in the form: check it and send it again.',
};

const NOT_A_RETURN = new Set([`${PANEL_PATH}/sign-in`, `${PANEL_PATH}/sign-out`, `${PANEL_PATH}/setup`]);

/**
 * A path of this panel, or null: never another site (an open redirect), never the API, never a
 * page that would loop (sign-in itself), never a path with dot segments or odd characters.
 */
export function safePanelPath(path: string | undefined | null): string | null {
  if (!path || path.length > 2000) return null;
  if (!(path === PANEL_PATH || path.startsWith(`${PANEL_PATH}/`) || path.startsWith(`${PANEL_PATH}?`))) return null;
  // Printable ASCII only (a browser sends the path percent-encoded), no backslash, no empty segment.
  if (!/^[\x21-\x7e]+$/.test(path) || path.includes('\\') || path.includes('//')) return null;
  const pathname = path.split(/[?#]/)[0]!;
  if (pathname.split('/').some((s) => s === '..' || s === '.' || /%2e|%2f|%5c/i.test(s))) return null;
  if (NOT_A_RETURN.has(pathname)) return null;
  return path;
}

/** Where a form's page is, from the address the form was posted to (forms post to their page or to an action below it). */
export function formPageOf(request: FastifyRequest): string {
  const body = (request.body ?? {}) as Record<string, unknown>;
  // The live/test switch says where it was clicked.
  if (typeof body.return === 'string') return safePanelPath(body.return) ?? PANEL_PATH;
  const [, , section, id] = request.url.split('?')[0]!.split('/');
  if (!section) return PANEL_PATH;
  // A webhook endpoint's actions (enable, rotate, resend…) sit under its own page.
  if (section === 'webhooks' && id) return safePanelPath(`${PANEL_PATH}/webhooks/${id}`) ?? `${PANEL_PATH}/webhooks`;
  return safePanelPath(`${PANEL_PATH}/${section}`) ?? PANEL_PATH;
}

/** The non-secret values of a posted form whose page can take them back, as a query string ('' when none). */
export function keptValues(page: string, body: unknown): string {
  const fields = RESTORABLE[page];
  if (!fields || typeof body !== 'object' || body === null) return '';
  const query = new URLSearchParams();
  for (const name of fields) {
    const value = (body as Record<string, unknown>)[name];
    for (const v of Array.isArray(value) ? value : [value]) if (typeof v === 'string') query.append(name, v);
  }
  const text = query.toString();
  return text.length > 0 && text.length <= MAX_RESTORE_LENGTH ? text : '';
}

/** Where sign-in sends the browser: the page, with the kept values when that page takes them. */
export function afterSignIn(returnPath: string | undefined, restore: string | undefined): string | null {
  const page = safePanelPath(returnPath);
  if (!page) return null;
  if (!restore || restore.length > MAX_RESTORE_LENGTH || page.includes('?')) return page;
  // Only the fields the page takes, re-read, so a forged `restore` cannot add anything else.
  const kept = keptValues(
    page,
    Object.fromEntries(
      [...new URLSearchParams(restore).keys()].map((k) => [k, new URLSearchParams(restore).getAll(k)]),
    ),
  );
  return kept ? `${page}?${RESTORED_PARAM}=1&${kept}` : page;
}

/** The sign-in address for a page asked for without a valid session. */
export function signInFor(path: string, expired: boolean): string {
  const page = safePanelPath(path);
  const query = new URLSearchParams();
  if (page && page !== PANEL_PATH) query.set('return', page);
  if (expired) query.set('expired', '1');
  const text = query.toString();
  return `${PANEL_PATH}/sign-in${text ? `?${text}` : ''}`;
}

/** The restored values of a page view, when it carries them. */
export function restoredValues(query: unknown, fields: readonly string[]): Record<string, string | string[]> | null {
  const q = (query ?? {}) as Record<string, unknown>;
  if (q[RESTORED_PARAM] !== '1') return null;
  const values: Record<string, string | string[]> = {};
  for (const name of fields) {
    const value = q[name];
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string')))
      values[name] = value as string | string[];
  }
  return values;
}
