import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { toAppError } from '../../http/error-handler.js';
import { isRole, userInputProblems, type ChangeUserResult } from '../users.js';
import { restoredValues, RESTORED_NOTICE } from '../return-to.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import { grantableRoles, usersPage, type UsersPageModel } from '../views/users.js';
import {
  chromeFor,
  forbidden,
  notFound,
  openAccess,
  requirePrivileged,
  sendPage,
  signedInUser,
  type PanelDeps,
} from '../context.js';

const CreateUserBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    email: Type.Optional(Type.String({ maxLength: 500 })),
    role: Type.Optional(Type.String({ maxLength: 40 })),
    password: Type.Optional(Type.String({ maxLength: 1000 })),
  },
  { additionalProperties: false },
);
const RoleBody = Type.Object(
  { _csrf: Type.Optional(Type.String()), role: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);
const CsrfOnlyBody = Type.Object({ _csrf: Type.Optional(Type.String()) }, { additionalProperties: false });
const UserParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const UsersQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

const NOTICES: Record<string, Notice> = {
  created: {
    kind: 'success',
    text: 'The user is added. They sign in with the password you set and must then choose their own.',
  },
  role: { kind: 'success', text: 'The role is changed.' },
  deactivated: { kind: 'success', text: 'The user is deactivated and signed out everywhere.' },
  activated: { kind: 'success', text: 'The user is active again.' },
};

export function userRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    async function render(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: Omit<UsersPageModel, 'users'> = {},
      status = 200,
    ) {
      const user = signedInUser(request);
      const users = await deps.users.listByCompany(user.companyId);
      return sendPage(reply, usersPage(await chromeFor(request, reply, deps), { users, ...extra }), status);
    }

    async function afterChange(request: FastifyRequest, reply: FastifyReply, result: ChangeUserResult, done: string) {
      if (result.ok) return reply.redirect(`${PANEL_PATH}/users?done=${done}`, 303);
      if (result.reason === 'not_found') throw notFound();
      // The service's code gives the status from the one table: one's own role and activity are
      // not one's own to change (FORBIDDEN), the last owner is a state of the company (LAST_OWNER).
      const { status } = toAppError(result.error);
      return render(request, reply, { notice: { kind: 'error', text: result.detail } }, status);
    }

    app.get('/users', { config: openAccess(), schema: { querystring: UsersQuery } }, async (request, reply) => {
      // Back from signing in again after a form was sent too late: the typed values return.
      const restored = restoredValues(request.query, ['email', 'role']);
      if (restored) {
        const values = { email: String(restored.email ?? ''), role: String(restored.role ?? 'member') };
        return render(request, reply, { values, notice: RESTORED_NOTICE });
      }
      return render(request, reply, { notice: NOTICES[request.query.done ?? ''] });
    });

    app.post(
      '/users',
      { config: openAccess(), schema: { body: CreateUserBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const actor = requirePrivileged(request);
        const values = { email: request.body.email ?? '', role: request.body.role ?? 'member' };
        const password = request.body.password ?? '';
        if (isRole(values.role) && !grantableRoles(actor).includes(values.role)) throw forbidden();
        // Every problem of the form in one answer, each under its field.
        const errors: FieldErrors = {};
        for (const p of userInputProblems({ email: values.email, role: values.role, password }))
          errors[p.field] = p.field === 'role' ? 'Choose a role from the list.' : p.detail;
        if (Object.keys(errors).length > 0 || !isRole(values.role))
          return render(request, reply, { values, errors }, 400);
        // The actor chose this password, so the new user must replace it at first sign-in.
        const result = await deps.users.create({
          companyId: actor.companyId,
          email: values.email,
          role: values.role,
          password,
          mustChangePassword: true,
        });
        if (!result.ok) {
          for (const p of result.problems) errors[p.field] = p.detail;
          // The form again with every problem under its field, at the status the error table gives
          // the service's code (EMAIL_CONFLICT is a 409, VALIDATION_ERROR a 400).
          return render(request, reply, { values, errors }, toAppError(result.error).status);
        }
        request.log.info({ userId: result.value.id, role: result.value.role }, 'panel user created');
        return reply.redirect(`${PANEL_PATH}/users?done=created`, 303);
      },
    );

    app.post(
      '/users/:id/role',
      { config: openAccess(), schema: { params: UserParams, body: RoleBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const actor = requirePrivileged(request);
        const role = request.body.role;
        if (!isRole(role))
          return render(request, reply, { notice: { kind: 'error', text: 'Choose owner, admin or member.' } }, 400);
        return afterChange(request, reply, await deps.users.changeRole(actor, request.params.id, role), 'role');
      },
    );

    app.post(
      '/users/:id/deactivate',
      { config: openAccess(), schema: { params: UserParams, body: CsrfOnlyBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const actor = requirePrivileged(request);
        return afterChange(request, reply, await deps.users.setActive(actor, request.params.id, false), 'deactivated');
      },
    );

    app.post(
      '/users/:id/activate',
      { config: openAccess(), schema: { params: UserParams, body: CsrfOnlyBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const actor = requirePrivileged(request);
        return afterChange(request, reply, await deps.users.setActive(actor, request.params.id, true), 'activated');
      },
    );
  };
}
