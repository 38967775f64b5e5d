import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fastifyCookie from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.js';
import { ERRORS, type ErrorCode } from '../errors/codes.js';
import { toAppError } from '../http/error-handler.js';
import { FAVICON_SVG, faviconIco } from '../lib/favicon.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../rate-limit/store.js';
import { KeyEventLog } from './key-events.js';
import { PanelRecords } from './records.js';
import { accountRoutes, PASSWORD_REQUIRED_PATH, passwordRequiredAddress } from './routes/account.js';
import { authRoutes } from './routes/auth.js';
import { companyRoutes } from './routes/company.js';
import { emailTemplateRoutes } from './routes/email-templates.js';
import { reminderRoutes } from './routes/reminders.js';
import { documentRoutes } from './routes/documents.js';
import { keyRoutes } from './routes/keys.js';
import { recordRoutes } from './routes/records.js';
import { quoteRoutes } from './routes/quotes.js';
import { sendingRoutes } from './routes/sending.js';
import { userRoutes } from './routes/users.js';
import { webhookRoutes } from './routes/webhooks.js';
import { testModeRoutes } from './routes/test-mode.js';
import { purchaseInvoiceRoutes } from './routes/purchase-invoices.js';
import { SessionStore } from './sessions.js';
import { FirstRunSetup } from './setup.js';
import { UserService } from './users.js';
import { EXPIRED_NOTICE, formPageOf, keptValues, signInFor } from './return-to.js';
import { signInPage } from './views/auth.js';
import { errorPage } from './views/error.js';
import { PANEL_PATH, type Chrome } from './views/layout.js';
import {
  csrfToken,
  hadSession,
  openAccess,
  PanelError,
  sendPage,
  SESSION_COOKIE,
  type PanelDeps,
  type SignInLimits,
} from './context.js';

export { PANEL_PATH };

export interface PanelOptions {
  /** The app's counter store, so sign-in limits hold across instances once it is shared. */
  rateLimitStore?: RateLimitStore;
  signInLimits?: Partial<SignInLimits>;
  /** RECEIVE_MAX_BYTES: the largest document the inbox's upload takes, as the API's intake. */
  receiveMaxBytes?: number;
}

const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { attemptsPerAddress: 30, failuresPerAccount: 10, windowMs: 15 * 60_000 };

// Assets are read once at start: Pico from node_modules (no CDN), ours from src/panel/assets,
// which is two levels above both src/panel/plugin.ts and dist/panel/plugin.js.
const require = createRequire(import.meta.url);
const ASSETS: Record<string, { type: string; body: Buffer }> = {
  'pico.min.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(require.resolve('@picocss/pico/css/pico.min.css')),
  },
  'panel.css': {
    type: 'text/css; charset=utf-8',
    body: readFileSync(new URL('../../src/panel/assets/panel.css', import.meta.url)),
  },
  'panel.js': {
    type: 'text/javascript; charset=utf-8',
    body: readFileSync(new URL('../../src/panel/assets/panel.js', import.meta.url)),
  },
  'favicon.svg': { type: 'image/svg+xml', body: Buffer.from(FAVICON_SVG) },
};
const FAVICON_ICO = faviconIco();

// No inline script or style anywhere, so the policy can forbid them; Pico's icons are data: URLs.
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  // The setup URL carries its token: never let it leave in a Referer.
  'referrer-policy': 'no-referrer',
};

// The page words for the codes the panel meets without a page of its own; the status comes from
// the one table (errors/codes.ts), as on the API. An AppError with its own message (a service's,
// or a PanelError's) shows that message; one with the table's API-worded default shows these.
const PAGE_WORDS: Partial<Record<ErrorCode, readonly [title: string, explanation: string]>> = {
  VALIDATION_ERROR: ['The form was not understood', 'Go back, check the form and send it again.'],
  INVALID_JSON: ['The form was not understood', 'Go back, check the form and send it again.'],
  UNAUTHORIZED: ['Sign in first', 'Your session has ended.'],
  FORBIDDEN: ['Not allowed', 'This action is not allowed for your account.'],
  NOT_FOUND: ['Not found', 'There is no page at this address.'],
  METHOD_NOT_ALLOWED: ['Method not allowed', 'This page does not accept that kind of request.'],
  PAYLOAD_TOO_LARGE: ['Too much data', 'The form sent more data than the server accepts.'],
  UNSUPPORTED_MEDIA_TYPE: ['Not a form', 'The request was not sent as a form.'],
  RATE_LIMITED: ['Too many requests', 'Slow down and try again in a minute.'],
  SERVICE_UNAVAILABLE: ['Temporarily unavailable', 'The database cannot be reached right now. Try again shortly.'],
  INTERNAL_SERVER_ERROR: [
    'Something went wrong',
    'An unexpected error occurred. If it keeps happening, contact support with the request id below.',
  ],
};

/** A title for a code without words of its own, by the kind of its status. */
function titleByStatus(status: number): string {
  if (status === 409) return 'Not possible now';
  if (status >= 500) return 'Something went wrong';
  return 'Not accepted';
}

/** The page for an AppError: its title and explanation. */
function pageWords(error: AppError): { title: string; explanation: string } {
  const words = PAGE_WORDS[error.code];
  const title = error instanceof PanelError ? error.title : (words?.[0] ?? titleByStatus(error.status));
  const explanation = error.message === ERRORS[error.code].message && words ? words[1] : error.message;
  return { title, explanation };
}

/** A form without a valid CSRF token: Fastify's 403, in the panel's words. */
function isCsrfRefusal(error: unknown): boolean {
  const code = (error as Partial<FastifyError>).code;
  return code === 'FST_CSRF_MISSING_SECRET' || code === 'FST_CSRF_INVALID_TOKEN';
}

/** The inbox's upload past its limits (@fastify/multipart's 413s), in the panel's words. */
function uploadRefusal(error: unknown): PanelError | null {
  const code = (error as Partial<FastifyError>).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE')
    return new PanelError(
      'PAYLOAD_TOO_LARGE',
      'The file is too large',
      'The document is larger than the most this service takes (RECEIVE_MAX_BYTES). Nothing was stored.',
    );
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
    return new PanelError(
      'PAYLOAD_TOO_LARGE',
      'One document at a time',
      'Upload one file per form. Nothing was stored.',
    );
  return null;
}

function chromeOf(request: FastifyRequest, reply: FastifyReply): Chrome {
  let csrf = '';
  try {
    csrf = csrfToken(request, reply);
  } catch {
    // The error happened before the cookie plugin ran; the page then has no sign-out form.
  }
  const user = request.panelSession?.user;
  return user && csrf ? { user, csrf } : { csrf };
}

/**
 * Any error as a page, through the API's own toAppError: the same code decides the status (from
 * the one table), a dependency that cannot serve is a 503 with the API's Retry-After, and an
 * unknown error a 500 with no stack, driver text or SQL (those go to the log).
 */
function renderError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const appError = isCsrfRefusal(error)
    ? new PanelError(
        'FORBIDDEN',
        'This form has expired',
        'The form did not carry a valid security token (it may be old, or come from another site). Go back, reload the page and try again.',
      )
    : (uploadRefusal(error) ?? toAppError(error));
  const status = appError.status;
  if (appError.headers) reply.headers(appError.headers);
  if (appError.code === 'SERVICE_UNAVAILABLE' && !(appError instanceof PanelError))
    request.log.warn({ err: error }, 'panel dependency unavailable');
  else if (status >= 500) request.log.error({ err: error }, 'panel request failed');
  else
    request.log.info(
      { status, code: appError.code, err: error instanceof Error ? error.message : String(error) },
      'panel request refused',
    );
  if (status === 401) return reply.redirect(signInFor(request.url, hadSession(request)), 303);
  const { title, explanation } = pageWords(appError);
  return sendPage(
    reply,
    errorPage(status, title, explanation, chromeOf(request, reply), request.id, appError.details),
    status,
  );
}

async function panelScope(app: FastifyInstance, options: PanelOptions): Promise<void> {
  const db = app.container.storage.db;
  const repositories = app.container.repositories;
  const deps: PanelDeps = {
    container: app.container,
    users: new UserService(db, repositories),
    sessions: new SessionStore(repositories.sessions),
    setup: new FirstRunSetup(db, repositories),
    keyEvents: new KeyEventLog(repositories.apiKeys, repositories.users),
    records: new PanelRecords(
      app.container.invoices,
      repositories.organizations,
      repositories.invoices,
      repositories.creditNotes,
    ),
    rateLimitStore: options.rateLimitStore ?? new MemoryRateLimitStore(),
    signInLimits: { ...DEFAULT_SIGN_IN_LIMITS, ...options.signInLimits },
  };
  if (!options.rateLimitStore) app.addHook('onClose', () => deps.rateLimitStore.close());

  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: 64 * 1024 });
  await app.register(fastifyCsrf, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: 'invoicing_csrf',
    cookieOpts: { path: PANEL_PATH, httpOnly: true, sameSite: 'lax' },
  });

  app.decorateRequest('panelSession', null);
  app.decorateRequest('panelToken', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });

  app.setErrorHandler((error, request, reply) => renderError(error, request, reply));
  app.setNotFoundHandler({ preHandler: loadSession }, (request, reply) =>
    renderError(new AppError('NOT_FOUND'), request, reply),
  );

  async function loadSession(request: FastifyRequest): Promise<void> {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const session = await deps.sessions.find(token);
    if (session) {
      request.panelSession = session;
      request.panelToken = token;
    }
  }
  app.addHook('preHandler', loadSession);

  app.get('/assets/:file', { config: openAccess() }, async (request, reply) => {
    const asset = ASSETS[(request.params as { file: string }).file];
    if (!asset) throw new AppError('NOT_FOUND');
    // The app marks every answer no-store; this hook runs after that one and lets assets be cached.
    reply.header('content-type', asset.type);
    return reply.send(asset.body);
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.url === `${PANEL_PATH}/assets/:file` && reply.statusCode === 200)
      reply.header('cache-control', 'public, max-age=3600');
  });

  app.get('/', { config: openAccess() }, async (request, reply) =>
    reply.redirect(request.panelSession ? `${PANEL_PATH}/keys` : `${PANEL_PATH}/sign-in`, 303),
  );

  await app.register(authRoutes(deps));
  // Everything below needs a signed-in user; without one the browser goes to the sign-in page.
  await app.register(async (signedIn) => {
    signedIn.addHook('preHandler', async (request, reply) => {
      if (request.panelSession) {
        // A password someone else set: until its user chooses their own, the session reaches the
        // change-password page and nothing else (a form sent elsewhere is not carried out).
        if (request.panelSession.user.mustChangePassword && request.url.split('?')[0] !== PASSWORD_REQUIRED_PATH) {
          return reply.redirect(passwordRequiredAddress(request.method === 'GET' ? request.url : null), 303);
        }
        return;
      }
      // A browser that had a session (its cookie, or the signed-in marker once the cookie ran out
      // with the session) is told it expired. No cookie at all is a first visit, which needs no
      // excuse. Either way sign-in leads back here.
      if (request.method === 'GET' || request.method === 'HEAD')
        return reply.redirect(signInFor(request.url, hadSession(request)), 303);
      // A post from a browser that never had a session: there is nothing to keep.
      if (!hadSession(request)) return reply.redirect(`${PANEL_PATH}/sign-in`, 303);
      // A form sent after the session ended: it is not carried out; sign-in is shown in its place,
      // keeping the form's page and its non-secret values (see return-to.ts).
      const page = formPageOf(request);
      const carry = { returnTo: page, restore: keptValues(page, request.body) };
      return sendPage(reply, signInPage(csrfToken(request, reply), {}, undefined, EXPIRED_NOTICE, carry), 401);
    });
    await signedIn.register(keyRoutes(deps));
    await signedIn.register(userRoutes(deps));
    await signedIn.register(companyRoutes(deps));
    await signedIn.register(emailTemplateRoutes(deps));
    await signedIn.register(reminderRoutes(deps));
    await signedIn.register(recordRoutes(deps));
    await signedIn.register(quoteRoutes(deps));
    await signedIn.register(sendingRoutes(deps));
    await signedIn.register(documentRoutes(deps));
    await signedIn.register(webhookRoutes(deps));
    await signedIn.register(testModeRoutes(deps));
    await signedIn.register(purchaseInvoiceRoutes(deps, { maxBytes: options.receiveMaxBytes ?? 20 * 1024 * 1024 }));
    await signedIn.register(accountRoutes(deps));
  });
}

/**
 * The web panel, at /panel on the same app as the API. It is encapsulated: its cookie, form and
 * CSRF plugins, HTML error pages and security headers apply to its routes only.
 */
export const panelPlugin: FastifyPluginAsync<PanelOptions> = async (app, options) => {
  app.get('/', { config: openAccess() }, async (_request, reply) => reply.redirect(PANEL_PATH, 302));
  // Browsers ask for /favicon.ico on their own, for every page of the host (the API's too).
  app.get(
    '/favicon.ico',
    {
      config: openAccess(),
      // A route's hooks run after the app's, which marks every answer no-store: the icon may be cached.
      onSend: (_request, reply, payload, done) => {
        if (reply.statusCode === 200) reply.header('cache-control', 'public, max-age=86400');
        done(null, payload);
      },
    },
    async (_request, reply) => reply.type('image/x-icon').send(FAVICON_ICO),
  );
  await app.register(panelScope, { ...options, prefix: PANEL_PATH });
};
