import type { WebhookEndpoint } from '../../schemas/webhook-endpoint.js';
import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { ATTEMPTS_SHOWN, type AttemptListItem } from '../webhook-attempts.js';
import { csrfField, time } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';
import { endpointPath, endpointStatus, eventList } from './webhooks.js';

// One webhook endpoint: what it receives, the controls of owners and admins, and its latest
// delivery attempts with a "Resend" per event.

function details(endpoint: WebhookEndpoint): SafeHtml {
  return html`<dl class="facts">
  <dt>Events</dt><dd>${eventList(endpoint.events)}</dd>
  <dt>Description</dt><dd>${endpoint.description ?? html`<span class="muted">—</span>`}</dd>
  <dt>Created</dt><dd>${time(endpoint.createdAt)}</dd>
  <dt>Changed</dt><dd>${time(endpoint.updatedAt)}</dd>
</dl>`;
}

function failingExplanation(endpoint: WebhookEndpoint): SafeHtml {
  if (endpoint.disabledReason !== 'failing') return html``;
  return html`<p class="notice notice-error" role="alert"><strong>Disabled: every delivery failed for 5 days.</strong> Nothing is sent to it and new events make no deliveries for it. Fix the receiver (the attempts below say what it answered), then enable the endpoint again.</p>`;
}

function postButton(csrf: string, action: string, label: string, className = 'secondary small'): SafeHtml {
  return html`<form method="post" action="${action}" class="inline">${csrfField(csrf)}<button type="submit" class="${className}">${label}</button></form>`;
}

function controls(csrf: string, endpoint: WebhookEndpoint): SafeHtml {
  const base = endpointPath(endpoint.id);
  return html`<section aria-label="Manage this endpoint"><div class="row-actions">
  ${endpoint.enabled ? postButton(csrf, `${base}/disable`, 'Disable') : postButton(csrf, `${base}/enable`, 'Enable', 'small')}
  <a href="${base}/rotate" role="button" class="secondary outline small">Rotate secret</a>
  <a href="${base}/delete" class="danger-link">Delete endpoint</a>
</div>
${endpoint.enabled ? '' : html`<p class="muted"><small>Disabled endpoints receive nothing; deliveries already waiting go out once it is enabled again.</small></p>`}</section>`;
}

function answer(attempt: AttemptListItem): SafeHtml {
  const status = attempt.statusCode === null ? html`` : html`<code>HTTP ${attempt.statusCode}</code>`;
  // "answered 503" says no more than the status; the error text counts when there was no answer.
  const error = attempt.statusCode === null && attempt.error ? html`<span>${attempt.error}</span>` : html``;
  const excerpt = attempt.responseExcerpt
    ? html`<details><summary><small>Answer body</small></summary><pre class="excerpt">${attempt.responseExcerpt}</pre></details>`
    : html``;
  return html`${status}${error}${excerpt}`;
}

function resendButton(csrf: string, endpointId: string, attempt: AttemptListItem): SafeHtml {
  if (attempt.eventType === null) return html``;
  return html`<form method="post" action="${endpointPath(endpointId)}/resend" class="inline">
    ${csrfField(csrf)}<input type="hidden" name="eventId" value="${attempt.eventId}">
    <button type="submit" class="secondary outline small">Resend<span class="visually-hidden"> event ${attempt.eventId}</span></button>
  </form>`;
}

function attemptTable(chrome: Chrome & { user: PanelUser }, endpointId: string, attempts: AttemptListItem[]): SafeHtml {
  if (attempts.length === 0) {
    return html`<div class="empty-state"><p><strong>No delivery attempts yet.</strong></p><p>Each attempt to send an event to this endpoint appears here.</p></div>`;
  }
  const privileged = isPrivileged(chrome.user.role);
  return html`${scrollTable('Delivery attempts, newest first', html`<table class="striped attempts">
  <thead><tr><th scope="col">Time</th><th scope="col">Event</th><th scope="col">Result</th><th scope="col">Answer</th><th scope="col" class="num">Duration</th>${privileged ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
  <tbody>
  ${attempts.map(
    (a) => html`<tr data-attempt-id="${a.id}" data-event-id="${a.eventId}">
    <td>${time(a.attemptedAt)}</td>
    <td>${a.eventType ? html`<code>${a.eventType}</code>` : html`<span class="muted">event purged</span>`}<br><small class="muted"><code>${a.eventId}</code></small></td>
    <td>${a.succeeded ? html`<span class="badge badge-succeeded">Succeeded</span>` : html`<span class="badge badge-failed">Failed</span>`}</td>
    <td>${answer(a)}</td>
    <td class="num">${a.durationMs} ms</td>
    ${privileged ? html`<td>${resendButton(chrome.csrf, endpointId, a)}</td>` : ''}
  </tr>`,
  )}
  </tbody>
</table>`)}`;
}

export function webhookEndpointPage(chrome: Chrome & { user: PanelUser }, endpoint: WebhookEndpoint, attempts: AttemptListItem[], pageNotice?: Notice): string {
  return layout(
    'Webhook endpoint',
    { ...chrome, active: 'webhooks' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/webhooks">Webhooks</a></li><li>Endpoint</li></ul></nav>
<hgroup><h1 class="webhook-url">${endpoint.url}</h1><p>${endpointStatus(endpoint)}</p></hgroup>
${notice(pageNotice)}
${failingExplanation(endpoint)}
${details(endpoint)}
${isPrivileged(chrome.user.role) ? controls(chrome.csrf, endpoint) : html`<p class="muted">Your role (member) can see this endpoint and its deliveries but not change them.</p>`}
<section aria-labelledby="attempts-heading">
  <h2 id="attempts-heading">Delivery attempts</h2>
  <p class="muted">The last ${ATTEMPTS_SHOWN}, newest first. “Resend” sends that event again as a new delivery, with the same <code>webhook-id</code> so receivers can tell a repeat.</p>
  ${attemptTable(chrome, endpoint.id, attempts)}
</section>
<p class="muted">id <code>${endpoint.id}</code></p>`,
  );
}

export function deleteConfirmPage(chrome: Chrome & { user: PanelUser }, endpoint: WebhookEndpoint): string {
  return layout(
    'Delete webhook endpoint',
    { ...chrome, active: 'webhooks' },
    html`<article class="narrow">
  <header><h1>Delete this endpoint?</h1></header>
  <p class="webhook-url"><code>${endpoint.url}</code></p>
  <p>Nothing more is sent to it, deliveries still waiting are dropped, and its delivery attempts are deleted with it. This cannot be undone.</p>
  <form method="post" action="${endpointPath(endpoint.id)}/delete">
    ${csrfField(chrome.csrf)}
    <div class="actions">
      <button type="submit" class="danger">Delete endpoint</button>
      <a href="${endpointPath(endpoint.id)}" role="button" class="secondary outline">Cancel</a>
    </div>
  </form>
</article>`,
  );
}
