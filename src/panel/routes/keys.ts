import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { isPermission } from '../../auth/permissions.js';
import type { FieldErrors } from '../views/forms.js';
import { keysPage, revealPage, revokeConfirmPage, type CreateKeyValues } from '../views/keys.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import { asList, chromeFor, notFound, openAccess, requirePrivileged, sendPage, signedInUser, type PanelDeps } from '../context.js';

const CreateKeyBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    permissions: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })])),
    expiresOn: Type.Optional(Type.String({ maxLength: 40 })),
    mode: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
);
const KeyParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const KeysQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

const NOTICES: Record<string, Notice> = {
  revoked: { kind: 'success', text: 'The key is revoked. Requests with it are refused from now on.' },
  welcome: { kind: 'success', text: 'Your company and owner account are ready. Create the first API key below.' },
};

/** "YYYY-MM-DD" -> the start of that day in UTC, or an error text. */
function expiryFrom(raw: string, now: Date): { ok: true; value: string | null } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: null };
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
  const date = match ? new Date(`${raw.trim()}T00:00:00.000Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw.trim()) {
    return { ok: false, error: 'Enter a date as YYYY-MM-DD.' };
  }
  if (date.getTime() <= now.getTime()) return { ok: false, error: 'Choose a day in the future.' };
  return { ok: true, value: date.toISOString() };
}

export function keyRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const { apiKeys, verifier } = deps.container;

    async function renderList(request: FastifyRequest, reply: FastifyReply, extra: { values?: CreateKeyValues; errors?: FieldErrors; notice?: Notice } = {}, status = 200) {
      const user = signedInUser(request);
      const [keys, events, creators] = await Promise.all([
        apiKeys.list(user.companyId),
        deps.keyEvents.recent(user.companyId),
        deps.keyEvents.userEmails(user.companyId),
      ]);
      return sendPage(reply, keysPage(await chromeFor(request, reply, deps), { keys, events, creators, ...extra }), status);
    }

    app.get('/keys', { config: openAccess(), schema: { querystring: KeysQuery } }, async (request, reply) =>
      renderList(request, reply, { notice: NOTICES[request.query.done ?? ''] }),
    );

    app.post('/keys', { config: openAccess(), schema: { body: CreateKeyBody }, preHandler: scope.csrfProtection }, async (request, reply) => {
      const user = requirePrivileged(request);
      const now = new Date();
      const values: CreateKeyValues = {
        name: request.body.name ?? '',
        permissions: asList(request.body.permissions),
        expiresOn: request.body.expiresOn ?? '',
        mode: request.body.mode ?? 'live',
      };
      const errors: FieldErrors = {};
      const name = values.name!.trim();
      if (name === '') errors.name = 'Give the key a name.';
      else if (name.length > 200) errors.name = 'Use at most 200 characters.';
      if (values.permissions!.length === 0) errors.permissions = 'Choose at least one permission.';
      else if (!values.permissions!.every(isPermission)) errors.permissions = 'Choose permissions from the list.';
      const expiry = expiryFrom(values.expiresOn!, now);
      if (!expiry.ok) errors.expiresOn = expiry.error;
      if (values.mode !== 'live' && values.mode !== 'test') errors.mode = 'Choose a live or a test key.';
      if (Object.keys(errors).length > 0 || !expiry.ok) return renderList(request, reply, { values, errors }, 400);

      const mode = values.mode === 'test' ? 'test' : 'live';
      const result = await apiKeys.create({ companyId: user.companyId, name, permissions: values.permissions!, expiresAt: expiry.value, createdBy: user.id, mode }, now);
      if (!result.ok) return renderList(request, reply, { values, errors: { name: result.detail } }, 400);
      const key = result.value;
      await deps.keyEvents.record(user, 'create', key, now);
      request.log.info({ keyId: key.id, prefix: key.prefix }, 'api key created in the panel');
      // The secret never goes into a URL: it is sealed into this session and shown by the next page, once.
      await deps.sessions.holdForReveal(request.panelToken!, { keyId: key.id, key: key.key });
      return reply.redirect(`${PANEL_PATH}/keys/new`, 303);
    });

    app.get('/keys/new', { config: openAccess() }, async (request, reply) => {
      const user = signedInUser(request);
      const held = await deps.sessions.takeReveal(request.panelToken!);
      const summary = held ? (await apiKeys.list(user.companyId)).find((k) => k.id === held.keyId) : undefined;
      const revealed = held && summary ? { key: held.key, summary } : null;
      return sendPage(reply, revealPage(await chromeFor(request, reply, deps), revealed));
    });

    app.get('/keys/:id/revoke', { config: openAccess(), schema: { params: KeyParams } }, async (request, reply) => {
      const user = requirePrivileged(request);
      const key = (await apiKeys.list(user.companyId)).find((k) => k.id === request.params.id);
      if (!key) throw notFound();
      if (key.status === 'revoked') return reply.redirect(`${PANEL_PATH}/keys`, 303);
      return sendPage(reply, revokeConfirmPage(await chromeFor(request, reply, deps), key));
    });

    app.post('/keys/:id/revoke', { config: openAccess(), schema: { params: KeyParams }, preHandler: scope.csrfProtection }, async (request, reply) => {
      const user = requirePrivileged(request);
      const now = new Date();
      const result = await apiKeys.revokeForCompany(user.companyId, request.params.id, now);
      if (!result.ok) {
        if (result.reason === 'not_found') throw notFound();
        return reply.redirect(`${PANEL_PATH}/keys`, 303);
      }
      // This instance refuses the key at once; other instances within their key-cache TTL.
      verifier.forget(result.value.prefix);
      await deps.keyEvents.record(user, 'revoke', result.value, now);
      request.log.info({ keyId: result.value.id, prefix: result.value.prefix }, 'api key revoked in the panel');
      return reply.redirect(`${PANEL_PATH}/keys?done=revoked`, 303);
    });
  };
}
