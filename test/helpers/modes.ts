import type { KeyMode } from '../../src/auth/api-key.js';

// The API behaves the same with live and test keys; suites that say so run once per mode, as
// they run once per database. Test mode's numbers carry a TEST- prefix.

export const MODES: readonly KeyMode[] = ['live', 'test'];

/** The prefix a mode puts before invoice and credit-note numbers. */
export function numberPrefix(mode: KeyMode): string {
  return mode === 'test' ? 'TEST-' : '';
}
