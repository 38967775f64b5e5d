// Default invoice numbers: the issue date's year, a dash, and the company's counter for that
// year zero-padded to five digits (2026-00001). Past 99999 the counter simply grows wider.

export function formatInvoiceNumber(year: number, value: number): string {
  return `${year}-${String(value).padStart(5, '0')}`;
}

/** Test mode's numbers (TEST-2026-00001): a counter of their own, never the live one. */
export function formatTestInvoiceNumber(year: number, value: number): string {
  return `TEST-${formatInvoiceNumber(year, value)}`;
}

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}
