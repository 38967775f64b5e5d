import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AttemptLimiter } from '../../rate-limit/attempt-limiter.js';
import { safePanelPath } from '../return-to.js';
import { accountPage, passwordRequiredPage } from '../views/account.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import {
  ACCOUNT_ATTEMPTS,
  chromeFor,
  csrfToken,
  openAccess,
  sendPage,
  signedInUser,
  tooManyAttempts,
  type PanelDeps,
} from '../context.js';

// The signed-in user's own account page, where anyone changes their own password; and the page
// where a user whose password someone else set must choose their own (plugin.ts lets such a
// session reach nothing else).

/** Where a user whose password was set by someone else is sent, whatever they asked for. */
export const PASSWORD_REQUIRED_PATH = `${PANEL_PATH}/change-password`;

/** The change-password page, keeping the page that was asked for (a panel page only) to go on to after. */
export function passwordRequiredAddress(returnTo: string | null | undefined): string {
  const page = safePanelPath(returnTo);
  return page && !page.startsWith(PASSWORD_REQUIRED_PATH)
    ? `${PASSWORD_REQUIRED_PATH}?return=${encodeURIComponent(page)}`
    : PASSWORD_REQUIRED_PATH;
}

const PasswordBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    username: Type.Optional(Type.String({ maxLength: 500 })),
    currentPassword: Type.Optional(Type.String({ maxLength: 1000 })),
    newPassword: Type.Optional(Type.String({ maxLength: 1000 })),
    newPasswordConfirm: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const RequiredQuery = Type.Object({ return: Type.Optional(Type.String({ maxLength: 2000 })) });
const RequiredBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    return: Type.Optional(Type.String({ maxLength: 2000 })),
    username: Type.Optional(Type.String({ maxLength: 500 })),
    newPassword: Type.Optional(Type.String({ maxLength: 1000 })),
    newPasswordConfirm: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);

const NOTICES: Record<string, Notice> = {
  password: { kind: 'success', text: 'Your password is changed. Every other session of your account is signed out.' },
};

export function accountRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const limits = deps.signInLimits;
    // Guessing the current password from a hijacked session is guessing a sign-in: the same
    // per-address limit, and failures share the account's sign-in budget.
    const accountAttempts = new AttemptLimiter(deps.rateLimitStore, {
      name: ACCOUNT_ATTEMPTS,
      limit: limits.failuresPerAccount,
      windowMs: limits.windowMs,
    });
    const tooMany = (resetAt: number) => tooManyAttempts(resetAt, 'Too many password attempts');

    app.get('/account', { config: openAccess(), schema: { querystring: DoneQuery } }, async (request, reply) =>
      sendPage(
        reply,
        accountPage(await chromeFor(request, reply, deps), { notice: NOTICES[request.query.done ?? ''] }),
      ),
    );

    app.get(
      '/change-password',
      { config: openAccess(), schema: { querystring: RequiredQuery } },
      async (request, reply) => {
        const user = signedInUser(request);
        if (!user.mustChangePassword)
          return reply.redirect(safePanelPath(request.query.return) ?? `${PANEL_PATH}/account`, 303);
        return sendPage(
          reply,
          passwordRequiredPage(csrfToken(request, reply), user, {
            returnTo: safePanelPath(request.query.return) ?? undefined,
          }),
        );
      },
    );

    app.post(
      '/change-password',
      { config: openAccess(), schema: { body: RequiredBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = signedInUser(request);
        const returnTo = safePanelPath(request.body.return) ?? undefined;
        const input = { next: request.body.newPassword ?? '', confirm: request.body.newPasswordConfirm ?? '' };
        const result = user.mustChangePassword
          ? await deps.users.replaceGivenPassword(user.id, input, request.panelSession!.id)
          : null;
        // Nothing to change (done already, in another tab): on to the page, as after a change.
        if (result === null || (!result.ok && result.problems.length === 0))
          return reply.redirect(returnTo ?? `${PANEL_PATH}/account`, 303);
        if (!result.ok) {
          const errors: FieldErrors = {};
          for (const p of result.problems) errors[p.field] ??= p.detail;
          return sendPage(reply, passwordRequiredPage(csrfToken(request, reply), user, { errors, returnTo }), 400);
        }
        request.log.info(
          { audit: 'password_chosen', userId: user.id, companyId: user.companyId, sessionsEnded: result.sessionsEnded },
          'panel user replaced the password they were given',
        );
        return reply.redirect(returnTo ?? `${PANEL_PATH}/keys?done=password-chosen`, 303);
      },
    );

    app.post(
      '/account/password',
      { config: openAccess(), schema: { body: PasswordBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = signedInUser(request);
        const perAddress = await deps.rateLimitStore.increment(`panel-password:ip:${request.ip}`, limits.windowMs);
        if (perAddress.count > limits.attemptsPerAddress) throw tooMany(perAddress.resetAt);
        const attempt = await accountAttempts.begin(user.email);
        if ('kind' in attempt) throw tooMany(attempt.resetAt);
        const input = {
          current: request.body.currentPassword ?? '',
          next: request.body.newPassword ?? '',
          confirm: request.body.newPasswordConfirm ?? '',
        };
        let result;
        try {
          result = await deps.users.changePassword(user.id, input, request.panelSession!.id);
        } catch (error) {
          await attempt.abandoned();
          throw error;
        }
        if (!result.ok) {
          if (result.currentWrong && input.current !== '') {
            const outcome = await attempt.failed();
            if (outcome.kind === 'over') throw tooMany(outcome.resetAt);
            request.log.info({ userId: user.id, reason: 'wrong current password' }, 'panel password change refused');
          } else {
            await attempt.succeeded();
          }
          const errors: FieldErrors = {};
          for (const p of result.problems) errors[p.field] ??= p.detail;
          return sendPage(reply, accountPage(await chromeFor(request, reply, deps), { errors }), 400);
        }
        await attempt.succeeded();
        // The audit trail of accounts is the log: who, which company, how many sessions ended.
        request.log.info(
          {
            audit: 'password_changed',
            userId: user.id,
            companyId: user.companyId,
            sessionsEnded: result.sessionsEnded,
          },
          'panel user changed their password',
        );
        return reply.redirect(`${PANEL_PATH}/account?done=password`, 303);
      },
    );
  };
}
