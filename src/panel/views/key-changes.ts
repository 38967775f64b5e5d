import type { ApiKeySummary } from '../../services/api-key-service.js';
import { MAX_KEY_NAME_LENGTH, MAX_ROLL_OVERLAP_HOURS } from '../../services/api-key-service.js';
import { html } from '../html.js';
import type { PanelUser } from '../users.js';
import { csrfField, describedBy, field, fieldMessages, formErrorSummary, time, type FieldErrors } from './forms.js';
import { layout, PANEL_PATH, type Chrome } from './layout.js';
import { permissionText } from './permissions.js';

// The pages that change one key: revoke (a confirmation), roll (with its overlap) and rename.

type KeyChrome = Chrome & { user: PanelUser };

export function revokeConfirmPage(chrome: KeyChrome, key: ApiKeySummary): string {
  return layout(
    'Revoke key',
    { ...chrome, active: 'keys' },
    html`<article class="narrow">
  <header><h1>Revoke “${key.name}”?</h1></header>
  <p>Key <code>${key.prefix}</code> (${permissionText(key.permissions)}) stops working immediately: every request with it is refused with 401. This cannot be undone.</p>
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

export function rollPage(
  chrome: KeyChrome,
  key: ApiKeySummary,
  values: { overlapHours: string },
  errors?: FieldErrors,
): string {
  const hint = `Up to ${MAX_ROLL_OVERLAP_HOURS} hours (7 days). 0 revokes the old key at once.`;
  return layout(
    'Roll key',
    { ...chrome, active: 'keys' },
    html`<article class="narrow">
  <header><h1>Roll “${key.name}”</h1></header>
  <p>Rolling issues a new key with the same name, permissions, mode and expiry (${time(key.expiresAt, 'none')}) and shows it once.
  The old key <code>${key.prefix}</code> keeps working for the overlap, so that you can deploy the new one first; then it is refused.</p>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/keys/${key.id}/roll" novalidate>
    ${csrfField(chrome.csrf)}
    <label for="overlapHours">Overlap in hours</label>
    <input id="overlapHours" name="overlapHours" type="number" min="0" max="${MAX_ROLL_OVERLAP_HOURS}" step="any" inputmode="decimal" value="${values.overlapHours}" required${errors?.overlapHours ? html` aria-invalid="true" autofocus` : ''}${describedBy('overlapHours', errors, hint)}>
    ${fieldMessages('overlapHours', errors, hint)}
    <div class="actions">
      <button type="submit">Roll key</button>
      <a href="${PANEL_PATH}/keys" role="button" class="secondary outline">Cancel</a>
    </div>
  </form>
</article>`,
  );
}

export function renamePage(
  chrome: KeyChrome,
  key: ApiKeySummary,
  values: { name: string },
  errors?: FieldErrors,
): string {
  return layout(
    'Rename key',
    { ...chrome, active: 'keys' },
    html`<article class="narrow">
  <header><h1>Rename “${key.name}”</h1></header>
  <p>Key <code>${key.prefix}</code> keeps working as before; only its label changes.</p>
  ${formErrorSummary(errors)}
  <form method="post" action="${PANEL_PATH}/keys/${key.id}/rename" novalidate>
    ${csrfField(chrome.csrf)}
    ${field({ name: 'name', label: 'Name', value: values.name, errors, required: true, maxlength: MAX_KEY_NAME_LENGTH, autofocus: true })}
    <div class="actions">
      <button type="submit">Rename key</button>
      <a href="${PANEL_PATH}/keys" role="button" class="secondary outline">Cancel</a>
    </div>
  </form>
</article>`,
  );
}
