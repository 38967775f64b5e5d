import { Decimal } from '../../money/decimal.js';
import { UNCL5189, UNCL5305, UNCL7161 } from '../code-lists.js';
import { UNIT_CODES } from '../unit-codes.js';
import type { DocumentView } from '../model.js';
import { ALLOWANCE_REASONS, CHARGE_REASONS, EXEMPTION_TEXTS, UNIT_NAMES } from './code-names.js';
import type { PdfLanguage } from './labels.js';

// Numbers, amounts, dates and country names as people of each language write them, by Intl.
// Decimals are passed to Intl as strings, so amounts are formatted exactly, never through a
// float. French groups digits with a narrow no-break space (U+202F), which the font has.

export interface Formatters {
  money: (amount: string) => string;
  number: (value: string) => string;
  percent: (rate: string) => string;
  date: (date: string) => string;
  unit: (code: string) => string;
  /** ISO 3166-1 alpha-2 to the country's name in the language ("DE" → "Allemagne"). */
  country: (code: string) => string;
  /** An allowance (UNCL5189) or charge (UNCL7161) reason code's name. */
  reason: (kind: 'allowance' | 'charge', code: string) => string;
  /** A VAT exemption text: the service's own default (in English in the document) in the language; a text the invoice gave, as it is. */
  exemption: (text: string, code: string | null) => string;
}

/** The English text written by default for each VATEX code (code-lists.ts). */
const DEFAULT_EXEMPTIONS = new Map(
  Object.values(UNCL5305)
    .map((rules) => rules.defaultExemption)
    .filter((e) => e !== null)
    .map((e) => [e.code, e.text]),
);

const cache = new Map<string, Formatters>();
const DECIMAL = /^-?\d+(\.\d+)?$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function formattersFor(lang: PdfLanguage, currency: DocumentView['currency']): Formatters {
  const key = `${lang}|${currency.code}|${currency.minorDigits}`;
  let formatters = cache.get(key);
  if (!formatters) {
    const money = new Intl.NumberFormat(lang, {
      style: 'currency',
      currency: currency.code,
      minimumFractionDigits: currency.minorDigits,
      maximumFractionDigits: currency.minorDigits,
    });
    const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 6 });
    const percent = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 4 });
    const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    const countries = new Intl.DisplayNames([lang], { type: 'region', fallback: 'code' });
    // Intl formats decimal strings exactly (NumberFormat v3); the cast only widens the type. Text
    // that is no decimal (a received document may write anything) is shown as it is written.
    const exact = (format: Intl.NumberFormat) => (value: string) =>
      DECIMAL.test(value) ? format.format(value as unknown as number) : value;
    formatters = {
      money: exact(money),
      number: exact(number),
      // "19%" in English, "19 %" in German and French, each with its own no-break space.
      percent: (rate) => (DECIMAL.test(rate) ? exact(percent)(new Decimal(rate).div(100).toFixed()) : rate),
      date: (text) =>
        DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
          ? date.format(new Date(`${text}T00:00:00Z`))
          : text,
      unit: (code) => UNIT_NAMES[lang][code] ?? UNIT_CODES[code] ?? code,
      country: (code) => (/^[A-Z]{2}$/.test(code) ? (countries.of(code) ?? code) : code),
      reason: (kind, code) =>
        kind === 'allowance'
          ? ((lang === 'en' ? undefined : ALLOWANCE_REASONS[lang][code]) ?? UNCL5189[code] ?? code)
          : ((lang === 'en' ? undefined : CHARGE_REASONS[lang][code]) ?? UNCL7161[code] ?? code),
      exemption: (text, code) =>
        lang !== 'en' && code !== null && DEFAULT_EXEMPTIONS.get(code) === text
          ? (EXEMPTION_TEXTS[lang][code] ?? text)
          : text,
    };
    cache.set(key, formatters);
  }
  return formatters;
}
