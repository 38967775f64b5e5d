import { UNCL5305 } from '../../documents/code-lists.js';
import { UNIT_CODES } from '../../documents/unit-codes.js';
import { UNIT_NAMES } from '../../documents/pdf/code-names.js';
import { minorUnitDigits } from '../../money/currency.js';
import { html, type SafeHtml } from '../html.js';

// How amounts, units and codes read in the panel. Amounts are exact decimal strings (money is never a
// float here); Intl.NumberFormat formats a decimal *string* exactly (ECMA-402 NumberFormat v3,
// Node 20+), so 2^53 is no limit. The fraction digits are never fewer than the string has: the
// panel shows what is stored, rounding nothing away.
//
// The panel speaks English (<html lang="en">), so numbers follow the same locale: a German
// thousands dot inside English sentences would read as a decimal point.
export const PANEL_LOCALE = 'en';

const DECIMAL = /^-?\d+(\.\d+)?$/;

function fractionDigits(value: string): number {
  const dot = value.indexOf('.');
  return dot < 0 ? 0 : value.length - dot - 1;
}

/**
 * "1242130.86" in EUR → "1,242,130.86 EUR": the locale's separators, the currency's minor digits
 * (at least), and the ISO code after the number as the API and the documents write it — a symbol
 * would be ambiguous ($ is a dozen currencies). Anything that is not a plain decimal shows as it is.
 */
export function formatAmount(amount: string, currency: string): string {
  if (!DECIMAL.test(amount) || !/^[A-Z]{3}$/.test(currency)) return `${amount} ${currency}`;
  let digits: number;
  try {
    digits = Math.max(minorUnitDigits(currency), fractionDigits(amount));
  } catch {
    return `${amount} ${currency}`;
  }
  return `${withDigits(amount, digits)} ${currency}`;
}

function withDigits(value: string, digits: number): string {
  return new Intl.NumberFormat(PANEL_LOCALE, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
    value as `${number}`,
  );
}

/** A quantity or rate with thousands separators and all its digits: "1500.125" → "1,500.125". */
export function formatDecimal(value: string): string {
  if (!DECIMAL.test(value)) return value;
  return withDigits(value, fractionDigits(value));
}

/** An amount in a table cell or total: right-aligned by its cell, never wrapped. */
export function amount(value: string, currency: string): SafeHtml {
  return html`<span class="amount">${formatAmount(value, currency)}</span>`;
}

/**
 * UNCL5305 names of the VAT categories. The seven this service writes come from the document
 * code list; L and M (Canary Islands, Ceuta and Melilla) are in the list too and may arrive in
 * stored documents one day, so they have names here.
 */
export const VAT_CATEGORY_NAMES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(UNCL5305).map(([code, rules]) => [code, rules.name])),
  L: 'Canary Islands general indirect tax (IGIC)',
  M: 'Tax for production, services and importation in Ceuta and Melilla (IPSI)',
};

/** A unit code's name in UN/ECE Rec 20 ("HUR" → "hour"). */
export function unitName(code: string): string | undefined {
  return UNIT_CODES[code];
}

/** A unit as the English PDF writes it after a quantity ("C62" → "pc", "HUR" → "h"); else its name, else the code. */
export function unitLabel(code: string): string {
  return UNIT_NAMES.en[code] ?? UNIT_CODES[code] ?? code;
}

export function vatCategoryName(code: string): string | undefined {
  return VAT_CATEGORY_NAMES[code];
}

/** A code with its name on hover (and for screen readers); codes without a known name show bare. */
function namedCode(code: string, name: string | undefined, kind: string): SafeHtml {
  return name
    ? html`<abbr class="code" title="${name}" data-${kind}="${code}">${code}</abbr>`
    : html`<span class="code">${code}</span>`;
}

/** A unit after a quantity, by name as on the PDF ("10 pc"); the code and its full name on hover. */
export function unit(code: string): SafeHtml {
  const name = unitName(code);
  const label = unitLabel(code);
  if (!name) return html`<span class="code">${code}</span>`;
  return html`<abbr class="unit" title="${name} (code ${code})" data-unit="${code}">${label}</abbr>`;
}

export function vatCategory(code: string): SafeHtml {
  return namedCode(code, vatCategoryName(code), 'vat-category');
}

/**
 * The units and codes a document uses, spelled out under its tables: a title only shows on
 * hover, and touch screens have none.
 */
export function codeLegend(units: string[], categories: string[]): SafeHtml {
  const u = [...new Set(units)].filter((c) => unitName(c));
  const v = [...new Set(categories)].filter((c) => vatCategoryName(c));
  if (u.length === 0 && v.length === 0) return html``;
  return html`<dl class="code-legend">
  ${u.length ? html`<dt>Units</dt><dd>${u.map((c, i) => html`${i ? ' · ' : ''}${unitLabel(c)}: ${unitName(c)} (<code>${c}</code>)`)}</dd>` : ''}
  ${v.length ? html`<dt>VAT categories</dt><dd>${v.map((c, i) => html`${i ? ' · ' : ''}<code>${c}</code> ${vatCategoryName(c)}`)}</dd>` : ''}
</dl>`;
}
