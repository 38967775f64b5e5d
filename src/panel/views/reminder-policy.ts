import { EMAIL_LANGUAGES, type EmailLanguage } from '../../schemas/email-delivery.js';
import { MAX_REMINDER_LEVELS, type ReminderPolicy, type ReminderPreview } from '../../schemas/reminder.js';
import { html, type SafeHtml } from '../html.js';
import type { PanelUser } from '../users.js';
import { LANGUAGE_NAMES } from './deliveries.js';
import { csrfField, formErrorSummary, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';
import { scrollTable } from './table.js';

// The company's reminder policy (Company settings): its levels (days from the due date, with an
// optional fee or interest after it), editable by owners and admins through the service of PUT
// /company/reminder-policy, and each level's message for a sample invoice in a chosen language.

export const REMINDERS_PATH = `${PANEL_PATH}/company/reminders`;

/** One level as the form shows it: what was stored or typed, as text. */
export interface LevelValues {
  days: string;
  fee: string;
  interestRatePercent: string;
}

export interface PolicyFormValues {
  enabled: boolean;
  levels: LevelValues[];
}

export interface ReminderPolicyPageModel {
  policy: ReminderPolicy;
  values: PolicyFormValues;
  errors?: FieldErrors;
  notice?: Notice;
  mayEdit: boolean;
  language: EmailLanguage;
  preview: ReminderPreview[];
}

/** The stored policy as form values, with empty rows up to the most levels a policy has. */
export function policyFormValues(policy: ReminderPolicy): PolicyFormValues {
  const levels = policy.levels.map((l) => ({
    days: String(l.days),
    fee: l.fee ?? '',
    interestRatePercent: l.interestRatePercent ?? '',
  }));
  while (levels.length < MAX_REMINDER_LEVELS) levels.push({ days: '', fee: '', interestRatePercent: '' });
  return { enabled: policy.enabled, levels };
}

function when(days: number): string {
  if (days === 0) return 'on the due date';
  const n = Math.abs(days);
  return `${n} day${n === 1 ? '' : 's'} ${days < 0 ? 'before' : 'after'} the due date`;
}

function cell(name: string, label: string, value: string, errors: FieldErrors | undefined, disabled: boolean) {
  const error = errors?.[name];
  return html`<td><input id="${name}" name="${name}" value="${value}" aria-label="${label}" inputmode="decimal" maxlength="12"${disabled ? html` disabled` : ''}${error ? html` aria-invalid="true" aria-describedby="${name}-error"` : ''}>${error ? html`<small id="${name}-error" class="field-error">${error}</small>` : ''}</td>`;
}

function levelsForm(csrf: string, model: ReminderPolicyPageModel): SafeHtml {
  const disabled = !model.mayEdit;
  const rows = model.values.levels.map(
    (l, i) =>
      html`<tr><th scope="row">${i + 1}</th>${cell(`days${i}`, `Level ${i + 1}: days from the due date`, l.days, model.errors, disabled)}${cell(`fee${i}`, `Level ${i + 1}: fee`, l.fee, model.errors, disabled)}${cell(`interest${i}`, `Level ${i + 1}: interest, percent a year`, l.interestRatePercent, model.errors, disabled)}</tr>`,
  );
  return html`<form method="post" action="${REMINDERS_PATH}" class="reminder-policy">
${csrfField(csrf)}
${formErrorSummary(model.errors)}
${model.errors?.policy ? html`<p class="field-error" role="alert">${model.errors.policy}</p>` : ''}
<label><input type="checkbox" name="enabled" value="on"${model.values.enabled ? html` checked` : ''}${disabled ? html` disabled` : ''}> Send reminders</label>
${scrollTable(
  'Reminder levels',
  html`<table class="striped reminder-levels">
  <thead><tr><th scope="col">Level</th><th scope="col">Days from the due date</th><th scope="col">Fee <span class="optional">(optional)</span></th><th scope="col">Interest, % a year <span class="optional">(optional)</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table>`,
)}
<p class="muted">Days before the due date are negative (−3 is three days before), 0 is the due date. Leave a row's days empty to have fewer levels. A fee or interest only on a level after the due date; all fees together at most 40.00; interest at most 20 % a year. Each is stated beside the open balance and never changes the invoice.</p>
${model.mayEdit ? html`<button type="submit">Save the policy</button>` : html`<p class="muted">Owners and admins change the policy.</p>`}
</form>`;
}

function previewSection(model: ReminderPolicyPageModel): SafeHtml {
  return html`<h2 id="preview">Preview</h2>
<form method="get" action="${REMINDERS_PATH}#preview" class="inline-form">
<label for="language">Language</label>
<select id="language" name="language">${EMAIL_LANGUAGES.map(
    (l) => html`<option value="${l}"${l === model.language ? html` selected` : ''}>${LANGUAGE_NAMES[l]}</option>`,
  )}</select>
<button type="submit" class="secondary">Show</button>
</form>
<p class="muted">Each level's message for a sample invoice of 1190.00 due on 2026-03-31, with the saved policy and the company's <a href="${PANEL_PATH}/company/email-templates">email templates</a> (reminder levels).</p>
${model.preview.map(
  (p) =>
    html`<article class="reminder-preview"><header><strong>Level ${p.level}</strong>, ${when(p.days)} (${p.asOf})${p.custom ? ' · your own template' : ''}</header>
<p><strong>Subject:</strong> ${p.subject}</p>
<pre class="template-text">${p.body}</pre></article>`,
)}`;
}

export function reminderPolicyPage(chrome: Chrome & { user: PanelUser }, model: ReminderPolicyPageModel): string {
  const p = model.policy;
  return layout(
    'Reminder policy',
    { ...chrome, active: 'company' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/company">Company</a></li><li>Reminders</li></ul></nav>
<hgroup><h1>Reminder policy</h1><p>Settings · when open invoices with a billing email are reminded, shared by live and test data. ${p.custom ? html`Your own policy, changed ${time(p.updatedAt)}.` : 'The default policy: it applies until you save your own.'}</p></hgroup>
${notice(model.notice)}
${levelsForm(chrome.csrf, model)}
${previewSection(model)}`,
  );
}
