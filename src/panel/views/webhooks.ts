import { EVENT_TYPES } from '../../schemas/event-types.js';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  type WebhookEndpoint,
} from '../../schemas/webhook-endpoint.js';
import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import { isPrivileged, type PanelUser } from '../users.js';
import {
  csrfField,
  describedBy,
  field,
  fieldMessages,
  firstError,
  formErrorSummary,
  time,
  type FieldErrors,
} from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';

// The Webhooks page: the company's endpoints and, for owners and admins, the form that adds one.

export const ALL_EVENTS = '*';
export const FAILING_MARKER = 'Disabled: every delivery failed for 5 days';

export interface CreateEndpointValues {
  url?: string;
  events?: string[];
  description?: string;
}

export interface WebhooksPageModel {
  endpoints: WebhookEndpoint[];
  values?: CreateEndpointValues;
  errors?: FieldErrors;
  notice?: Notice;
}

export function endpointPath(id: string): string {
  return `${PANEL_PATH}/webhooks/${id}`;
}

export function endpointStatus(endpoint: WebhookEndpoint): SafeHtml {
  if (endpoint.enabled) return html`<span class="badge badge-enabled">Enabled</span>`;
  if (endpoint.disabledReason === 'failing') return html`<span class="badge badge-failing">${FAILING_MARKER}</span>`;
  return html`<span class="badge badge-disabled">Disabled</span>`;
}

export function eventList(events: string[]): SafeHtml {
  if (events.includes(ALL_EVENTS)) return html`<strong>All events</strong>`;
  return html`${events.map((type) => html`<code class="perm">${type}</code> `)}`;
}

function endpointTable(user: PanelUser, endpoints: WebhookEndpoint[]): SafeHtml {
  if (endpoints.length === 0) {
    return html`<div class="empty-state"><p><strong>No webhook endpoints yet.</strong></p>
<p>${isPrivileged(user.role) ? 'Add one below to have events sent to your systems as they happen.' : 'An owner or admin of your company can add one.'}</p></div>`;
  }
  return html`${scrollTable(
    'Webhook endpoints',
    html`<table class="striped webhooks">
  <thead><tr><th scope="col">URL</th><th scope="col">Events</th><th scope="col">Description</th><th scope="col">Created</th><th scope="col">Status</th></tr></thead>
  <tbody>
  ${endpoints.map(
    (e) => html`<tr data-endpoint-id="${e.id}">
    <th scope="row"><a class="webhook-url" href="${endpointPath(e.id)}">${e.url}</a></th>
    <td>${eventList(e.events)}</td>
    <td>${e.description ?? html`<span class="muted">—</span>`}</td>
    <td>${time(e.createdAt)}</td>
    <td>${endpointStatus(e)}</td>
  </tr>`,
  )}
  </tbody>
</table>`,
  )}`;
}

const EVENTS_HINT = '“All events” wins over single types when both are ticked.';

function eventChoices(values: CreateEndpointValues, errors: FieldErrors | undefined): SafeHtml {
  // A fresh form suggests every event; a sent one keeps what was chosen.
  const chosen = new Set(values.events ?? [ALL_EVENTS]);
  const box = (value: string, label: SafeHtml, first: boolean) =>
    html`<label><input type="checkbox" name="events" value="${value}"${chosen.has(value) ? html` checked` : ''}${first && firstError(errors) === 'events' ? html` autofocus` : ''}> ${label}</label>`;
  return html`<fieldset${errors?.events ? html` aria-invalid="true"` : ''}${describedBy('events', errors, EVENTS_HINT)}>
  <legend>Event types</legend>
  ${box(ALL_EVENTS, html`<strong>All events</strong> — also types added later`, true)}
  ${EVENT_TYPES.map((type) => box(type, html`<code>${type}</code>`, false))}
  ${fieldMessages('events', errors, EVENTS_HINT)}
</fieldset>`;
}

function createForm(csrf: string, values: CreateEndpointValues, errors: FieldErrors | undefined): SafeHtml {
  return html`<article id="create">
  <header><h2>Add an endpoint</h2></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/webhooks" novalidate>
    ${csrfField(csrf)}
    ${field({ name: 'url', label: 'URL', value: values.url, errors, required: true, maxlength: MAX_WEBHOOK_URL_LENGTH, hint: 'An https address on the public internet, e.g. https://erp.example.com/hooks/invoicing.' })}
    ${eventChoices(values, errors)}
    ${field({ name: 'description', label: 'Description', value: values.description, errors, maxlength: MAX_WEBHOOK_DESCRIPTION_LENGTH, hint: 'Say what receives it, e.g. "ERP (production)".' })}
    <button type="submit">Add endpoint</button>
  </form>
</article>`;
}

export function webhooksPage(chrome: Chrome & { user: PanelUser }, model: WebhooksPageModel): string {
  return layout(
    'Webhooks',
    { ...chrome, active: 'webhooks' },
    html`<hgroup><h1>Webhooks</h1><p>Settings · endpoints receive each event as a signed POST. The signing secret is shown once, when the endpoint is added.</p></hgroup>
${notice(model.notice)}
${endpointTable(chrome.user, model.endpoints)}
${
  isPrivileged(chrome.user.role)
    ? createForm(chrome.csrf, model.values ?? {}, model.errors)
    : html`<p class="muted">Your role (member) can see endpoints and their deliveries but not change them.</p>`
}`,
  );
}
