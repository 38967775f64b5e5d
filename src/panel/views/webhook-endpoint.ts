import type { WebhookEndpoint } from '../../schemas/webhook-endpoint.js';
import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { TEST_EVENT_TYPE } from '../../schemas/event-types.js';
import { EVENTS_SHOWN, type LoggedAttempt, type LoggedDelivery, type LoggedEvent } from '../webhook-attempts.js';
import { csrfField, time } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';
import { endpointPath, endpointStatus, eventList } from './webhooks.js';

// One webhook endpoint: what it receives, the controls of owners and admins, and its delivery log:
// the latest events, each with its deliveries, their numbered attempts, the next retry and the
// payload, with "Resend" per event and "Send test event".

/** A payload longer than this is cut on the page (an invoice of 500 lines is a large event). */
const PAYLOAD_SHOWN_CHARS = 20_000;

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

function answer(attempt: LoggedAttempt): SafeHtml {
  const status = attempt.statusCode === null ? html`` : html`<code>HTTP ${attempt.statusCode}</code>`;
  // "answered 503" says no more than the status; the error text counts when there was no answer.
  const error = attempt.statusCode === null && attempt.error ? html`<span>${attempt.error}</span>` : html``;
  const excerpt = attempt.responseExcerpt
    ? html`<details><summary><small>Answer body</small></summary><pre class="excerpt">${attempt.responseExcerpt}</pre></details>`
    : html``;
  return html`${status}${error}${excerpt}`;
}

function resendButton(csrf: string, endpointId: string, event: LoggedEvent): SafeHtml {
  if (event.eventType === null) return html``;
  return html`<form method="post" action="${endpointPath(endpointId)}/resend" class="inline">
    ${csrfField(csrf)}<input type="hidden" name="eventId" value="${event.eventId}">
    <button type="submit" class="secondary outline small">Resend<span class="visually-hidden"> event ${event.eventId}</span></button>
  </form>`;
}

/** Where a delivery stands: delivered, failed for good, or when it is tried next. */
function deliveryState(delivery: LoggedDelivery, endpointEnabled: boolean): SafeHtml {
  const tries = (n: number) => (n === 1 ? '1 attempt' : `${n} attempts`);
  switch (delivery.status) {
    case 'succeeded':
      return html`<span class="badge badge-succeeded">Delivered</span> <span>after ${tries(delivery.attemptCount)}</span>`;
    case 'failed':
      return html`<span class="badge badge-failed">Failed</span> <span>after ${tries(delivery.attemptCount)}; no more retries</span>`;
    case 'pending': {
      const next = delivery.attemptCount + 1;
      if (!endpointEnabled)
        return html`<span class="badge badge-pending">Waiting</span> <span>attempt ${next} is made once the endpoint is enabled</span>`;
      if (delivery.sending)
        return html`<span class="badge badge-pending">Sending</span> <span>attempt ${next} is under way</span>`;
      return html`<span class="badge badge-pending">${delivery.attemptCount === 0 ? 'Queued' : 'Retrying'}</span> <span>attempt ${next} at ${time(delivery.nextAttemptAt, '—', { seconds: true })}</span>`;
    }
  }
}

function attemptTable(label: string, attempts: LoggedAttempt[]): SafeHtml {
  if (attempts.length === 0) return html``;
  return scrollTable(
    label,
    html`<table class="striped attempts">
  <thead><tr><th scope="col" class="num">Attempt</th><th scope="col">Time</th><th scope="col">Result</th><th scope="col">Answer</th><th scope="col" class="num">Duration</th></tr></thead>
  <tbody>
  ${attempts.map(
    (a) => html`<tr data-attempt-id="${a.id}">
    <td class="num">#${a.number}</td>
    <td>${time(a.attemptedAt, '—', { seconds: true })}</td>
    <td>${a.succeeded ? html`<span class="badge badge-succeeded">Succeeded</span>` : html`<span class="badge badge-failed">Failed</span>`}</td>
    <td>${answer(a)}</td>
    <td class="num">${a.durationMs} ms</td>
  </tr>`,
  )}
  </tbody>
</table>`,
  );
}

/** The event as delivered, indented to be read (the body sent is the same JSON, unindented). */
function payloadView(event: LoggedEvent): SafeHtml {
  if (event.payload === null) return html``;
  const bytes = Buffer.byteLength(event.payload, 'utf8');
  let shown = JSON.stringify(JSON.parse(event.payload) as unknown, null, 2);
  const cut = shown.length > PAYLOAD_SHOWN_CHARS;
  if (cut) shown = shown.slice(0, PAYLOAD_SHOWN_CHARS);
  return html`<details class="payload"><summary>Payload <small class="muted">(${bytes.toLocaleString('en')} bytes, as delivered)</small></summary>
<pre tabindex="0">${shown}${cut ? '\n…' : ''}</pre>${cut ? html`<p class="muted"><small>The first ${PAYLOAD_SHOWN_CHARS.toLocaleString('en')} characters.${event.eventType === TEST_EVENT_TYPE ? '' : html` <code>GET /event/${event.eventId}</code> gives all of it.`}</small></p>` : ''}
</details>`;
}

function eventLog(chrome: Chrome & { user: PanelUser }, endpoint: WebhookEndpoint, event: LoggedEvent): SafeHtml {
  const privileged = isPrivileged(chrome.user.role);
  const name = event.eventType ?? 'event purged';
  return html`<article class="delivery-event" data-event-id="${event.eventId}">
  <header>
    <h3>${event.eventType ? html`<code>${event.eventType}</code>` : html`<span class="muted">event purged</span>`}${event.eventType === TEST_EVENT_TYPE ? html` <span class="badge badge-test-event">test</span>` : ''}</h3>
    <p class="muted"><small><code>${event.eventId}</code>${event.createdAt ? html` · created ${time(event.createdAt, '—', { seconds: true })}` : ''}</small></p>
    ${privileged ? resendButton(chrome.csrf, endpoint.id, event) : ''}
  </header>
  ${event.deliveries.map(
    (
      delivery,
      i,
    ) => html`<section class="delivery" data-delivery-id="${delivery.id}" aria-label="${i === 0 ? 'Delivery' : `Resend ${i}`} of ${name} ${event.eventId}">
    <p class="delivery-state">${i > 0 ? html`<strong>Resent</strong> ${time(delivery.createdAt, '—', { seconds: true })}: ` : ''}${deliveryState(delivery, endpoint.enabled)}</p>
    ${attemptTable(`Attempts of ${i === 0 ? 'the delivery' : `resend ${i}`} of ${event.eventId}`, delivery.attempts)}
  </section>`,
  )}
  ${payloadView(event)}
</article>`;
}

function deliveryLog(chrome: Chrome & { user: PanelUser }, endpoint: WebhookEndpoint, events: LoggedEvent[]): SafeHtml {
  if (events.length === 0) {
    return html`<div class="empty-state"><p><strong>No deliveries yet.</strong></p><p>Each event sent to this endpoint appears here with every attempt to deliver it.</p></div>`;
  }
  return html`${events.map((event) => eventLog(chrome, endpoint, event))}`;
}

function testEventForm(csrf: string, endpoint: WebhookEndpoint): SafeHtml {
  return html`<form method="post" action="${endpointPath(endpoint.id)}/test" class="inline test-event">
  ${csrfField(csrf)}
  <button type="submit" class="secondary small">Send test event</button>
  <small class="muted">A <code>${TEST_EVENT_TYPE}</code> event, signed and retried like every delivery, whatever event types the endpoint takes.</small>
</form>`;
}

export function webhookEndpointPage(
  chrome: Chrome & { user: PanelUser },
  endpoint: WebhookEndpoint,
  events: LoggedEvent[],
  pageNotice?: Notice,
): string {
  const privileged = isPrivileged(chrome.user.role);
  return layout(
    'Webhook endpoint',
    { ...chrome, active: 'webhooks' },
    html`<nav aria-label="Breadcrumb"><ul><li><a href="${PANEL_PATH}/webhooks">Webhooks</a></li><li>Endpoint</li></ul></nav>
<hgroup><h1 class="webhook-url">${endpoint.url}</h1><p>${endpointStatus(endpoint)}</p></hgroup>
${notice(pageNotice)}
${failingExplanation(endpoint)}
${details(endpoint)}
${privileged ? controls(chrome.csrf, endpoint) : html`<p class="muted">Your role (member) can see this endpoint and its deliveries but not change them.</p>`}
<section aria-labelledby="attempts-heading" class="delivery-log">
  <h2 id="attempts-heading">Deliveries</h2>
  <p class="muted">The last ${EVENTS_SHOWN} events sent to this endpoint, latest activity first, each with every attempt (times in UTC, to the second) and the payload. “Resend” sends an event again as a new delivery, with the same <code>webhook-id</code> so receivers can tell a repeat.</p>
  ${privileged ? testEventForm(chrome.csrf, endpoint) : ''}
  ${deliveryLog(chrome, endpoint, events)}
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
