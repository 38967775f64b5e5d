import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fillTemplate, withHostedUrl, type EmailTemplate, type TemplateValues } from '../../delivery/templates.js';

/** A sample's message as it would be sent: {{hostedUrl}} (filled in at send time) as a sample page address. */
const previewOf = (filled: EmailTemplate): EmailTemplate => ({
  subject: filled.subject,
  body: withHostedUrl(filled.body, 'https://invoices.example.com/hosted/…'),
});
import { EMAIL_LANGUAGES, TEMPLATE_KINDS, type EmailTemplateView } from '../../schemas/email-delivery.js';
import { chromeFor, forbidden, notFound, openAccess, sendPage, signedInUser, type PanelDeps } from '../context.js';
import { roleAllows } from '../users.js';
import {
  emailTemplatePage,
  emailTemplatesPage,
  TEMPLATES_PATH,
  type TemplatePageModel,
} from '../views/email-templates.js';
import type { FieldErrors } from '../views/forms.js';
import type { Notice } from '../views/layout.js';

// The company's email templates under Company settings: every role reads them and their preview;
// owners and admins (whose role allows company.update) set and reset them through the service of
// PUT and DELETE /company/email-templates/{kind}/{language}. The preview fills the template in for
// a sample document with fillTemplate, the code that makes every queued message's subject and text.

const TemplateParams = Type.Object({
  kind: Type.Union(TEMPLATE_KINDS.map((k) => Type.Literal(k))),
  language: Type.Union(EMAIL_LANGUAGES.map((l) => Type.Literal(l))),
});
const TemplateQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 20 })) });
const TemplateBody = Type.Object(
  {
    _csrf: Type.Optional(Type.String()),
    subject: Type.Optional(Type.String({ maxLength: 20_000 })),
    body: Type.Optional(Type.String({ maxLength: 40_000 })),
    action: Type.Optional(Type.Union([Type.Literal('save'), Type.Literal('preview')])),
  },
  { additionalProperties: false },
);
const ResetBody = Type.Object({ _csrf: Type.Optional(Type.String()) }, { additionalProperties: false });

const NOTICES: Record<string, Notice> = {
  saved: { kind: 'success', text: 'The template is saved. Messages queued from now on use it.' },
  reset: { kind: 'success', text: 'Your own template is dropped: the default applies again.' },
};

/** The limits of the API's body schema (EmailTemplateBody), in the panel's words. */
function templateProblems(values: EmailTemplate): FieldErrors {
  const errors: FieldErrors = {};
  if (values.subject.trim() === '') errors.subject = 'Enter a subject.';
  else if (values.subject.length > 200) errors.subject = 'At most 200 characters.';
  if (values.body.trim() === '') errors.body = 'Enter the text of the message.';
  else if (values.body.length > 10_000) errors.body = 'At most 10,000 characters.';
  return errors;
}

/** A sample document of the kind, from the company's own name and currency. */
function sampleOf(
  kind: EmailTemplateView['documentKind'],
  seller: string,
  currency: string,
  now: Date,
): { values: TemplateValues; words: string } {
  const issueDate = now.toISOString().slice(0, 10);
  const dueDate = new Date(now.getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
  const values: TemplateValues = {
    number: kind === 'invoice' ? '2026-00042' : 'CN-2026-00007',
    seller,
    buyer: 'Sample Customer Ltd',
    amount: '1190.00',
    currency,
    issueDate,
    dueDate: kind === 'invoice' ? dueDate : issueDate,
  };
  return {
    values,
    words: `a sample ${kind === 'invoice' ? 'invoice' : 'credit note'} ${values.number} of ${values.amount} ${currency} from ${seller} to ${values.buyer}`,
  };
}

export function emailTemplateRoutes(deps: PanelDeps): FastifyPluginAsync {
  return async (scope) => {
    const app = scope.withTypeProvider<TypeBoxTypeProvider>();
    const service = deps.container.emailDeliveries;

    async function render(
      request: FastifyRequest,
      reply: FastifyReply,
      kind: EmailTemplateView['documentKind'],
      language: EmailTemplateView['language'],
      extra: { values?: EmailTemplate; errors?: FieldErrors; notice?: Notice | undefined } = {},
      status = 200,
    ) {
      const user = signedInUser(request);
      const reminderLevel = kind.startsWith('reminder-') ? Number(kind.slice('reminder-'.length)) : undefined;
      const [templates, company] = await Promise.all([
        reminderLevel ? deps.container.reminders.templatesOf(user.companyId) : service.listTemplates(user.companyId),
        deps.container.companyProfiles.get(user.companyId),
      ]);
      if (!company) throw notFound();
      // A reminder level the policy does not have has no template to show.
      const template = templates.find((t) => t.documentKind === kind && t.language === language);
      if (!template) throw notFound();
      const values = extra.values ?? { subject: template.subject, body: template.body };
      let preview: EmailTemplate;
      let sampleWords: string;
      if (reminderLevel) {
        const previews = await deps.container.reminders.preview(user.companyId, language, {
          level: reminderLevel,
          template: values,
        });
        const shown = previews.find((p) => p.level === reminderLevel)!;
        preview = previewOf({ subject: shown.subject, body: shown.body });
        sampleWords = `a sample reminder of level ${reminderLevel} (sent ${shown.asOf}) for an invoice of 1190.00 ${company.currency} due on 2026-03-31`;
      } else {
        const sample = sampleOf(
          kind as EmailTemplateView['documentKind'] & ('invoice' | 'credit-note'),
          company.legalName ?? company.name,
          company.currency,
          new Date(),
        );
        preview = previewOf(fillTemplate(values, sample.values));
        sampleWords = sample.words;
      }
      const model: TemplatePageModel = {
        template,
        values,
        mayEdit: roleAllows(user.role, 'company.update'),
        preview,
        sample: sampleWords,
        previewIsDraft: extra.values !== undefined,
        ...(extra.errors ? { errors: extra.errors } : {}),
        ...(extra.notice ? { notice: extra.notice } : {}),
      };
      return sendPage(reply, emailTemplatePage(await chromeFor(request, reply, deps), model), status);
    }

    const mayEdit = (request: FastifyRequest) => {
      const user = signedInUser(request);
      if (!roleAllows(user.role, 'company.update'))
        throw forbidden('Your role does not allow this. Owners and admins change the email templates.');
      return user;
    };

    app.get('/company/email-templates', { config: openAccess() }, async (request, reply) => {
      const companyId = signedInUser(request).companyId;
      const [templates, reminderTemplates] = await Promise.all([
        service.listTemplates(companyId),
        deps.container.reminders.templatesOf(companyId),
      ]);
      return sendPage(reply, emailTemplatesPage(await chromeFor(request, reply, deps), templates, reminderTemplates));
    });

    app.get(
      '/company/email-templates/:kind/:language',
      { config: openAccess(), schema: { params: TemplateParams, querystring: TemplateQuery } },
      async (request, reply) =>
        render(request, reply, request.params.kind, request.params.language, {
          notice: NOTICES[request.query.done ?? ''],
        }),
    );

    app.post(
      '/company/email-templates/:kind/:language',
      {
        config: openAccess(),
        schema: { params: TemplateParams, body: TemplateBody },
        preHandler: scope.csrfProtection,
      },
      async (request, reply) => {
        const user = mayEdit(request);
        const { kind, language } = request.params;
        // Line ends as the browser sends them (CRLF) are kept as one \n, as the API's clients write them.
        const values = {
          subject: request.body.subject ?? '',
          body: (request.body.body ?? '').replace(/\r\n/g, '\n'),
        };
        const errors = templateProblems(values);
        if (Object.keys(errors).length > 0) return render(request, reply, kind, language, { values, errors }, 400);
        if (request.body.action === 'preview') return render(request, reply, kind, language, { values });
        const result = await service.setTemplate(user.companyId, kind, language, values, new Date());
        if (!result.ok) {
          const fieldErrors: FieldErrors = {};
          for (const d of result.details) fieldErrors[d.field] = d.message;
          return render(request, reply, kind, language, { values, errors: fieldErrors }, 400);
        }
        request.log.info({ companyId: user.companyId, kind, language }, 'email template set in the panel');
        return reply.redirect(`${TEMPLATES_PATH}/${kind}/${language}?done=saved`, 303);
      },
    );

    app.post(
      '/company/email-templates/:kind/:language/reset',
      { config: openAccess(), schema: { params: TemplateParams, body: ResetBody }, preHandler: scope.csrfProtection },
      async (request, reply) => {
        const user = mayEdit(request);
        const { kind, language } = request.params;
        const reminderDefault = kind.startsWith('reminder-')
          ? await deps.container.reminders.defaultTemplateOf(user.companyId, kind, language)
          : undefined;
        await service.resetTemplate(user.companyId, kind, language, reminderDefault);
        request.log.info({ companyId: user.companyId, kind, language }, 'email template reset in the panel');
        return reply.redirect(`${TEMPLATES_PATH}/${kind}/${language}?done=reset`, 303);
      },
    );
  };
}
