// Checks of identifier formats that the official rules test: GS1 and mod-11 check digits
// (PEPPOL-COMMON-R040…R050), IBAN (BR-DE-19/20), ISO 3166 country codes (BR-CL-14).

import { COUNTRIES_UBL } from './rules/code-list-data.js';

/**
 * ISO 3166-1 alpha-2 as EN 16931 lists it (BR-CL-14, and the VAT prefixes of BR-CO-9), with the
 * codes it adds (1A Kosovo, XI Northern Ireland). Not whatever ICU can name: that also knows UK,
 * EU, XK, ZZ and other codes the official rules refuse.
 */
export function isCountryCode(code: string): boolean {
  return COUNTRIES_UBL.has(code);
}

/** A GS1 key (GLN, 0088): digits whose last is the mod-10 check digit with weights 3 and 1 from the right. */
export function isGln(value: string): boolean {
  if (!/^\d+$/.test(value)) return false;
  const digits = [...value].map(Number);
  const check = digits.pop()!;
  const total = digits.reverse().reduce((sum, digit, i) => sum + digit * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (total % 10)) % 10 === check;
}

/** Norwegian organisation number (0192): nine digits, mod 11 with weights 3 2 7 6 5 4 3 2. */
export function isNorwegianOrgNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const total = weights.reduce((sum, w, i) => sum + w * Number(value[i]), 0);
  const check = (11 - (total % 11)) % 11;
  return check !== 10 && check === Number(value[8]);
}

/** Australian Business Number (0151): eleven digits, weighted mod 89 after subtracting 1 from the first. */
export function isAbn(value: string): boolean {
  if (!/^\d{11}$/.test(value)) return false;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const digits = [...value].map(Number);
  digits[0] = digits[0]! - 1;
  return digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 89 === 0;
}

/** IBAN: country, check digits and account, valid by ISO 7064 mod 97-10. */
export function isIban(value: string): boolean {
  const iban = value.replace(/\s+/g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const code = ch >= 'A' ? String(ch.charCodeAt(0) - 55) : ch;
    for (const digit of code) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}

/** Belgian enterprise number (0208): ten digits, the last two 97 − (first eight mod 97). */
export function isBelgianEnterpriseNumber(value: string): boolean {
  return /^\d{10}$/.test(value) && 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/** Swedish organisation number (0007): ten digits, Luhn check digit over the first nine. */
export function isSwedishOrgNumber(value: string): boolean {
  if (!/^\d{10}$/.test(value)) return false;
  const main = value.slice(0, 9);
  let total = 0;
  for (let pos = 1; pos <= 9; pos++) {
    const digit = Number(main[9 - pos]);
    total += pos % 2 === 1 ? ((digit * 2) % 10) + Math.floor((digit * 2) / 10) : digit;
  }
  return (10 - (total % 10)) % 10 === Number(value[9]);
}

/** The scheme-specific checks Peppol makes, by ICD/EAS scheme; schemes without one pass. */
export const PEPPOL_SCHEME_CHECKS: Record<string, { rule: string; test: (value: string) => boolean; what: string }> = {
  '0088': { rule: 'PEPPOL-COMMON-R040', test: isGln, what: 'a GLN with a valid GS1 check digit' },
  '0192': {
    rule: 'PEPPOL-COMMON-R041',
    test: isNorwegianOrgNumber,
    what: 'a Norwegian organisation number (nine digits, valid check digit)',
  },
  '0184': {
    rule: 'PEPPOL-COMMON-R042',
    test: (v) => /^(DK)?\d{8}$/.test(v) && (v.length === 8 || v.length === 10),
    what: 'a Danish CVR number (8 digits, optionally prefixed DK)',
  },
  '0208': {
    rule: 'PEPPOL-COMMON-R043',
    test: isBelgianEnterpriseNumber,
    what: 'a Belgian enterprise number (ten digits, valid check digits)',
  },
  '0007': {
    rule: 'PEPPOL-COMMON-R049',
    test: isSwedishOrgNumber,
    what: 'a Swedish organisation number (ten digits, valid check digit)',
  },
  '0151': {
    rule: 'PEPPOL-COMMON-R050',
    test: isAbn,
    what: 'an Australian Business Number (11 digits, valid check digits)',
  },
};
