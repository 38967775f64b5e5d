import type { EmailTemplate } from '../../delivery/templates.js';
import type { EmailTemplateView } from '../../schemas/email-delivery.js';
import { html, type SafeHtml } from '../html.js';
import type { PanelUser } from '../users.js';
import { LANGUAGE_NAMES } from './deliveries.js';
import { csrfField, field, formErrorSummary, textareaField, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';
import { scrollTable } from './table.js';

// The company's email templates (Company settings): the six of them (invoice and credit note in
// German, English and French), and one at a time with its form and a preview for a sample document.

export const TEMPLATES_PATH = `${PANEL_PATH}/company/email-templates`;

const KIND_NAMES = { invoice: 'Invoice', 'credit-note': 'Credit note' } as const;

export function templateName(t: Pick<EmailTemplateView, 'documentKind' | 'language'>): string {
  const kind =
    t.documentKind === 'invoice' || t.documentKind === 'credit-note'
      ? KIND_NAMES[t.documentKind]
      : `Reminder level ${t.documentKind.slice('reminder-'.length)}`;
  return `${kind} · ${LANGUAGE_NAMES[t.language]}`;
}

function breadcrumb(last?: string): SafeHtml {
  return html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/company">Company</a></li>${
    last
      ? html`<li><a href="${TEMPLATES_PATH}">Email templates</a></li><li>${last}</li>`
      : html`<li>Email templates</li>`
  }</ul></nav>`;
}

const PLACEHOLDERS = html`<p class="muted">In the subject and the body, <code>{{number}}</code>, <code>{{seller}}</code>, <code>{{buyer}}</code>, <code>{{amount}}</code>, <code>{{currency}}</code>, <code>{{issueDate}}</code> and <code>{{dueDate}}</code> are filled in with the document's values; a name not in this list stays as written.</p>`;

function templatesTable(caption: string, className: string, templates: EmailTemplateView[]): SafeHtml {
  return scrollTable(
    caption,
    html`<table class="striped ${className}">
  <thead><tr><th scope="col">Template</th><th scope="col">Subject</th><th scope="col">Source</th><th scope="col">Changed</th></tr></thead>
  <tbody>${templates.map(
    (t) =>
      html`<tr><th scope="row" class="nowrap"><a href="${TEMPLATES_PATH}/${t.documentKind}/${t.language}">${templateName(t)}</a></th><td>${t.subject}</td><td>${t.custom ? html`<span class="badge badge-issued">Your own</span>` : html`<span class="muted">Default</span>`}</td><td>${time(t.updatedAt, '—')}</td></tr>`,
  )}</tbody>
</table>`,
  );
}

export function emailTemplatesPage(
  chrome: Chrome & { user: PanelUser },
  templates: EmailTemplateView[],
  reminderTemplates: EmailTemplateView[],
): string {
  return layout(
    'Email templates',
    { ...chrome, active: 'company' },
    html`${breadcrumb()}
<hgroup><h1>Email templates</h1><p>Settings · the subject and text of the message that sends an invoice or a credit note, or reminds of an open invoice, in the document's language. Shared by live and test data.</p></hgroup>
${PLACEHOLDERS}
${templatesTable('Email templates', 'email-templates', templates)}
<h2>Reminders</h2>
<p class="muted">One template per level of the <a href="${PANEL_PATH}/company/reminders">reminder policy</a>. Reminders also fill in <code>{{level}}</code>, <code>{{daysOverdue}}</code>, <code>{{charges}}</code> (the fee and interest lines) and <code>{{total}}</code>.</p>
${templatesTable('Reminder templates', 'reminder-templates', reminderTemplates)}`,
  );
}

export interface TemplatePageModel {
  template: EmailTemplateView;
  /** What the form shows: the stored template, or what was typed. */
  values: EmailTemplate;
  errors?: FieldErrors;
  notice?: Notice;
  mayEdit: boolean;
  /** The preview: `values` filled in for the sample document. */
  preview: EmailTemplate;
  /** The sample document the preview is made for, in words. */
  sample: string;
  /** Whether the preview shows typed, unsaved text. */
  previewIsDraft: boolean;
}

export function emailTemplatePage(chrome: Chrome & { user: PanelUser }, model: TemplatePageModel): string {
  const t = model.template;
  const name = templateName(t);
  const action = `${TEMPLATES_PATH}/${t.documentKind}/${t.language}`;
  return layout(
    `Email template: ${name}`,
    { ...chrome, active: 'company' },
    html`${breadcrumb(name)}
<hgroup><h1>${name}</h1><p>${t.custom ? html`Your own template, changed ${time(t.updatedAt)}.` : 'The default template: it applies until you set your own.'} Messages queued from now on use what is saved here; queued ones keep theirs.</p></hgroup>
${notice(model.notice)}
${PLACEHOLDERS}
${
  model.mayEdit
    ? html`<form method="post" action="${action}" novalidate class="template-form">
${csrfField(chrome.csrf)}
${formErrorSummary(model.errors)}
${field({ name: 'subject', label: 'Subject', value: model.values.subject, errors: model.errors, required: true, maxlength: 200, hint: 'One line, at most 200 characters.' })}
${textareaField({ name: 'body', label: 'Text', value: model.values.body, errors: model.errors, required: true, maxlength: 10000, rows: 10, hint: 'Plain text, at most 10,000 characters.' })}
<div class="actions"><button type="submit" name="action" value="save">Save</button> <button type="submit" name="action" value="preview" class="secondary">Preview</button></div>
</form>
${
  t.custom
    ? html`<form method="post" action="${action}/reset" class="inline reset-template">
${csrfField(chrome.csrf)}
<button type="submit" class="secondary outline">Reset to the default</button>
</form>`
    : ''
}`
    : html`<article class="template-read-only"><h2>Subject</h2><p>${t.subject}</p><h2>Text</h2><pre class="template-text">${t.body}</pre>
<p class="muted">Your role (${chrome.user.role}) can see the templates; owners and admins change them.</p></article>`
}
<section class="template-preview" aria-labelledby="preview-heading"><h2 id="preview-heading">Preview${model.previewIsDraft ? ' (not saved)' : ''}</h2>
<p class="muted">For ${model.sample}, as the message would be sent.</p>
<article><header><strong class="preview-subject">${model.preview.subject}</strong></header><pre class="template-text preview-body">${model.preview.body}</pre></article>
</section>`,
  );
}
