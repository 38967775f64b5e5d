import { html, type SafeHtml } from '../html.js';
import { scrollTable } from './table.js';
import { MIN_PASSWORD_LENGTH } from '../password.js';
import { isPrivileged, ROLES, type PanelUser, type UserRole } from '../users.js';
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

function roleSelect(
  id: string,
  roles: UserRole[],
  selected: string | undefined,
  errors?: FieldErrors,
  label?: string,
): SafeHtml {
  return html`<select id="${id}" name="role"${errors?.role ? html` aria-invalid="true"` : ''}${describedBy(id === 'role' ? 'role' : id, errors)}${label ? html` aria-label="${label}"` : ''}${firstError(errors) === 'role' ? html` autofocus` : ''}>
  ${roles.map((r) => html`<option value="${r}"${r === selected ? html` selected` : ''}>${r}</option>`)}
</select>`;
}

/**
 * What each role sees and may do, as the routes enforce it (requirePrivileged on every change;
 * UserService for the owner rules). Shown on the Users page so that nobody has to guess.
 */
export const ROLE_DESCRIPTIONS: Record<UserRole, { summary: string; may: string[] }> = {
  owner: {
    summary: 'Everything an admin does, and the owners.',
    may: [
      'Grants the owner role, and changes or deactivates other owners.',
      'A company always keeps at least one active owner.',
    ],
  },
  admin: {
    summary: 'Sees what a member sees, and manages keys, webhooks, users and the company.',
    may: [
      'Creates, rolls, renames and revokes API keys.',
      'Adds, enables, disables and deletes webhook endpoints, rotates their secrets, resends events and sends test events.',
      'Adds users, and changes the role of, deactivates and reactivates members and admins.',
      'Edits the company profile and deletes test data.',
    ],
  },
  member: {
    summary: 'Sees keys, webhooks, users, the company and the records; changes only their own password.',
    may: [
      'Sees the API keys (name, prefix, permissions, use; never a key itself), the webhook endpoints and their deliveries, the users and the company profile.',
      'Sees the organizations, invoices and credit notes, in live and test data.',
    ],
  },
};

function roleGuide(): SafeHtml {
  return html`<section aria-labelledby="roles-heading" class="role-guide">
  <h2 id="roles-heading">Roles</h2>
  <dl>
  ${ROLES.map(
    (role) => html`<dt><span class="role role-${role}">${role}</span> ${ROLE_DESCRIPTIONS[role].summary}</dt>
    <dd><ul>${ROLE_DESCRIPTIONS[role].may.map((line) => html`<li>${line}</li>`)}</ul></dd>`,
  )}
  </dl>
  <p class="muted"><small>Nobody changes their own role or deactivates their own account: another owner or admin does. Everyone changes their own password on <a href="${PANEL_PATH}/account">Account</a>; a user added here chooses their own at first sign-in.</small></p>
</section>`;
}

function userRow(actor: PanelUser, u: PanelUser, csrf: string): SafeHtml {
  // Not one's own row: one's own role and activity are another owner's or admin's to change.
  const manageable = isPrivileged(actor.role) && u.id !== actor.id && (actor.role === 'owner' || u.role !== 'owner');
  return html`<tr data-user-id="${u.id}">
  <th scope="row">${u.email}${u.id === actor.id ? html` <small class="muted">(you)</small>` : ''}</th>
  <td><span class="role role-${u.role}">${u.role}</span></td>
  <td>${u.active ? html`<span class="badge badge-active">active</span>` : html`<span class="badge badge-revoked">deactivated</span>`}${u.active && u.mustChangePassword ? html`<br><small class="muted">chooses a password at next sign-in</small>` : ''}</td>
  <td>${time(u.createdAt)}</td>
  ${
    isPrivileged(actor.role)
      ? html`<td>${
          manageable
            ? html`<div class="row-actions">
      <form method="post" action="${PANEL_PATH}/users/${u.id}/role" class="inline">
        ${csrfField(csrf)}
        ${roleSelect(`role-${u.id}`, grantableRoles(actor), u.role, undefined, `Role of ${u.email}`)}
        <button type="submit" class="secondary outline small">Change role<span class="visually-hidden"> of ${u.email}</span></button>
      </form>
      <form method="post" action="${PANEL_PATH}/users/${u.id}/${u.active ? 'deactivate' : 'activate'}" class="inline">
        ${csrfField(csrf)}
        <button type="submit" class="${u.active ? 'danger' : 'secondary'} outline small">${u.active ? 'Deactivate' : 'Reactivate'}<span class="visually-hidden"> ${u.email}</span></button>
      </form></div>`
            : ''
        }</td>`
      : ''
  }
</tr>`;
}

export function usersPage(chrome: Chrome & { user: PanelUser }, model: UsersPageModel): string {
  const actor = chrome.user;
  const privileged = isPrivileged(actor.role);
  const errors = model.errors;
  return layout(
    'Users',
    { ...chrome, active: 'users' },
    html`<hgroup><h1>Users</h1><p>The people who sign in to this panel for your company, and what their role lets them do.</p></hgroup>
${notice(model.notice)}
${scrollTable(
  'Users',
  html`<table class="striped">
  <thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Added</th>${privileged ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : ''}</tr></thead>
  <tbody>${model.users.map((u) => userRow(actor, u, chrome.csrf))}</tbody>
</table>`,
)}
${roleGuide()}
${
  privileged
    ? html`<article id="create-user">
  <header><h2>Add a user</h2></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/users" novalidate>
    ${csrfField(chrome.csrf)}
    ${field({ name: 'email', label: 'Email', type: 'email', value: model.values?.email, errors, required: true, autocomplete: 'off' })}
    <label for="role">Role</label>
    ${roleSelect('role', grantableRoles(actor), model.values?.role ?? 'member', errors)}
    ${fieldMessages('role', errors)}
    ${field({ name: 'password', label: 'Initial password', type: 'password', errors, required: true, minlength: MIN_PASSWORD_LENGTH, autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters. Give it to them over a channel you trust: they must replace it with their own when they first sign in.` })}
    <button type="submit">Add user</button>
  </form>
</article>`
    : ''
}`,
  );
}
