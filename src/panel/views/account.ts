import { html } from '../html.js';
import { MIN_PASSWORD_LENGTH } from '../password.js';
import type { PanelUser } from '../users.js';
import { csrfField, field, formErrorSummary, time, type FieldErrors } from './forms.js';
import { layout, notice, PANEL_PATH, type Chrome, type Notice } from './layout.js';

// The signed-in user's own account: who they are, and changing their password.

export function accountPage(
  chrome: Chrome & { user: PanelUser },
  model: { errors?: FieldErrors; notice?: Notice },
): string {
  const user = chrome.user;
  const errors = model.errors;
  return layout(
    'Your account',
    { ...chrome, active: 'account' },
    html`<hgroup><h1>Your account</h1><p>Signed in as ${user.email}.</p></hgroup>
${notice(model.notice)}
<dl class="facts">
  <dt>Email</dt><dd>${user.email}</dd>
  <dt>Role</dt><dd><span class="role role-${user.role}">${user.role}</span></dd>
  <dt>Member since</dt><dd>${time(user.createdAt)}</dd>
</dl>
<article id="password" class="narrow">
  <header><h2>Change your password</h2><p>Every other browser signed in to your account is signed out; this one stays signed in.</p></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/account/password" novalidate>
    ${csrfField(chrome.csrf)}
    <input type="text" name="username" value="${user.email}" autocomplete="username" hidden>
    ${field({ name: 'currentPassword', label: 'Current password', type: 'password', errors, required: true, autocomplete: 'current-password' })}
    ${field({ name: 'newPassword', label: 'New password', type: 'password', errors, required: true, minlength: MIN_PASSWORD_LENGTH, autocomplete: 'new-password', hint: `At least ${MIN_PASSWORD_LENGTH} characters.` })}
    ${field({ name: 'newPasswordConfirm', label: 'Repeat the new password', type: 'password', errors, required: true, autocomplete: 'new-password' })}
    <button type="submit">Change password</button>
  </form>
</article>`,
  );
}

/**
 * The one page a user whose password someone else set can reach: choose their own. No menu (every
 * other page leads back here until it is done), but a way to sign out.
 */
export function passwordRequiredPage(
  csrf: string,
  user: PanelUser,
  model: { errors?: FieldErrors; returnTo?: string | undefined },
): string {
  const errors = model.errors;
  return layout(
    'Choose your password',
    { csrf },
    html`<article class="narrow" id="password">
  <header><h1>Choose your own password</h1>
  <p>Your password for <strong>${user.email}</strong> was set by someone else: an owner or admin of your company, or the operator of this service. Choose one that only you know before you continue.</p></header>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/change-password" novalidate>
    ${csrfField(csrf)}
    ${model.returnTo ? html`<input type="hidden" name="return" value="${model.returnTo}">` : ''}
    <input type="text" name="username" value="${user.email}" autocomplete="username" hidden>
    ${field({ name: 'newPassword', label: 'New password', type: 'password', errors, required: true, minlength: MIN_PASSWORD_LENGTH, autocomplete: 'new-password', autofocus: !errors, hint: `At least ${MIN_PASSWORD_LENGTH} characters, not the one you were given.` })}
    ${field({ name: 'newPasswordConfirm', label: 'Repeat the new password', type: 'password', errors, required: true, autocomplete: 'new-password' })}
    <button type="submit">Save password and continue</button>
  </form>
  <form method="post" action="${PANEL_PATH}/sign-out" class="inline">
    ${csrfField(csrf)}
    <button type="submit" class="secondary outline small">Sign out instead</button>
  </form>
</article>`,
  );
}
