// The one permission catalogue. The API routes, the CLI and the panel all read it from here.
export const PERMISSIONS = {
  'invoice.create': 'Create sales invoices and drafts',
  'invoice.read': 'Read sales invoices (one by id, or lists)',
  'invoice.update': 'Edit and finalize drafts, void invoices',
  'invoice.delete': 'Delete drafts',
  'invoice.send': 'Send issued invoices by email',
  'payment.create': 'Record payments and refunds of invoices, and payments of purchase invoices',
  'payment.read': 'Read payments and refunds (one by id, or lists)',
  'credit-note.create': 'Issue credit notes',
  'credit-note.read': 'Read credit notes (one by id, or lists)',
  'credit-note.send': 'Send credit notes by email',
  'organization.create': 'Create organizations (contacts)',
  'organization.read': 'Read organizations (one by id, or lists)',
  'organization.update': 'Edit, archive and restore organizations',
  'company.read': "Read the company's seller profile",
  'company.update': "Change the company's seller profile",
  'event.read': 'Read events (what changed, as it was answered)',
  'webhook.manage': 'Create, change, delete and read webhook endpoints; resend events',
  'purchase-invoice.create': 'Receive e-invoices from suppliers (upload a purchase invoice or credit note)',
  'purchase-invoice.read': 'Read received purchase invoices, their originals, attachments and renderings',
  'purchase-invoice.update': 'Approve or dispute received purchase invoices',
  'quote.create': 'Create quotes and drafts of quotes',
  'quote.read': 'Read quotes (one by id, or lists)',
  'quote.update':
    'Edit drafts of quotes, send, accept and decline quotes, rotate their hosted page links, and make invoices of accepted ones (without invoice.create)',
  'quote.delete': 'Delete drafts of quotes',
  'recurring-invoice.manage':
    'Create, read, change, pause, resume and end recurring invoices (their runs make invoices without invoice.create)',
} as const;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export function isPermission(value: string): value is Permission {
  return Object.hasOwn(PERMISSIONS, value);
}

/** The resource a permission is about: `credit-note` for `credit-note.read`. */
export function permissionResource(permission: Permission): string {
  return permission.slice(0, permission.indexOf('.'));
}

/** What a permission lets one do to its resource: `read` for `credit-note.read`. */
export function permissionAction(permission: Permission): string {
  return permission.slice(permission.indexOf('.') + 1);
}

/** The catalogue by resource, in its own order: what the panel groups keys' permissions by. */
export const PERMISSION_GROUPS: readonly { resource: string; permissions: readonly Permission[] }[] =
  PERMISSION_NAMES.reduce<{ resource: string; permissions: Permission[] }[]>((groups, permission) => {
    const resource = permissionResource(permission);
    const group = groups.find((g) => g.resource === resource);
    if (group) group.permissions.push(permission);
    else groups.push({ resource, permissions: [permission] });
    return groups;
  }, []);

/** A key's stored permissions (a JSON array) as the permissions it grants; names no longer in the catalogue grant nothing. */
export function parsePermissions(json: string): Permission[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((p): p is Permission => typeof p === 'string' && isPermission(p)) : [];
}
