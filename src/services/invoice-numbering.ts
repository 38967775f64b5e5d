// Default invoice numbers: the issue date's year, a dash, and the company's counter for that
// year zero-padded to five digits (2026-00001). Past 99999 the counter simply grows wider.

/** The digits the counter's value is zero-padded to. */
export const NUMBER_WIDTH = 5;

/** What comes before the counter's value: the year and a dash, after TEST- in test mode. */
export function invoiceNumberPrefix(year: number, livemode: boolean): string {
  return `${livemode ? '' : 'TEST-'}${year}-`;
}

export function formatInvoiceNumber(year: number, value: number): string {
  return `${invoiceNumberPrefix(year, true)}${String(value).padStart(NUMBER_WIDTH, '0')}`;
}

/** Test mode's numbers (TEST-2026-00001): a counter of their own, never the live one. */
export function formatTestInvoiceNumber(year: number, value: number): string {
  return `${invoiceNumberPrefix(year, false)}${String(value).padStart(NUMBER_WIDTH, '0')}`;
}

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}
