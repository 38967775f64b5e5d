// What the platform (ICU, through Intl) knows of ISO 4217: which codes exist and how many
// minor-unit digits each has (EUR 2, JPY 0, KWD 3).

let known: Set<string> | undefined;
const digitsCache = new Map<string, number>();

export function isKnownCurrency(code: string): boolean {
  known ??= new Set(Intl.supportedValuesOf('currency'));
  return /^[A-Z]{3}$/.test(code) && known.has(code);
}

/** The number of digits after the decimal point of amounts in this currency. */
export function minorUnitDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}
