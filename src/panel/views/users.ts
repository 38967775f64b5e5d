import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import { MIN_PASSWORD_LENGTH } from '../password.js';
import { isPrivileged, type PanelUser, type UserRole } from '../users.js';
import { csrfField, describedBy, field, fieldMessages, firstError, formErrorSummary, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';

export interface UsersPageModel {
  users: PanelUser[];
  values?: { email?: string; role?: string };
  errors?: FieldErrors;
  notice?: Notice;
}

/** The roles this actor may hand out: only owners make owners. */
export function grantableRoles(actor: PanelUser): UserRole[] {
  return actor.role === 'owner' ? ['member', 'admin', 'owner'] : ['member', 'admin'];
}

function roleSelect(id: string, roles: UserRole[], selected: string | undefined, errors?: FieldErrors, label?: string): SafeHtml {
  return html`<select id="${id}" name="role"${errors?.role ? html` aria-invalid="true"` : ''}${describedBy(id === 'role' ? 'role' : id, errors)}${label ? html` aria-label="${label}"` : ''}${firstError(errors) === 'role' ? html` autofocus` : ''}>
  ${roles.map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${r}</option>`)}
</select>`;
}

function userRow(actor: PanelUser, u: PanelUser, csrf: string): SafeHtml {
  const manageable = isPrivileged(actor.role) && (actor.role === 'owner' || u.role !== 'owner');
  return html`<tr data-user-id="${u.id}">
  <th scope="row">${u.email}${u.id === actor.id ? html` <small class="muted">(you)</small>` : ''}</th>
  <td><span class="role role-${u.role}">${u.role}</span></td>
  <td>${u.active ? html`<span class="badge badge-active">active</span>` : html`<span class="badge badge-revoked">deactivated</span>`}</td>
  <td>${time(u.createdAt)}</td>
  ${isPrivileged(actor.role)
    ? html`<td>${manageable
        ? html`<div class="row-actions">
      <form method="post" action="${PANEL_PATH}/users/${u.id}/role" class="inline">
        ${csrfField(csrf)}
        ${roleSelect(`role-${u.id}`, grantableRoles(actor), u.role, undefined, `Role of ${u.email}`)}
        <button type="submit" class="secondary outline small">Change role</button>
      </form>
      ${u.id === actor.id
        ? ''
        : html`<form method="post" action="${PANEL_PATH}/users/${u.id}/${u.active ? 'deactivate' : 'activate'}" class="inline">
        ${csrfField(csrf)}
        <button type="submit" class="${u.active ? 'danger' : 'secondary'} outline small">${u.active ? 'Deactivate' : 'Reactivate'}<span class="visually-hidden"> ${u.email}</span></button>
      </form>`}</div>`
        : ''}</td>`
    : ''}
</tr>`;
}

export function usersPage(chrome: Chrome & { user: PanelUser }, model: UsersPageModel): string {
  const actor = chrome.user;
  const privileged = isPrivileged(actor.role);
  const errors = model.errors;
  return layout(
    'Users',
    { ...chrome, active: 'users' },
    html`<hgroup><h1>Users</h1><p>Owners and admins create and revoke keys and manage users; members see the key list only.</p></hgroup>
${notice(model.notice)}
${scrollTable('Users', html`<table class="striped">
  <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Added</th>${privileged ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
  <tbody>${model.users.map((u) => userRow(actor, u, chrome.csrf))}</tbody>
</table>`)}
${privileged
  ? html`<article id="create-user">
  <header><h2>Add a user</h2></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/users" novalidate>
    ${csrfField(chrome.csrf)}
    ${field({ name: 'email', label: 'Email', type: 'email', value: model.values?.email, errors, required: true, autocomplete: 'off' })}
    <label for="role">Role</label>
    ${roleSelect('role', grantableRoles(actor), model.values?.role ?? 'member', errors)}
    ${fieldMessages('role', errors)}
    ${field({ name: 'password', label: 'Initial password', type: 'password', errors, required: true, minlength: MIN_PASSWORD_LENGTH, autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters. Give it to them over a channel you trust.` })}
    <button type="submit">Add user</button>
  </form>
</article>`
  : ''}`,
  );
}
