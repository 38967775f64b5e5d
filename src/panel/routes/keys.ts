import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { PERMISSION_NAMES } from '../../auth/permissions.js';
import {
  DEFAULT_ROLL_OVERLAP_HOURS,
  keyInputProblems,
  MAX_KEY_NAME_LENGTH,
  MAX_ROLL_OVERLAP_HOURS,
  type ApiKeySummary,
  type KeyActor,
} from '../../services/api-key-service.js';
import { isKeyStatus, searchKeys, type KeySearch } from '../../services/api-key-search.js';
import type { FieldErrors } from '../views/forms.js';
import { renamePage, revokeConfirmPage, rollPage } from '../views/key-changes.js';
import { keysPage, revealPage, type CreateKeyValues } from '../views/keys.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import type { PanelUser } from '../users.js';
import {
  asList,
  chromeFor,
  notFound,
  openAccess,
  requirePrivileged,
  sendPage,
  signedInUser,
  type PanelDeps,
} from '../context.js';
import { KEY_FORM_FIELDS, restoredValues, RESTORED_NOTICE } from '../return-to.js';

const CreateKeyBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    permissions: Type.Optional(
      Type.Union([Type.String({ maxLength: 100 }), Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50 })]),
    ),
    allPermissions: Type.Optional(Type.String({ maxLength: 10 })),
    expiresOn: Type.Optional(Type.String({ maxLength: 40 })),
    mode: Type.Optional(Type.String({ maxLength: 10 })),
  },
  { additionalProperties: false },
);
const RollBody = Type.Object(
  { _csrf: Type.Optional(Type.String()), overlapHours: Type.Optional(Type.String({ maxLength: 40 })) },
  { additionalProperties: false },
);
const RenameBody = Type.Object(
  { _csrf: Type.Optional(Type.String()), name: Type.Optional(Type.String({ maxLength: 1000 })) },
  { additionalProperties: false },
);
const KeyParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const KeysQuery = Type.Object({
  done: Type.Optional(Type.String({ maxLength: 40 })),
  q: Type.Optional(Type.String({ maxLength: MAX_KEY_NAME_LENGTH })),
  status: Type.Optional(Type.String({ maxLength: 20 })),
  mode: Type.Optional(Type.String({ maxLength: 20 })),
});

const NOTICES: Record<string, Notice> = {
  revoked: { kind: 'success', text: 'The key is revoked. Requests with it are refused from now on.' },
  renamed: { kind: 'success', text: 'The key is renamed.' },
  'not-rolled': { kind: 'error', text: 'That key cannot be rolled: it is revoked, expired or was rolled already.' },
  welcome: { kind: 'success', text: 'Your company and owner account are ready. Create the first API key below.' },
  'password-chosen': { kind: 'success', text: 'Your password is saved. Sign in with it from now on.' },
};

/** The form's "YYYY-MM-DD" -> the start of that day in UTC, or an error text; the service judges the day. */
function expiryFrom(raw: string): { ok: true; value: string | null } | { ok: false; error: string } {
  if (raw.trim() === '') return { ok: true, value: null };
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw.trim());
  const date = match ? new Date(`${raw.trim()}T00:00:00.000Z`) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== raw.trim()) {
    return { ok: false, error: 'Enter a date as YYYY-MM-DD.' };
  }
  return { ok: true, value: date.toISOString() };
}

/** The overlap field: whole or decimal hours from 0 to 168, or an error text. */
function overlapFrom(raw: string): { ok: true; value: number } | { ok: false; error: string } {
  const trimmed = raw.trim();
  const hours = /^\d{1,3}(\.\d{1,2})?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (Number.isNaN(hours) || hours > MAX_ROLL_OVERLAP_HOURS) {
    return { ok: false, error: `Enter a number of hours from 0 to ${MAX_ROLL_OVERLAP_HOURS} (7 days).` };
  }
  return { ok: true, value: hours };
}

function actorOf(user: PanelUser): KeyActor {
  return { userId: user.id, label: user.email };
}

/** Revoke and roll are offered for keys that still work; a rolled key is not rolled twice. */
function rollable(key: ApiKeySummary): boolean {
  return key.status === 'active' && key.replacedBy === null;
}

export function keyRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const { apiKeys, verifier } = deps.container;

    async function renderList(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: { values?: CreateKeyValues; errors?: FieldErrors; notice?: Notice; search?: KeySearch } = {},
      status = 200,
    ) {
      const user = signedInUser(request);
      const [keys, events, creators] = await Promise.all([
        apiKeys.list(user.companyId),
        deps.keyEvents.recent(user.companyId),
        deps.keyEvents.userEmails(user.companyId),
      ]);
      const search = extra.search ?? {};
      const model = { ...extra, keys: searchKeys(keys, search), allKeys: keys, search, events, creators };
      return sendPage(reply, keysPage(await chromeFor(request, reply, deps), model), status);
    }

    /** A key of the signed-in owner's or admin's company, or 404. */
    async function companyKey(
      request: FastifyRequest,
      keyId: string,
    ): Promise<{ user: PanelUser; key: ApiKeySummary }> {
      const user = requirePrivileged(request);
      const key = await apiKeys.find(user.companyId, keyId);
      if (!key) throw notFound();
      return { user, key };
    }

    app.get('/keys', { config: openAccess(), schema: { querystring: KeysQuery } }, async (request, reply) => {
      // Back from signing in again after the create form was sent too late: the typed values return.
      const restored = restoredValues(request.query, KEY_FORM_FIELDS);
      if (restored) {
        const values: CreateKeyValues = {
          name: String(restored.name ?? ''),
          permissions: asList(restored.permissions),
          allPermissions: restored.allPermissions === '1',
          expiresOn: String(restored.expiresOn ?? ''),
          mode: restored.mode === 'test' ? 'test' : 'live',
        };
        return renderList(request, reply, { values, notice: RESTORED_NOTICE });
      }
      const { q, status, mode } = request.query;
      const search: KeySearch = {
        ...(q ? { query: q } : {}),
        ...(isKeyStatus(status) ? { status } : {}),
        ...(mode === 'live' || mode === 'test' ? { mode } : {}),
      };
      return renderList(request, reply, { notice: NOTICES[request.query.done ?? ''], search });
    });

    app.post(
      '/keys',
      { config: openAccess(), schema: { body: CreateKeyBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = requirePrivileged(request);
        const now = new Date();
        const values: CreateKeyValues = {
          name: request.body.name ?? '',
          permissions: asList(request.body.permissions),
          allPermissions: request.body.allPermissions === '1',
          expiresOn: request.body.expiresOn ?? '',
          mode: request.body.mode ?? 'live',
        };
        // Every field is checked, so that one answer names every problem: the form's own (a day, a
        // mode from the list) here, the key's rules by the service, in its words, under their fields.
        const errors: FieldErrors = {};
        const name = values.name!.trim();
        // "All permissions" is the whole catalogue, whatever else was ticked (it works without JavaScript).
        const permissions = values.allPermissions ? PERMISSION_NAMES : values.permissions!;
        const expiry = expiryFrom(values.expiresOn!);
        if (!expiry.ok) errors.expiresOn = expiry.error;
        if (values.mode !== 'live' && values.mode !== 'test') errors.mode = 'Choose a live or a test key.';
        const refusal = keyInputProblems(
          { name, permissions: [...permissions], expiresAt: expiry.ok ? expiry.value : null },
          now,
        );
        for (const detail of refusal?.details ?? [])
          errors[detail.field === 'expiresAt' ? 'expiresOn' : detail.field] ??= detail.message;
        if (Object.keys(errors).length > 0 || !expiry.ok)
          return renderList(request, reply, { values, errors }, refusal?.status ?? 400);

        const mode = values.mode === 'test' ? 'test' : 'live';
        const result = await apiKeys.create(
          {
            companyId: user.companyId,
            name,
            permissions: [...permissions],
            expiresAt: expiry.value,
            createdBy: user.id,
            mode,
            actor: actorOf(user),
          },
          now,
        );
        if (!result.ok) return renderList(request, reply, { values, errors: { name: result.detail } }, 400);
        const key = result.value;
        request.log.info({ keyId: key.id, prefix: key.prefix }, 'api key created in the panel');
        // The secret never goes into a URL: it is sealed into this session and shown by the next page, once.
        await deps.sessions.holdForReveal(request.panelToken!, { keyId: key.id, key: key.key });
        return reply.redirect(`${PANEL_PATH}/keys/new`, 303);
      },
    );

    app.get('/keys/new', { config: openAccess() }, async (request, reply) => {
      const user = signedInUser(request);
      const held = await deps.sessions.takeReveal(request.panelToken!);
      const keys = held ? await apiKeys.list(user.companyId) : [];
      const summary = held ? keys.find((k) => k.id === held.keyId) : undefined;
      // A rolled key's successor is shown with what became of the key it replaces.
      const replaces = held ? keys.find((k) => k.replacedBy === held.keyId) : undefined;
      const revealed = held && summary ? { key: held.key, summary, ...(replaces ? { replaces } : {}) } : null;
      return sendPage(reply, revealPage(await chromeFor(request, reply, deps), revealed));
    });

    app.get('/keys/:id/revoke', { config: openAccess(), schema: { params: KeyParams } }, async (request, reply) => {
      const { key } = await companyKey(request, request.params.id);
      if (key.status !== 'active') return reply.redirect(`${PANEL_PATH}/keys`, 303);
      return sendPage(reply, revokeConfirmPage(await chromeFor(request, reply, deps), key));
    });

    app.post(
      '/keys/:id/revoke',
      { config: openAccess(), schema: { params: KeyParams }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = requirePrivileged(request);
        const now = new Date();
        const result = await apiKeys.revokeForCompany(user.companyId, request.params.id, now, actorOf(user));
        if (!result.ok) {
          if (result.reason === 'not_found') throw notFound();
          return reply.redirect(`${PANEL_PATH}/keys`, 303);
        }
        // This instance refuses the key at once; other instances within their key-cache TTL.
        verifier.forget(result.value.prefix);
        request.log.info({ keyId: result.value.id, prefix: result.value.prefix }, 'api key revoked in the panel');
        return reply.redirect(`${PANEL_PATH}/keys?done=revoked`, 303);
      },
    );

    app.get('/keys/:id/roll', { config: openAccess(), schema: { params: KeyParams } }, async (request, reply) => {
      const { key } = await companyKey(request, request.params.id);
      if (!rollable(key)) return reply.redirect(`${PANEL_PATH}/keys?done=not-rolled`, 303);
      return sendPage(
        reply,
        rollPage(await chromeFor(request, reply, deps), key, { overlapHours: String(DEFAULT_ROLL_OVERLAP_HOURS) }),
      );
    });

    app.post(
      '/keys/:id/roll',
      { config: openAccess(), schema: { params: KeyParams, body: RollBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const { user, key } = await companyKey(request, request.params.id);
        const values = { overlapHours: request.body.overlapHours ?? '' };
        const overlap = overlapFrom(values.overlapHours);
        if (!overlap.ok)
          return sendPage(
            reply,
            rollPage(await chromeFor(request, reply, deps), key, values, { overlapHours: overlap.error }),
            400,
          );
        const result = await apiKeys.roll(key.id, {
          overlapHours: overlap.value,
          actor: actorOf(user),
          companyId: user.companyId,
        });
        if (!result.ok) {
          if (result.reason === 'not_found') throw notFound();
          return reply.redirect(`${PANEL_PATH}/keys?done=not-rolled`, 303);
        }
        const { successor, previous } = result.value;
        // This instance sees the old key's new expiry at once; other instances within their key-cache TTL.
        verifier.forget(previous.prefix);
        request.log.info(
          { keyId: previous.id, successorId: successor.id, prefix: successor.prefix },
          'api key rolled in the panel',
        );
        await deps.sessions.holdForReveal(request.panelToken!, { keyId: successor.id, key: successor.key });
        return reply.redirect(`${PANEL_PATH}/keys/new`, 303);
      },
    );

    app.get('/keys/:id/rename', { config: openAccess(), schema: { params: KeyParams } }, async (request, reply) => {
      const { key } = await companyKey(request, request.params.id);
      return sendPage(reply, renamePage(await chromeFor(request, reply, deps), key, { name: key.name }));
    });

    app.post(
      '/keys/:id/rename',
      { config: openAccess(), schema: { params: KeyParams, body: RenameBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const { user, key } = await companyKey(request, request.params.id);
        const values = { name: request.body.name ?? '' };
        // The service judges the name; its words go under the field.
        const result = await apiKeys.rename(key.id, values.name, { actor: actorOf(user), companyId: user.companyId });
        if (!result.ok) {
          if (result.reason === 'not_found') throw notFound();
          return sendPage(
            reply,
            renamePage(await chromeFor(request, reply, deps), key, values, { name: result.detail }),
            400,
          );
        }
        return reply.redirect(`${PANEL_PATH}/keys?done=renamed`, 303);
      },
    );
  };
}
