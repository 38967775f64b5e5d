import { MAX_KEY_NAME_LENGTH, type ApiKeySummary } from '../../services/api-key-service.js';
import type { KeySearch } from '../../services/api-key-search.js';
import { html, type SafeHtml } from '../html.js';
import type { KeyEvent } from '../key-events.js';
import { isPrivileged, type PanelUser } from '../users.js';
import { csrfField, describedBy, field, fieldMessages, formErrorSummary, time, type FieldErrors } from './forms.js';
import { permissionBadges, permissionFieldset, permissionText } from './permissions.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';

export interface CreateKeyValues {
  name?: string;
  permissions?: string[];
  /** The "All permissions" box: the whole catalogue, whatever else is ticked. */
  allPermissions?: boolean;
  expiresOn?: string;
  /** live (default) or test. */
  mode?: string;
}

export interface KeysPageModel {
  /** The keys that match the search. */
  keys: ApiKeySummary[];
  /** All of the company's keys (to tell "none yet" from "none match", and to name successors). */
  allKeys: ApiKeySummary[];
  search: KeySearch;
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
  return html`<article id="create">
  <header><h2>Create a key</h2></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/keys" novalidate>
    ${csrfField(csrf)}
    ${field({ name: 'name', label: 'Name', value: values.name, errors, required: true, maxlength: MAX_KEY_NAME_LENGTH, hint: 'Say what uses it, e.g. "ERP sync (production)".' })}
    ${permissionFieldset(chosen, values.allPermissions === true, errors)}
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

/**
 * One bar of aligned controls (search, status, mode, the button), the hint on a line of its own
 * under them: not Pico's role="search" group, which would fuse the controls into one pill. A named
 * form is a landmark of its own.
 */
function searchForm(search: KeySearch): SafeHtml {
  const option = (value: string, label: string, chosen: string | undefined) =>
    html`<option value="${value}"${chosen === value ? html` selected` : ''}>${label}</option>`;
  const filtered = Boolean(search.query || search.status || search.mode);
  return html`<form method="get" action="${PANEL_PATH}/keys" class="filter-bar" aria-label="Find keys">
  <div class="filter-field filter-query"><label for="q">Search</label>
    <input id="q" name="q" type="search" value="${search.query ?? ''}" maxlength="${MAX_KEY_NAME_LENGTH}" aria-describedby="q-hint"></div>
  <div class="filter-field"><label for="status">Status</label>
    <select id="status" name="status">${option('', 'Any status', search.status)}${option('active', 'Active', search.status)}${option('revoked', 'Revoked', search.status)}${option('expired', 'Expired', search.status)}</select></div>
  <div class="filter-field"><label for="mode">Mode</label>
    <select id="mode" name="mode">${option('', 'Live and test', search.mode)}${option('live', 'Live', search.mode)}${option('test', 'Test', search.mode)}</select></div>
  <div class="filter-actions"><button type="submit" class="secondary">Search keys</button>${filtered ? html`<a href="${PANEL_PATH}/keys">Show all keys</a>` : ''}</div>
  <small id="q-hint" class="filter-hint">Search matches part of a key’s label or its prefix.</small>
</form>`;
}

function keyActions(k: ApiKeySummary): SafeHtml {
  const name = html`<span class="visually-hidden"> ${k.name}</span>`;
  const rename = html`<a href="${PANEL_PATH}/keys/${k.id}/rename">Rename${name}</a>`;
  // A revoked or expired key can no longer be revoked or rolled; a rolled key not rolled again.
  if (k.status !== 'active') return rename;
  const roll = k.replacedBy === null ? html` · <a href="${PANEL_PATH}/keys/${k.id}/roll">Roll${name}</a>` : '';
  return html`${rename}${roll} · <a href="${PANEL_PATH}/keys/${k.id}/revoke" class="danger-link">Revoke${name}</a>`;
}

function keyTable(user: PanelUser, model: KeysPageModel): SafeHtml {
  const { keys, allKeys, creators } = model;
  if (allKeys.length === 0) {
    return html`<div class="empty-state"><p><strong>No API keys yet.</strong></p>
<p>${isPrivileged(user.role) ? 'Create one below to let an application call the API.' : 'An owner or admin of your company can create one.'}</p></div>`;
  }
  if (keys.length === 0)
    return html`${searchForm(model.search)}<p class="empty-state" role="status"><strong>No key matches this search.</strong></p>`;
  const privileged = isPrivileged(user.role);
  const prefixes = new Map(allKeys.map((k) => [k.id, k.prefix]));
  return html`${searchForm(model.search)}<div class="table-scroll" tabindex="0" role="region" aria-label="API keys"><table class="striped">
  <caption class="visually-hidden">${keys.length === allKeys.length ? `${keys.length} keys` : `${keys.length} of ${allKeys.length} keys`}</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Mode</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Status</th>${privileged ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
  <tbody>
  ${keys.map(
    (k) => html`<tr data-key-id="${k.id}">
    <th scope="row">${k.name}</th>
    <td><code>${k.prefix}</code></td>
    <td><span class="badge badge-mode-${k.mode}">${k.mode}</span></td>
    <td class="perms">${permissionBadges(k.permissions)}</td>
    <td>${time(k.createdAt)}<br><small class="muted">by ${creatorOf(k.createdBy, creators)}</small></td>
    <td>${time(k.lastUsedAt, 'never')}</td>
    <td>${time(k.expiresAt, 'never')}</td>
    <td>${statusBadge(k.status)}${k.replacedBy ? html`<br><small class="muted">rolled to <code>${prefixes.get(k.replacedBy) ?? k.replacedBy}</code></small>` : ''}</td>
    ${privileged ? html`<td>${keyActions(k)}</td>` : ''}
  </tr>`,
  )}
  </tbody>
</table></div>`;
}

function eventText(e: KeyEvent): SafeHtml {
  const key = html`<strong>${e.keyName}</strong> (<code>${e.keyPrefix}</code>)`;
  switch (e.action) {
    case 'create':
      return html`created key ${key}`;
    case 'revoke':
      return html`revoked key ${key}`;
    case 'rename':
      return html`renamed key <strong>${e.previousName}</strong> to ${key}`;
    case 'roll':
      return html`rolled key ${key} to <code>${e.successorPrefix}</code>; the old key works until ${time(e.oldKeyUntil)}`;
  }
}

function activity(events: KeyEvent[]): SafeHtml {
  return html`<section aria-labelledby="activity-heading">
  <h2 id="activity-heading">Activity</h2>
  ${
    events.length === 0
      ? html`<p class="muted">No key has been created, changed or revoked yet.</p>`
      : html`<ul class="activity">${events.map((e) => html`<li>${time(e.at)} — <strong>${e.actor}</strong> ${eventText(e)}</li>`)}</ul>`
  }
</section>`;
}

export function keysPage(chrome: Chrome & { user: PanelUser }, model: KeysPageModel): string {
  const privileged = isPrivileged(chrome.user.role);
  return layout(
    'API keys',
    { ...chrome, active: 'keys' },
    html`<hgroup><h1>API keys</h1><p>Settings · keys let your applications call the API. The full key is shown once, when it is created.</p></hgroup>
${notice(model.notice)}
${keyTable(chrome.user, model)}
${privileged ? createForm(chrome.csrf, model.values ?? {}, model.errors) : html`<p class="muted">Your role (member) can see keys but not create, change or revoke them.</p>`}
${activity(model.events)}`,
  );
}

export interface RevealedKey {
  key: string;
  summary: ApiKeySummary;
  /** For a rolled key: the key it replaces, as it is now. */
  replaces?: ApiKeySummary;
}

function replacedNote(old: ApiKeySummary | undefined): SafeHtml {
  if (!old) return html``;
  if (old.status !== 'active')
    return html`<p>It replaces key <code>${old.prefix}</code>, which is refused from now on.</p>`;
  return html`<p>It replaces key <code>${old.prefix}</code>, which keeps working until ${time(old.expiresAt)}. Deploy the new key before then.</p>`;
}

export function revealPage(chrome: Chrome & { user: PanelUser }, revealed: RevealedKey | null): string {
  const body = revealed
    ? html`<article class="reveal">
  <header><h1>Your new API key</h1></header>
  <p class="notice notice-warning" role="alert"><strong>Copy this key now. It will not be shown again.</strong> We store only a hash of it; if you lose it, revoke it and create another.</p>
  <p>Key <strong>${revealed.summary.name}</strong> with ${permissionText(revealed.summary.permissions)}:</p>
  ${replacedNote(revealed.replaces)}
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
