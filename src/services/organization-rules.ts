import type { ErrorCode } from '../errors/codes.js';

// The spec's validation rules for creating an organization, in the spec's order. The first
// rule a body breaks decides the answer; type and format problems are the schema's business
// and are looked at only after these.

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

export const ORGANIZATION_TYPE_FLAGS = ['isCustomer', 'isSupplier'] as const;

export function firstBrokenOrganizationRule(body: unknown): ErrorCode | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const input = body as Record<string, unknown>;
  if (isBlank(input.name)) return 'NAME_REQUIRED';
  if (input.typeCode === 'F' && (isBlank(input.firstName) || isBlank(input.lastName))) return 'NAME_FIELDS_REQUIRED';
  if (!ORGANIZATION_TYPE_FLAGS.some((flag) => input[flag] === true)) return 'ORG_TYPE_REQUIRED';
  return null;
}

/**
 * The form under which names are compared for uniqueness: trimmed, NFC-normalised and
 * case-folded ("Straße" and " STRASSE" are the same name). Upper-then-lower casing applies the
 * full Unicode case mappings (ß -> SS -> ss, final sigma), which toLowerCase alone does not.
 */
export function organizationNameKey(name: string): string {
  return name.trim().normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}
