import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AttemptLimiter } from '../../rate-limit/attempt-limiter.js';
import { accountPage } from '../views/account.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import { ACCOUNT_ATTEMPTS, chromeFor, openAccess, sendPage, signedInUser, tooManyAttempts, type PanelDeps } from '../context.js';

// The signed-in user's own account page, where anyone changes their own password.

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

const NOTICES: Record<string, Notice> = {
  password: { kind: 'success', text: 'Your password is changed. Every other session of your account is signed out.' },
};

export function accountRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const limits = deps.signInLimits;
    // Guessing the current password from a hijacked session is guessing a sign-in: the same
    // per-address limit, and failures share the account's sign-in budget.
    const accountAttempts = new AttemptLimiter(deps.rateLimitStore, { name: ACCOUNT_ATTEMPTS, limit: limits.failuresPerAccount, windowMs: limits.windowMs });
    const tooMany = (resetAt: number) => tooManyAttempts(resetAt, 'Too many password attempts');

    app.get('/account', { config: openAccess(), schema: { querystring: DoneQuery } }, async (request, reply) =>
      sendPage(reply, accountPage(await chromeFor(request, reply, deps), { notice: NOTICES[request.query.done ?? ''] })),
    );

    app.post('/account/password', { config: openAccess(), schema: { body: PasswordBody }, preHandler: scope.csrfProtection }, async (request, reply) => {
      const user = signedInUser(request);
      const perAddress = await deps.rateLimitStore.increment(`panel-password:ip:${request.ip}`, limits.windowMs);
      if (perAddress.count > limits.attemptsPerAddress) throw tooMany(perAddress.resetAt);
      const attempt = await accountAttempts.begin(user.email);
      if ('kind' in attempt) throw tooMany(attempt.resetAt);
      const input = { current: request.body.currentPassword ?? '', next: request.body.newPassword ?? '', confirm: request.body.newPasswordConfirm ?? '' };
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
      request.log.info({ audit: 'password_changed', userId: user.id, companyId: user.companyId, sessionsEnded: result.sessionsEnded }, 'panel user changed their password');
      return reply.redirect(`${PANEL_PATH}/account?done=password`, 303);
    });
  };
}
