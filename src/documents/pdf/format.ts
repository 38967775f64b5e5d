import { UNIT_CODES } from '../unit-codes.js';
import type { DocumentView } from '../model.js';
import { UNIT_NAMES, type PdfLanguage } from './labels.js';

// Numbers, amounts and dates as people of each language write them, by Intl. Decimals are
// passed to Intl as strings, so amounts are formatted exactly, never through a float.

export interface Formatters {
  money: (amount: string) => string;
  number: (value: string) => string;
  percent: (rate: string) => string;
  date: (date: string) => string;
  unit: (code: string) => string;
}

const cache = new Map<string, Formatters>();

export function formattersFor(lang: PdfLanguage, currency: DocumentView['currency']): Formatters {
  const key = `${lang}|${currency.code}|${currency.minorDigits}`;
  let formatters = cache.get(key);
  if (!formatters) {
    const money = new Intl.NumberFormat(lang, { style: 'currency', currency: currency.code, minimumFractionDigits: currency.minorDigits, maximumFractionDigits: currency.minorDigits });
    const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 6 });
    const percent = new Intl.NumberFormat(lang, { maximumFractionDigits: 4 });
    const date = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
    // Intl formats decimal strings exactly (NumberFormat v3); the cast only widens the type.
    // French groups digits with U+202F, which the font lacks; U+00A0 keeps them together too.
    const exact = (format: Intl.NumberFormat) => (value: string) => format.format(value as unknown as number).replaceAll('\u202f', '\u00a0');
    formatters = {
      money: exact(money),
      number: exact(number),
      percent: (rate) => `${exact(percent)(rate)} %`,
      date: (text) => date.format(new Date(`${text}T00:00:00Z`)),
      unit: (code) => UNIT_NAMES[lang][code] ?? UNIT_CODES[code] ?? code,
    };
    cache.set(key, formatters);
  }
  return formatters;
}
