import type { NumberFormat } from '../db/dialect.js';

// Default invoice numbers: the issue date's year, a dash, and the company's counter for that
// year zero-padded to five digits (2026-00001). Past 99999 the counter simply grows wider.
// Test mode's numbers (TEST-2026-00001) come from a counter of their own, never the live one.
// The database writes the same format where it numbers in SQL (Dialect EventWriter.issueWithEvent).

export function invoiceNumberFormat(year: number, livemode = true): NumberFormat {
  return { prefix: `${livemode ? '' : 'TEST-'}${year}-`, width: 5 };
}

function formatted({ prefix, width }: NumberFormat, value: number): string {
  return `${prefix}${String(value).padStart(width, '0')}`;
}

export function formatInvoiceNumber(year: number, value: number): string {
  return formatted(invoiceNumberFormat(year), value);
}

/** Test mode's numbers (TEST-2026-00001): a counter of their own, never the live one. */
export function formatTestInvoiceNumber(year: number, value: number): string {
  return formatted(invoiceNumberFormat(year, false), value);
}

export function yearOf(isoDate: string): number {
  return Number(isoDate.slice(0, 4));
}
