import { PERMISSIONS, type Permission } from '../../auth/permissions.js';
import type { ApiKeySummary } from '../../services/api-key-service.js';
import { html, type SafeHtml } from '../html.js';
import type { KeyEvent } from '../key-events.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { csrfField, describedBy, field, fieldMessages, firstError, formErrorSummary, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';

export interface CreateKeyValues {
  name?: string;
  permissions?: string[];
  expiresOn?: string;
  /** live (default) or test. */
  mode?: string;
}

export interface KeysPageModel {
  keys: ApiKeySummary[];
  events: KeyEvent[];
  creators: Map<string, string>;
  values?: CreateKeyValues;
  errors?: FieldErrors;
  notice?: Notice;
}

function creatorOf(createdBy: string | null, creators: Map<string, string>): string {
  if (createdBy === null) return '—';
  if (createdBy === 'cli') return 'CLI';
  return creators.get(createdBy) ?? createdBy;
}

function statusBadge(status: ApiKeySummary['status']): SafeHtml {
  return html`<span class="badge badge-${status}">${status}</span>`;
}

function createForm(csrf: string, values: CreateKeyValues, errors: FieldErrors | undefined): SafeHtml {
  const chosen = new Set(values.permissions ?? []);
  const permissionError = errors?.permissions;
  return html`<article id="create">
  <header><h2>Create a key</h2></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/keys" novalidate>
    ${csrfField(csrf)}
    ${field({ name: 'name', label: 'Name', value: values.name, errors, required: true, maxlength: 200, hint: 'Say what uses it, e.g. "ERP sync (production)".' })}
    <fieldset${permissionError ? html` aria-invalid="true"` : ''}${describedBy('permissions', errors)}>
      <legend>Permissions</legend>
      ${(Object.keys(PERMISSIONS) as Permission[]).map(
        (p, i) => html`<label><input type="checkbox" name="permissions" value="${p}"${chosen.has(p) ? html` checked` : ''}${i === 0 && firstError(errors) === 'permissions' ? html` autofocus` : ''}> <code>${p}</code> — ${PERMISSIONS[p]}</label>`,
      )}
      ${fieldMessages('permissions', errors)}
    </fieldset>
    ${field({ name: 'expiresOn', label: 'Expires on (UTC)', type: 'date', value: values.expiresOn, errors, hint: 'The key stops working at the start of this day. Leave empty for no expiry.' })}
    <fieldset${describedBy('mode', errors)}>
      <legend>Mode</legend>
      <label><input type="radio" name="mode" value="live"${values.mode !== 'test' ? html` checked` : ''}> Live key (<code>inv_live_…</code>): real invoices, your real numbers</label>
      <label><input type="radio" name="mode" value="test"${values.mode === 'test' ? html` checked` : ''}> Test key (<code>inv_test_…</code>): a sandbox of its own, numbered TEST-…, for building and testing integrations</label>
      ${fieldMessages('mode', errors)}
    </fieldset>
    <button type="submit">Create key</button>
  </form>
</article>`;
}

function keyTable(user: PanelUser, keys: ApiKeySummary[], creators: Map<string, string>): SafeHtml {
  if (keys.length === 0) {
    return html`<div class="empty-state"><p><strong>No API keys yet.</strong></p>
<p>${isPrivileged(user.role) ? 'Create one below to let an application call the API.' : 'An owner or admin of your company can create one.'}</p></div>`;
  }
  const privileged = isPrivileged(user.role);
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="API keys"><table class="striped">
  <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Mode</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Status</th>${privileged ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
  <tbody>
  ${keys.map(
    (k) => html`<tr data-key-id="${k.id}">
    <th scope="row">${k.name}</th>
    <td><code>${k.prefix}</code></td>
    <td><span class="badge badge-mode-${k.mode}">${k.mode}</span></td>
    <td>${k.permissions.map((p) => html`<code class="perm">${p}</code> `)}</td>
    <td>${time(k.createdAt)}<br><small class="muted">by ${creatorOf(k.createdBy, creators)}</small></td>
    <td>${time(k.lastUsedAt, 'never')}</td>
    <td>${time(k.expiresAt, 'never')}</td>
    <td>${statusBadge(k.status)}</td>
    ${privileged ? html`<td>${k.status === 'revoked' ? '' : html`<a href="${PANEL_PATH}/keys/${k.id}/revoke" class="danger-link">Revoke<span class="visually-hidden"> ${k.name}</span></a>`}</td>` : ''}
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

function activity(events: KeyEvent[]): SafeHtml {
  return html`<section aria-labelledby="activity-heading">
  <h2 id="activity-heading">Activity</h2>
  ${events.length === 0
    ? html`<p class="muted">No key has been created or revoked from the panel yet.</p>`
    : html`<ul class="activity">${events.map(
        (e) => html`<li>${time(e.at)} — <strong>${e.actor}</strong> ${e.action === 'create' ? 'created' : 'revoked'} key <strong>${e.keyName}</strong> (<code>${e.keyPrefix}</code>)</li>`,
      )}</ul>`}
</section>`;
}

export function keysPage(chrome: Chrome & { user: PanelUser }, model: KeysPageModel): string {
  const privileged = isPrivileged(chrome.user.role);
  return layout(
    'API keys',
    { ...chrome, active: 'keys' },
    html`<hgroup><h1>API keys</h1><p>Settings · keys let your applications call the API. The full key is shown once, when it is created.</p></hgroup>
${notice(model.notice)}
${keyTable(chrome.user, model.keys, model.creators)}
${privileged ? createForm(chrome.csrf, model.values ?? {}, model.errors) : html`<p class="muted">Your role (member) can see keys but not create or revoke them.</p>`}
${activity(model.events)}`,
  );
}

export function revealPage(chrome: Chrome & { user: PanelUser }, revealed: { key: string; summary: ApiKeySummary } | null): string {
  const body = revealed
    ? html`<article class="reveal">
  <header><h1>Your new API key</h1></header>
  <p class="notice notice-warning" role="alert"><strong>Copy this key now. It will not be shown again.</strong> We store only a hash of it; if you lose it, revoke it and create another.</p>
  <p>Key <strong>${revealed.summary.name}</strong> with ${revealed.summary.permissions.join(', ')}:</p>
  <div class="secret-row">
    <code id="new-key" class="secret">${revealed.key}</code>
    <button type="button" class="secondary" data-copy-target="new-key" autofocus>Copy key</button>
  </div>
  <p id="copy-status" class="muted" role="status" aria-live="polite"></p>
  <p>Send it in the <code>X-API-Key</code> header (or <code>Authorization: Bearer …</code>). Keep it out of browsers and public repositories.</p>
  <p><a href="${PANEL_PATH}/keys" role="button">I have stored it — back to keys</a></p>
</article>`
    : html`<article class="narrow">
  <header><h1>The key is no longer shown</h1></header>
  <p>A new key is shown once, right after it is created. If it was not stored, revoke it and create another.</p>
  <p><a href="${PANEL_PATH}/keys">Back to API keys</a></p>
</article>`;
  return layout('New API key', { ...chrome, active: 'keys' }, body);
}

export function revokeConfirmPage(chrome: Chrome & { user: PanelUser }, key: ApiKeySummary): string {
  return layout(
    'Revoke key',
    { ...chrome, active: 'keys' },
    html`<article class="narrow">
  <header><h1>Revoke “${key.name}”?</h1></header>
  <p>Key <code>${key.prefix}</code> (${key.permissions.join(', ')}) stops working immediately: every request with it is refused with 401. This cannot be undone.</p>
  <form method="post" action="${PANEL_PATH}/keys/${key.id}/revoke">
    ${csrfField(chrome.csrf)}
    <div class="actions">
      <button type="submit" class="danger">Revoke key</button>
      <a href="${PANEL_PATH}/keys" role="button" class="secondary outline">Cancel</a>
    </div>
  </form>
</article>`,
  );
}
