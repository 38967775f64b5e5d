import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { resetTestData } from '../../services/test-data.js';
import {
  chromeFor,
  cookieOptions,
  forbidden,
  MODE_COOKIE,
  openAccess,
  requirePrivileged,
  sendPage,
  signedInUser,
  type PanelDeps,
} from '../context.js';
import { testDataPage } from '../views/test-data.js';
import { PANEL_PATH } from '../views/layout.js';
import { safePanelPath } from '../return-to.js';

// The live/test switch, and deleting a company's test data (owners and admins).

const ModeBody = Type.Object({
  _csrf: Type.Optional(Type.String()),
  mode: Type.Union([Type.Literal('live'), Type.Literal('test')]),
  return: Type.Optional(Type.String({ maxLength: 2000 })),
});
const ResetBody = Type.Object({
  _csrf: Type.Optional(Type.String()),
  confirm: Type.Optional(Type.String({ maxLength: 20 })),
});
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });

/** Back to a panel page only: never to another site (an open redirect), never into the API. */
function safeReturn(path: string | undefined): string {
  return safePanelPath(path) ?? PANEL_PATH;
}

export function testModeRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();

    app.post(
      '/mode',
      { config: openAccess(), schema: { body: ModeBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        signedInUser(request);
        if (request.body.mode === 'test') reply.setCookie(MODE_COOKIE, 'test', cookieOptions(request));
        else reply.clearCookie(MODE_COOKIE, cookieOptions(request));
        return reply.redirect(safeReturn(request.body.return), 303);
      },
    );

    app.get('/test-data', { config: openAccess(), schema: { querystring: DoneQuery } }, async (request, reply) =>
      sendPage(reply, testDataPage(await chromeFor(request, reply, deps), { done: request.query.done === 'reset' })),
    );

    app.post(
      '/test-data/reset',
      { config: openAccess(), schema: { body: ResetBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = requirePrivileged(
          request,
          forbidden('Your role does not allow this. Owners and admins delete test data.'),
        );
        if (request.body.confirm !== 'DELETE') {
          return sendPage(
            reply,
            testDataPage(await chromeFor(request, reply, deps), { error: 'Type DELETE to confirm.' }),
            400,
          );
        }
        const deleted = await resetTestData(deps.container.repositories.testData, user.companyId);
        request.log.info({ companyId: user.companyId, deleted }, 'test data deleted in the panel');
        return reply.redirect(`${PANEL_PATH}/test-data?done=reset`, 303);
      },
    );
  };
}
