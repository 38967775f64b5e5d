import {
  PERMISSION_GROUPS,
  PERMISSION_NAMES,
  PERMISSIONS,
  permissionAction,
  type Permission,
} from '../../auth/permissions.js';
import { html, type SafeHtml } from '../html.js';
import { describedBy, fieldMessages, firstError, type FieldErrors } from './forms.js';

// A key's permissions as people read them: by resource, with a level (read, write, read & write,
// or the actions held), and "All permissions" for a key that holds the whole catalogue. Every
// grouping comes from the one catalogue (src/auth/permissions.ts): a permission added there shows
// up here, in its resource's group, with nothing to change.

export interface PermissionGroupSummary {
  resource: string;
  /** "read & write", "read", "write", or the actions held ("read, create"). */
  level: string;
}

/** The level of `held` among a resource's permissions. */
function levelOf(all: readonly Permission[], held: readonly Permission[]): string {
  // Read first, then the rest in catalogue order: "read, create".
  const actions = held.map(permissionAction).sort((a, b) => Number(b === 'read') - Number(a === 'read'));
  const writes = all.map(permissionAction).filter((a) => a !== 'read');
  if (held.length === all.length && all.length > 1 && actions.includes('read')) return 'read & write';
  if (!actions.includes('read') && writes.length > 1 && actions.length === writes.length) return 'write';
  return actions.join(', ');
}

export function hasEveryPermission(permissions: readonly string[]): boolean {
  const held = new Set(permissions);
  return PERMISSION_NAMES.every((p) => held.has(p));
}

/** The groups a key holds something of, in catalogue order. */
export function permissionSummary(permissions: readonly string[]): PermissionGroupSummary[] {
  const held = new Set(permissions);
  return PERMISSION_GROUPS.flatMap(({ resource, permissions: all }) => {
    const mine = all.filter((p) => held.has(p));
    return mine.length === 0 ? [] : [{ resource, level: levelOf(all, mine) }];
  });
}

/** One line of text: "all permissions", or "invoice: read & write; payment: read". */
export function permissionText(permissions: readonly string[]): string {
  if (hasEveryPermission(permissions)) return 'all permissions';
  return permissionSummary(permissions)
    .map((g) => `${g.resource}: ${g.level}`)
    .join('; ');
}

/** A table cell's worth: "All permissions", or a short list of resources and levels. */
export function permissionBadges(permissions: readonly string[]): SafeHtml {
  if (hasEveryPermission(permissions)) return html`<span class="perm-all">All permissions</span>`;
  return html`<ul class="perm-groups">${permissionSummary(permissions).map((g) => html`<li><span class="perm-resource">${g.resource}:</span> ${g.level}</li>`)}</ul>`;
}

/**
 * The permission boxes of the create form, by resource, under an "All permissions" box. That box
 * works without JavaScript (the server grants the whole catalogue when it is ticked); panel.js
 * only keeps the boxes in step with it.
 */
export function permissionFieldset(
  chosen: ReadonlySet<string>,
  all: boolean,
  errors: FieldErrors | undefined,
): SafeHtml {
  const invalid = Boolean(errors?.permissions);
  const focus = firstError(errors) === 'permissions';
  return html`<fieldset class="permission-picker"${invalid ? html` aria-invalid="true"` : ''}${describedBy('permissions', errors)}>
  <legend>Permissions</legend>
  <label class="perm-all-choice"><input type="checkbox" name="allPermissions" value="1" id="all-permissions" data-select-all="permissions"${all ? html` checked` : ''}${focus ? html` autofocus` : ''}> <strong>All permissions</strong> <small class="muted">(${PERMISSION_NAMES.length}: every permission below)</small></label>
  <div class="permission-groups">
  ${PERMISSION_GROUPS.map(
    ({ resource, permissions }) => html`<fieldset class="permission-group">
    <legend>${resource}</legend>
    ${permissions.map(
      (p) =>
        html`<label><input type="checkbox" name="permissions" value="${p}"${all || chosen.has(p) ? html` checked` : ''}> <code>${p}</code> <small>${PERMISSIONS[p]}</small></label>`,
    )}
  </fieldset>`,
  )}
  </div>
  ${fieldMessages('permissions', errors)}
</fieldset>`;
}
