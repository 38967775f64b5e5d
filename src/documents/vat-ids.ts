// VAT identification numbers of the EU member states (and of Northern Ireland, XI), as VIES
// checks their format: the country prefix (EL for Greece) and what follows it. A data table,
// one row per prefix: the pattern, and the format in words with an example for the message of a
// refusal. Check digits are not verified (each state has its own algorithm, and VIES is the
// authority on whether a number exists).

export interface VatIdFormat {
  pattern: RegExp;
  /** What follows the prefix, in words. */
  format: string;
  example: string;
}

export const EU_VAT_ID_FORMATS: Record<string, VatIdFormat> = {
  AT: { pattern: /^ATU\d{8}$/, format: 'U + 8 digits', example: 'ATU12345678' },
  BE: { pattern: /^BE[01]\d{9}$/, format: '10 digits, the first 0 or 1', example: 'BE0123456789' },
  BG: { pattern: /^BG\d{9,10}$/, format: '9 or 10 digits', example: 'BG123456789' },
  CY: { pattern: /^CY\d{8}[A-Z]$/, format: '8 digits + 1 letter', example: 'CY12345678X' },
  CZ: { pattern: /^CZ\d{8,10}$/, format: '8, 9 or 10 digits', example: 'CZ12345678' },
  DE: { pattern: /^DE\d{9}$/, format: '9 digits', example: 'DE123456789' },
  DK: { pattern: /^DK\d{8}$/, format: '8 digits', example: 'DK12345678' },
  EE: { pattern: /^EE\d{9}$/, format: '9 digits', example: 'EE123456789' },
  EL: { pattern: /^EL\d{9}$/, format: '9 digits', example: 'EL123456789' },
  ES: {
    pattern: /^ES(?:[A-Z]\d{7}[A-Z0-9]|\d{8}[A-Z])$/,
    format: '9 characters: a letter + 7 digits + a letter or digit, or 8 digits + a letter',
    example: 'ESB12345678',
  },
  FI: { pattern: /^FI\d{8}$/, format: '8 digits', example: 'FI12345678' },
  FR: {
    pattern: /^FR[0-9A-HJ-NP-Z]{2}\d{9}$/,
    format: '2 characters (digits, or letters other than I and O) + 9 digits',
    example: 'FR12345678901',
  },
  HR: { pattern: /^HR\d{11}$/, format: '11 digits', example: 'HR12345678901' },
  HU: { pattern: /^HU\d{8}$/, format: '8 digits', example: 'HU12345678' },
  IE: {
    pattern: /^IE(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/,
    format: '7 digits + 1 or 2 letters, or a digit + a letter, + or * + 5 digits + a letter',
    example: 'IE1234567T',
  },
  IT: { pattern: /^IT\d{11}$/, format: '11 digits', example: 'IT12345678901' },
  LT: { pattern: /^LT(?:\d{9}|\d{12})$/, format: '9 or 12 digits', example: 'LT123456789' },
  LU: { pattern: /^LU\d{8}$/, format: '8 digits', example: 'LU12345678' },
  LV: { pattern: /^LV\d{11}$/, format: '11 digits', example: 'LV12345678901' },
  MT: { pattern: /^MT\d{8}$/, format: '8 digits', example: 'MT12345678' },
  NL: { pattern: /^NL\d{9}B\d{2}$/, format: '9 digits + B + 2 digits', example: 'NL123456789B01' },
  PL: { pattern: /^PL\d{10}$/, format: '10 digits', example: 'PL1234567890' },
  PT: { pattern: /^PT\d{9}$/, format: '9 digits', example: 'PT123456789' },
  RO: { pattern: /^RO[1-9]\d{1,9}$/, format: '2 to 10 digits, the first not 0', example: 'RO1234567890' },
  SE: { pattern: /^SE\d{10}01$/, format: '12 digits, the last two 01', example: 'SE123456789701' },
  SI: { pattern: /^SI\d{8}$/, format: '8 digits', example: 'SI12345678' },
  SK: { pattern: /^SK\d{10}$/, format: '10 digits', example: 'SK1234567890' },
  XI: {
    pattern: /^XI(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/,
    format: '9 or 12 digits (government departments GD + 3 digits, health authorities HA + 3 digits)',
    example: 'XI123456789',
  },
};

const STATE_NAMES: Record<string, string> = { EL: 'Greece', XI: 'Northern Ireland' };
const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

function stateName(prefix: string): string {
  return STATE_NAMES[prefix] ?? regionNames.of(prefix) ?? prefix;
}

export type VatIdCheck = { ok: true; value: string } | { ok: false; message: string };

/**
 * A VAT id: one with an EU prefix (or XI, or GR, which Greece does not use) must have its
 * state's format, and is stored upper-cased without spaces; any other (GB…, CHE-…, NO…MVA, a
 * Japanese T…) is taken as given, as there is no table of the world's formats here.
 */
export function checkVatId(raw: string): VatIdCheck {
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  const prefix = compact.slice(0, 2);
  if (prefix === 'GR')
    return {
      ok: false,
      message: `A Greek VAT id starts with EL, not GR: EL + ${EU_VAT_ID_FORMATS.EL!.format}, e.g. ${EU_VAT_ID_FORMATS.EL!.example}.`,
    };
  const format = EU_VAT_ID_FORMATS[prefix];
  if (!format) return { ok: true, value: raw.trim() };
  if (!format.pattern.test(compact)) {
    return {
      ok: false,
      message: `A VAT id of ${stateName(prefix)} is ${prefix} + ${format.format}, e.g. ${format.example}.`,
    };
  }
  return { ok: true, value: compact };
}
