import { Type } from '@sinclair/typebox';
import { AttemptLimiter } from '../../rate-limit/attempt-limiter.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { afterSignIn, EXPIRED_NOTICE, MAX_RESTORE_LENGTH, safePanelPath } from '../return-to.js';
import { passwordRequiredAddress } from './account.js';
import { SESSION_TTL_MS } from '../sessions.js';
import { setupProblems, type SetupProblem } from '../setup.js';
import { normalizeEmail } from '../users.js';
import { setupInvalidPage, setupPage, signInPage } from '../views/auth.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH } from '../views/layout.js';
import {
  ACCOUNT_ATTEMPTS,
  cookieOptions,
  csrfToken,
  openAccess,
  sendPage,
  SESSION_COOKIE,
  SIGNED_IN_COOKIE,
  tooManyAttempts,
  type PanelDeps,
} from '../context.js';

const SignInBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    email: Type.Optional(Type.String({ maxLength: 500 })),
    password: Type.Optional(Type.String({ maxLength: 1000 })),
    return: Type.Optional(Type.String({ maxLength: 2000 })),
    restore: Type.Optional(Type.String({ maxLength: MAX_RESTORE_LENGTH })),
  },
  { additionalProperties: false },
);
const SetupQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });
const SetupBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    token: Type.Optional(Type.String({ maxLength: 200 })),
    companyName: Type.Optional(Type.String({ maxLength: 1000 })),
    currency: Type.Optional(Type.String({ maxLength: 100 })),
    email: Type.Optional(Type.String({ maxLength: 500 })),
    password: Type.Optional(Type.String({ maxLength: 1000 })),
    passwordConfirm: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
const SignInQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  return: Type.Optional(Type.String({ maxLength: 2000 })),
  expired: Type.Optional(Type.String({ maxLength: 10 })),
});

function setupErrors(problems: SetupProblem[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const p of problems) errors[p.field === 'company' ? 'companyName' : p.field] ??= p.detail;
  return errors;
}

/** How long the signed-in marker tells an expired session from a first visit. */
const SIGNED_IN_MARKER_MS = 30 * 24 * 60 * 60 * 1000;

async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  deps: PanelDeps,
  userId: string,
): Promise<void> {
  const { token } = await deps.sessions.create(userId);
  // The session cookie lives exactly as long as the session: no token outlives it in a browser.
  reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: Math.floor(SESSION_TTL_MS / 1000) });
  reply.setCookie(SIGNED_IN_COOKIE, '1', { ...cookieOptions(request), maxAge: Math.floor(SIGNED_IN_MARKER_MS / 1000) });
}

/** First-run setup, sign-in and sign-out: the pages that work without a session. */
export function authRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const limits = deps.signInLimits;
    const accountAttempts = new AttemptLimiter(deps.rateLimitStore, {
      name: ACCOUNT_ATTEMPTS,
      limit: limits.failuresPerAccount,
      windowMs: limits.windowMs,
    });

    app.get('/setup', { config: openAccess(), schema: { querystring: SetupQuery } }, async (request, reply) => {
      const token = request.query.token ?? '';
      if (!(await deps.setup.isValid(token))) return sendPage(reply, setupInvalidPage(csrfToken(request, reply)), 404);
      return sendPage(reply, setupPage(csrfToken(request, reply), token, {}));
    });

    app.post(
      '/setup',
      { config: openAccess(), schema: { body: SetupBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const body = request.body;
        const token = body.token ?? '';
        const values = {
          companyName: body.companyName ?? '',
          currency: body.currency ?? 'EUR',
          email: body.email ?? '',
        };
        const password = body.password ?? '';
        if (!(await deps.setup.isValid(token)))
          return sendPage(reply, setupInvalidPage(csrfToken(request, reply)), 404);
        // Every problem of the form in one answer, each under its field.
        const errors = setupErrors(setupProblems({ ...values, password }));
        if (password !== (body.passwordConfirm ?? '')) errors.passwordConfirm = 'The two passwords differ.';
        if (Object.keys(errors).length > 0)
          return sendPage(reply, setupPage(csrfToken(request, reply), token, values, errors), 400);
        const result = await deps.setup.claim({ token, ...values, password });
        if (!result.ok) {
          if (result.reason === 'invalid_token')
            return sendPage(reply, setupInvalidPage(csrfToken(request, reply)), 404);
          return sendPage(
            reply,
            setupPage(csrfToken(request, reply), token, values, setupErrors(result.problems)),
            400,
          );
        }
        request.log.info(
          { userId: result.user.id, companyId: result.user.companyId },
          'instance claimed through first-run setup',
        );
        await startSession(request, reply, deps, result.user.id);
        return reply.redirect(`${PANEL_PATH}/keys?done=welcome`, 303);
      },
    );

    app.get('/sign-in', { config: openAccess(), schema: { querystring: SignInQuery } }, async (request, reply) => {
      const returnTo = safePanelPath(request.query.return) ?? undefined;
      if (request.panelSession) return reply.redirect(returnTo ?? `${PANEL_PATH}/keys`, 303);
      const unclaimed = (await deps.users.countUsers()) === 0;
      const message = unclaimed
        ? {
            kind: 'info' as const,
            text: 'This instance has no users yet. Open the one-time setup link the server printed when it started.',
          }
        : request.query.done === 'signed-out'
          ? { kind: 'success' as const, text: 'You are signed out.' }
          : request.query.expired === '1'
            ? EXPIRED_NOTICE
            : undefined;
      return sendPage(reply, signInPage(csrfToken(request, reply), {}, undefined, message, { returnTo }));
    });

    app.post(
      '/sign-in',
      { config: openAccess(), schema: { body: SignInBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const email = normalizeEmail(request.body.email ?? '');
        const password = request.body.password ?? '';
        const carry = { returnTo: safePanelPath(request.body.return) ?? undefined, restore: request.body.restore };
        const tooMany = (resetAt: number) => tooManyAttempts(resetAt);
        // Every attempt counts against the address, atomically. Failures count against the account:
        // an attempt reserves its slot before the password is hashed (see attempt-limiter.ts), so
        // of N parallel wrong passwords exactly the limit are checked and answered 401.
        const perAddress = await deps.rateLimitStore.increment(`panel-sign-in:ip:${request.ip}`, limits.windowMs);
        if (perAddress.count > limits.attemptsPerAddress) throw tooMany(perAddress.resetAt);
        const errors: FieldErrors = {};
        if (email === '') errors.email = 'Enter your email address.';
        if (password === '') errors.password = 'Enter your password.';
        if (errors.email || errors.password)
          return sendPage(reply, signInPage(csrfToken(request, reply), { email }, errors, undefined, carry), 401);
        const attempt = await accountAttempts.begin(email);
        if ('kind' in attempt) throw tooMany(attempt.resetAt);
        let user;
        try {
          user = await deps.users.authenticate(email, password);
        } catch (error) {
          await attempt.abandoned();
          throw error;
        }
        if (!user) {
          const outcome = await attempt.failed();
          if (outcome.kind === 'over') throw tooMany(outcome.resetAt);
          request.log.info({ reason: 'bad credentials' }, 'panel sign-in refused');
          return sendPage(
            reply,
            signInPage(
              csrfToken(request, reply),
              { email },
              { password: 'The email or password is not right.' },
              undefined,
              carry,
            ),
            401,
          );
        }
        await attempt.succeeded();
        if (request.panelToken) await deps.sessions.destroy(request.panelToken);
        await startSession(request, reply, deps, user.id);
        // A password someone else set is replaced before anything else (see plugin.ts).
        if (user.mustChangePassword) return reply.redirect(passwordRequiredAddress(carry.returnTo), 303);
        return reply.redirect(afterSignIn(carry.returnTo, carry.restore) ?? `${PANEL_PATH}/keys`, 303);
      },
    );

    app.post('/sign-out', { config: openAccess(), preHandler: scope.csrfProtection }, async (request, reply) => {
      if (request.panelToken) await deps.sessions.destroy(request.panelToken);
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
      reply.clearCookie(SIGNED_IN_COOKIE, cookieOptions(request));
      return reply.redirect(`${PANEL_PATH}/sign-in?done=signed-out`, 303);
    });
  };
}
