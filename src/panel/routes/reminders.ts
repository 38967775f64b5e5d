import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError } from '../../errors/app-error.js';
import { EMAIL_LANGUAGES, type EmailLanguage } from '../../schemas/email-delivery.js';
import { MAX_REMINDER_LEVELS, PAUSE_REASONS, type ReminderPolicyInput } from '../../schemas/reminder.js';
import { chromeFor, forbidden, notFound, openAccess, sendPage, signedInUser, type PanelDeps } from '../context.js';
import { panelScope } from '../mode.js';
import { roleAllows } from '../users.js';
import type { FieldErrors } from '../views/forms.js';
import { PANEL_PATH, type Notice } from '../views/layout.js';
import {
  policyFormValues,
  reminderPolicyPage,
  REMINDERS_PATH,
  type PolicyFormValues,
} from '../views/reminder-policy.js';

// Reminders in the panel: the company's policy with a preview of each level's message (the
// service of GET, PUT /company/reminder-policy and its preview), and an issued invoice's pause
// and resume (the service of POST /invoice/{id}/reminders/pause and /resume). Owners and admins
// change them (their role allows company.update and invoice.update); every role reads.

const LEVEL_FIELDS = Object.fromEntries(
  Array.from({ length: MAX_REMINDER_LEVELS }, (_, i) => [
    [`days${i}`, Type.Optional(Type.String({ maxLength: 20 }))],
    [`fee${i}`, Type.Optional(Type.String({ maxLength: 20 }))],
    [`interest${i}`, Type.Optional(Type.String({ maxLength: 20 }))],
  ]).flat(),
);
const PolicyBody = Type.Object(
  { _csrf: Type.Optional(Type.String()), enabled: Type.Optional(Type.Literal('on')), ...LEVEL_FIELDS },
  { additionalProperties: false },
);
const PolicyQuery = Type.Object({
  language: Type.Optional(Type.String({ maxLength: 10 })),
  done: Type.Optional(Type.String({ maxLength: 20 })),
});
const IdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const PauseBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    action: Type.Union([Type.Literal('pause'), Type.Literal('resume')]),
    reason: Type.Optional(Type.Union(PAUSE_REASONS.map((r) => Type.Literal(r)))),
    note: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

const SAVED: Notice = { kind: 'success', text: 'The reminder policy is saved. The next pass applies it.' };
const DAYS = /^-?\d{1,3}$/;
const FEE = /^\d{1,3}(?:\.\d{1,2})?$/;
const RATE = /^\d{1,2}(?:\.\d{1,4})?$/;

/** The form's rows as the API's body; rows without days are no level. Field errors name the row's inputs. */
export function readPolicyForm(
  body: Record<string, string | undefined>,
): { ok: true; input: ReminderPolicyInput; rows: number[] } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const input: ReminderPolicyInput = { enabled: body.enabled === 'on', levels: [] };
  const rows: number[] = [];
  for (let i = 0; i < MAX_REMINDER_LEVELS; i++) {
    const days = (body[`days${i}`] ?? '').trim().replace('−', '-');
    const fee = (body[`fee${i}`] ?? '').trim().replace(',', '.');
    const rate = (body[`interest${i}`] ?? '').trim().replace(',', '.');
    if (days === '') {
      if (fee !== '' || rate !== '') errors[`days${i}`] = 'Enter the days from the due date, or empty the row.';
      continue;
    }
    if (!DAYS.test(days) || Number(days) < -30 || Number(days) > 365)
      errors[`days${i}`] = 'A whole number of days from −30 to 365.';
    if (fee !== '' && !FEE.test(fee)) errors[`fee${i}`] = 'An amount such as 5.00 (at most 999.99).';
    if (rate !== '' && !RATE.test(rate)) errors[`interest${i}`] = 'A rate such as 11.27 (percent a year).';
    input.levels.push({
      days: Number(days),
      ...(fee !== '' ? { fee } : {}),
      ...(rate !== '' ? { interestRatePercent: rate } : {}),
    });
    rows.push(i);
  }
  if (input.levels.length === 0 && Object.keys(errors).length === 0)
    errors.days0 = 'A policy has at least one level. To send no reminders, untick "Send reminders".';
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, input, rows };
}

/** The service's refusal details (levels[n].fee, …) on the form's inputs of the row they came from. */
function errorsOf(details: { field?: string; message: string }[], rows: number[]): FieldErrors {
  const errors: FieldErrors = {};
  const names = { days: 'days', fee: 'fee', interestRatePercent: 'interest' } as const;
  for (const d of details) {
    const m = /^levels\[(\d+)\]\.(days|fee|interestRatePercent)$/.exec(d.field ?? '');
    const row = m ? rows[Number(m[1])] : undefined;
    const key = m && row !== undefined ? `${names[m[2] as keyof typeof names]}${row}` : 'policy';
    errors[key] ??= d.message;
  }
  return errors;
}

export function reminderRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const reminders = deps.container.reminders;

    async function render(
      request: FastifyRequest,
      reply: FastifyReply,
      language: EmailLanguage,
      extra: { values?: PolicyFormValues; errors?: FieldErrors; notice?: Notice | undefined } = {},
      status = 200,
    ) {
      const user = signedInUser(request);
      const [policy, preview] = await Promise.all([
        reminders.getPolicy(user.companyId),
        reminders.preview(user.companyId, language),
      ]);
      const page = reminderPolicyPage(await chromeFor(request, reply, deps), {
        policy,
        values: extra.values ?? policyFormValues(policy),
        mayEdit: roleAllows(user.role, 'company.update'),
        language,
        preview,
        ...(extra.errors ? { errors: extra.errors } : {}),
        ...(extra.notice ? { notice: extra.notice } : {}),
      });
      return sendPage(reply, page, status);
    }

    const languageOf = (text: string | undefined): EmailLanguage =>
      (EMAIL_LANGUAGES as readonly string[]).includes(text ?? '') ? (text as EmailLanguage) : 'en';

    app.get('/company/reminders', { config: openAccess(), schema: { querystring: PolicyQuery } }, (request, reply) =>
      render(request, reply, languageOf(request.query.language), {
        notice: request.query.done === 'saved' ? SAVED : undefined,
      }),
    );

    app.post(
      '/company/reminders',
      { config: openAccess(), schema: { body: PolicyBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = signedInUser(request);
        if (!roleAllows(user.role, 'company.update'))
          throw forbidden('Your role does not allow this. Owners and admins change the reminder policy.');
        const body = request.body as Record<string, string | undefined>;
        const typed: PolicyFormValues = {
          enabled: body.enabled === 'on',
          levels: Array.from({ length: MAX_REMINDER_LEVELS }, (_, i) => ({
            days: body[`days${i}`] ?? '',
            fee: body[`fee${i}`] ?? '',
            interestRatePercent: body[`interest${i}`] ?? '',
          })),
        };
        const read = readPolicyForm(body);
        if (!read.ok) return render(request, reply, 'en', { values: typed, errors: read.errors }, 400);
        const result = await reminders.setPolicy(
          user.companyId,
          read.input,
          { userId: user.id, label: user.email },
          new Date(),
        );
        if (!result.ok)
          return render(request, reply, 'en', { values: typed, errors: errorsOf(result.details, read.rows) }, 400);
        return reply.redirect(`${REMINDERS_PATH}?done=saved`, 303);
      },
    );

    app.post(
      '/invoices/:id/reminders',
      { config: openAccess(), schema: { params: IdParams, body: PauseBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = signedInUser(request);
        if (!roleAllows(user.role, 'invoice.update'))
          throw forbidden('Your role does not allow this. Owners and admins pause and resume reminders.');
        const { action, reason, note } = request.body;
        const input = action === 'pause' ? { reason: reason ?? 'paused', ...(note ? { note } : {}) } : null;
        const result = await reminders.setPause(panelScope(request), request.params.id, input, new Date());
        if (!result.ok) {
          if (result.code === 'NOT_FOUND') throw notFound();
          throw new AppError(result.code, result.message);
        }
        return reply.redirect(`${PANEL_PATH}/invoices/${request.params.id}#reminders`, 303);
      },
    );
  };
}
