import { EMAIL_LANGUAGES, XML_FORMATS, type EmailDelivery } from '../../schemas/email-delivery.js';
import { html, type SafeHtml } from '../html.js';
import {
  csrfField,
  describedBy,
  fieldMessages,
  firstError,
  formErrorSummary,
  time,
  type FieldErrors,
} from './forms.js';
import { notice, type Notice } from './layout.js';

// A document's messages: the Send form (owners and admins, issued documents) and every message
// sent or queued, with its state, recipients, attachments and their SHA-256, and the relay's answer.

export const LANGUAGE_NAMES: Record<(typeof EMAIL_LANGUAGES)[number], string> = {
  de: 'German',
  en: 'English',
  fr: 'French',
};

export const XML_FORMAT_NAMES: Record<(typeof XML_FORMATS)[number], string> = {
  cii: 'CII · EN 16931 (the one inside the PDF)',
  'xrechnung-cii': 'CII · XRechnung 3.0',
  'xrechnung-ubl': 'UBL · XRechnung 3.0',
  peppol: 'UBL · Peppol BIS 3.0',
};

export interface SendFormValues {
  to: string;
  cc: string;
  language: string;
  xmlFormat: string;
  /** One per form shown: sending the same form twice queues one message. */
  idempotencyKey: string;
}

export interface SendingModel {
  deliveries: EmailDelivery[];
  /** The form, when the document is issued and the role may send it. */
  form?: {
    action: string;
    configured: boolean;
    /** The language used when none is chosen (the buyer's country's). */
    defaultLanguage: (typeof EMAIL_LANGUAGES)[number];
    values: SendFormValues;
    errors?: FieldErrors;
  };
  /** Why there is no form (a draft, or the role), or null. */
  noForm?: string;
  notice?: Notice;
}

function select(
  name: string,
  label: string,
  options: [value: string, text: string][],
  value: string,
  errors: FieldErrors | undefined,
  hint?: string,
): SafeHtml {
  return html`<label for="${name}">${label}</label>
<select id="${name}" name="${name}"${errors?.[name] ? html` aria-invalid="true"` : ''}${describedBy(name, errors, hint)}${firstError(errors) === name ? html` autofocus` : ''}>
${options.map(([v, text]) => html`<option value="${v}"${v === value ? html` selected` : ''}>${text}</option>`)}
</select>
${fieldMessages(name, errors, hint)}`;
}

function addressField(name: 'to' | 'cc', label: string, value: string, errors: FieldErrors | undefined, hint: string) {
  return html`<label for="${name}">${label}${name === 'cc' ? html` <span class="optional">(optional)</span>` : ''}</label>
<input id="${name}" name="${name}" type="text" inputmode="email" autocomplete="off" maxlength="3000" value="${value}"${errors?.[name] ? html` aria-invalid="true"` : ''}${describedBy(name, errors, hint)}${firstError(errors) === name ? html` autofocus` : ''}>
${fieldMessages(name, errors, hint)}`;
}

function sendForm(csrf: string, form: NonNullable<SendingModel['form']>): SafeHtml {
  if (!form.configured)
    return html`<p class="muted">Sending by email is not set up on this server: the operator sets <code>SMTP_URL</code> and <code>SMTP_FROM</code>.</p>`;
  const v = form.values;
  return html`<article class="send-form"><h3>Send</h3>
<form method="post" action="${form.action}" novalidate>
${csrfField(csrf)}
<input type="hidden" name="idempotencyKey" value="${v.idempotencyKey}">
${formErrorSummary(form.errors)}
<div class="grid">
<div>${addressField('to', 'To', v.to, form.errors, "Addresses separated by commas, at most 10. Empty: the buyer's email.")}</div>
<div>${addressField('cc', 'Cc', v.cc, form.errors, 'Copies, at most 10.')}</div>
</div>
<div class="grid">
<div>${select(
    'language',
    'Language',
    [
      ['', `The buyer's: ${LANGUAGE_NAMES[form.defaultLanguage]}`],
      ...EMAIL_LANGUAGES.map((l): [string, string] => [l, LANGUAGE_NAMES[l]]),
    ],
    v.language,
    form.errors,
    'Of the message and the attached PDF.',
  )}</div>
<div>${select(
    'xmlFormat',
    'E-invoice attached',
    XML_FORMATS.map((f): [string, string] => [f, XML_FORMAT_NAMES[f]]),
    v.xmlFormat,
    form.errors,
    'Beside the PDF, which carries the CII inside.',
  )}</div>
</div>
<button type="submit">Send</button>
</form></article>`;
}

const STATUS_TEXT: Record<EmailDelivery['status'], string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed' };

function delivery(d: EmailDelivery): SafeHtml {
  return html`<article class="email-delivery" id="delivery-${d.id}">
<header><span class="badge badge-email-${d.status}">${STATUS_TEXT[d.status]}</span> <strong>${d.subject}</strong></header>
<dl class="facts">
  <dt>To</dt><dd class="recipients">${d.to.join(', ')}</dd>
  ${d.cc.length ? html`<dt>Cc</dt><dd class="recipients">${d.cc.join(', ')}</dd>` : ''}
  <dt>Queued</dt><dd>${time(d.createdAt, '—', { seconds: true })}</dd>
  ${d.sentAt ? html`<dt>Sent</dt><dd>${time(d.sentAt, '—', { seconds: true })}</dd>` : ''}
  ${d.status === 'queued' && d.nextAttemptAt ? html`<dt>Next attempt</dt><dd>${time(d.nextAttemptAt, '—', { seconds: true })}</dd>` : ''}
  <dt>Attempts</dt><dd>${d.attempts}</dd>
  <dt>Language, e-invoice</dt><dd>${LANGUAGE_NAMES[d.language]} · ${XML_FORMAT_NAMES[d.xmlFormat]}</dd>
  ${d.failureReason ? html`<dt>${d.status === 'failed' ? 'Failed because' : 'Last attempt failed'}</dt><dd class="failure-reason">${d.failureReason}</dd>` : ''}
  <dt>Relay's answer</dt><dd>${d.smtpResponse ? html`<code class="smtp-response">${d.smtpResponse}</code>` : html`<span class="muted">none yet</span>`}</dd>
  <dt>Attachments</dt><dd>${
    d.attachments.length === 0
      ? html`<span class="muted">built when the message is sent</span>`
      : html`<ul class="attachments">${d.attachments.map(
          (a) =>
            html`<li><span class="nowrap">${a.filename}</span> <span class="muted nowrap">(${a.size.toLocaleString('en')} bytes)</span><br><small>SHA-256 <code class="sha256">${a.sha256}</code></small></li>`,
        )}</ul>`
  }</dd>
  <dt>Message-ID</dt><dd><code>${d.messageId}</code></dd>
</dl>
</article>`;
}

/** The "Sent by email" section of an invoice's or credit note's page. */
export function sendingSection(csrf: string, model: SendingModel): SafeHtml {
  return html`<section class="sending" aria-labelledby="sending-heading"><h2 id="sending-heading">Sent by email</h2>
${notice(model.notice)}
${model.form ? sendForm(csrf, model.form) : model.noForm ? html`<p class="muted">${model.noForm}</p>` : ''}
${
  model.deliveries.length === 0
    ? html`<p class="muted">Not sent by email yet.</p>`
    : html`<p class="muted">${model.deliveries.length} ${model.deliveries.length === 1 ? 'message' : 'messages'}, newest first. The attachments' SHA-256 are those of the downloads above.</p>
${model.deliveries.map(delivery)}`
}
</section>`;
}
