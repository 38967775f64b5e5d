import type { ErrorDetail } from '../errors/app-error.js';
import { isKnownCurrency, minorUnitDigits } from '../money/currency.js';
import { parseDecimal, type Decimal, type DecimalLimits } from '../money/decimal.js';
import type { LineFigures, VatCategory } from '../money/invoice-calculation.js';
import type { CreateInvoiceInput, InvoiceLineInputType } from '../schemas/invoice.js';

// The checks of an invoice body that a JSON schema cannot express: exact decimals and their
// ranges, real calendar dates and their order, the currency, and the VAT category rules of
// EN 16931. Every problem is reported, each naming its field (lines[3].unitPrice).

export interface DraftLine extends LineFigures {
  name: string;
  description: string | null;
  unitCode: string;
  exemptionReason: string | null;
}

/** An invoice's content as read from a body: dates as given (null when absent). */
export interface InvoiceContent {
  organizationId: string;
  /** A client-supplied number, or null for the next of the sequence. */
  number: string | null;
  issueDate: string | null;
  dueDate: string | null;
  currency: string;
  /** Minor-unit digits of the currency. */
  digits: number;
  pricesIncludeTax: boolean;
  buyerReference: string | null;
  purchaseOrderReference: string | null;
  note: string | null;
  lines: DraftLine[];
}

/** Content to issue now: its dates resolved. */
export interface InvoiceDraft extends InvoiceContent {
  issueDate: string;
  dueDate: string;
}

export type ReadInvoiceResult = { ok: true; value: InvoiceDraft } | { ok: false; details: ErrorDetail[] };

export const QUANTITY: DecimalLimits = { maxScale: 6, maxIntegerDigits: 15 };
export const PRICE: DecimalLimits = { maxScale: 6, maxIntegerDigits: 15 };
export const PERCENT: DecimalLimits = { maxScale: 4, maxIntegerDigits: 3 };
export const DEFAULT_UNIT_CODE = 'C62';
export const DEFAULT_PAYMENT_DAYS = 30;
/** Categories whose VAT rate is zero by definition (EN 16931 BR-Z-05, BR-E-05, BR-AE-05, BR-IC-05, BR-G-05, BR-O-05). */
const ZERO_RATE_CATEGORIES: ReadonlySet<VatCategory> = new Set(['Z', 'E', 'AE', 'K', 'G', 'O']);
const REASON_REQUIRED: ReadonlySet<VatCategory> = new Set(['E', 'AE']);
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function text(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** Days since the epoch of a real calendar date from 1900-01-01 to 9999-12-31, else null. */
function dayNumber(date: string): number | null {
  const match = DATE.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = Date.UTC(year, month - 1, day);
  const back = new Date(time);
  if (year < 1900 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return time / 86_400_000;
}

function dateOf(days: number): string {
  return new Date(days * 86_400_000).toISOString().slice(0, 10);
}

/** Days since the epoch of a YYYY-MM-DD date, for comparisons; null when it is not a valid one. */
export function dayOf(date: string): number | null {
  return dayNumber(date);
}

export function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Problems found in a body, each naming its field. */
export class Problems {
  readonly details: ErrorDetail[] = [];
  add(field: string, code: string, message: string): void {
    this.details.push({ field, code, message });
  }
  decimal(field: string, raw: unknown, limits: DecimalLimits): Decimal | null {
    const parsed = parseDecimal(raw, limits);
    if (parsed.ok) return parsed.value;
    this.add(field, parsed.code, parsed.message);
    return null;
  }
}

function readLine(line: InvoiceLineInputType, field: string, problems: Problems): DraftLine | null {
  const before = problems.details.length;
  const name = text(line.name);
  if (name === null) problems.add(`${field}.name`, 'required', 'The line name must not be blank.');
  const quantity = problems.decimal(`${field}.quantity`, line.quantity, QUANTITY);
  if (quantity?.isZero()) problems.add(`${field}.quantity`, 'zero', 'The quantity must not be zero.');
  const unitPrice = problems.decimal(`${field}.unitPrice`, line.unitPrice, PRICE);
  if (unitPrice?.isNegative() && !unitPrice.isZero()) problems.add(`${field}.unitPrice`, 'negative', 'The unit price must not be negative.');
  let discountPercent: Decimal | null = null;
  if (line.discountPercent !== undefined && line.discountPercent !== null) {
    discountPercent = problems.decimal(`${field}.discountPercent`, line.discountPercent, PERCENT);
    if (discountPercent && (discountPercent.isNegative() || discountPercent.greaterThan(100))) {
      problems.add(`${field}.discountPercent`, 'out_of_range', 'The discount must be between 0 and 100 percent.');
    }
  }
  const vatRate = problems.decimal(`${field}.vatRate`, line.vatRate, PERCENT);
  let vatCategory: VatCategory = 'S';
  if (vatRate) {
    if (vatRate.isNegative() || vatRate.greaterThan(100)) {
      problems.add(`${field}.vatRate`, 'out_of_range', 'The VAT rate must be between 0 and 100 percent.');
    }
    vatCategory = line.vatCategory ?? (vatRate.isZero() ? 'Z' : 'S');
    if (ZERO_RATE_CATEGORIES.has(vatCategory) && !vatRate.isZero()) {
      problems.add(`${field}.vatRate`, 'rate_category_mismatch', `VAT category ${vatCategory} requires a rate of 0.`);
    }
    if (vatCategory === 'S' && vatRate.isZero()) {
      problems.add(`${field}.vatRate`, 'rate_category_mismatch', 'VAT category S requires a rate above 0; use Z for zero-rated lines.');
    }
  }
  const exemptionReason = text(line.exemptionReason);
  if (REASON_REQUIRED.has(vatCategory) && exemptionReason === null) {
    problems.add(`${field}.exemptionReason`, 'required', `An exemption reason is required for VAT category ${vatCategory}.`);
  }
  if (problems.details.length > before || !quantity || !unitPrice || !vatRate || name === null) return null;
  return {
    name,
    description: text(line.description),
    quantity,
    unitCode: line.unitCode ?? DEFAULT_UNIT_CODE,
    unitPrice,
    discountPercent: discountPercent?.isZero() ? null : discountPercent,
    vatRate,
    vatCategory,
    exemptionReason,
  };
}

/** The lines of a body (an invoice's or a credit note's), or null with every problem added. */
export function readLines(lines: InvoiceLineInputType[], problems: Problems, prefix = 'lines'): DraftLine[] | null {
  const read = lines.map((line, index) => readLine(line, `${prefix}[${index}]`, problems));
  return read.every((line) => line !== null) ? (read as DraftLine[]) : null;
}

export type InvoiceContentInput = Omit<CreateInvoiceInput, 'status'>;

export type ReadContentResult = { ok: true; value: InvoiceContent } | { ok: false; details: ErrorDetail[] };

function readDate(problems: Problems, field: 'issueDate' | 'dueDate', value: string | null | undefined): number | null {
  if (value === undefined || value === null) return null;
  const day = dayNumber(value);
  if (day === null) problems.add(field, 'invalid_date', 'Must be a calendar date YYYY-MM-DD from 1900 to 9999.');
  return day;
}

/**
 * Reads an invoice's content (a create body, or a draft's merged with a PATCH) that passed the
 * schema, or every problem it has. Dates stay as given (a draft may have none yet); when both
 * are given their order is checked.
 */
export function readInvoiceContent(body: InvoiceContentInput, defaults: { currency: string }): ReadContentResult {
  const problems = new Problems();

  let number: string | null = null;
  if (body.number !== undefined && body.number !== null) {
    number = body.number.trim();
    // eslint-disable-next-line no-control-regex
    if (number === '' || /[\u0000-\u001f\u007f]/.test(number)) {
      problems.add('number', 'invalid_number', 'The number must be printable text without control characters.');
    }
  }

  const issueDay = readDate(problems, 'issueDate', body.issueDate);
  const dueDay = readDate(problems, 'dueDate', body.dueDate);
  if (issueDay !== null && dueDay !== null && dueDay < issueDay) {
    problems.add('dueDate', 'before_issue_date', 'The due date must not be before the issue date.');
  }

  const currency = body.currency ?? defaults.currency;
  if (!isKnownCurrency(currency)) problems.add('currency', 'unknown_currency', `${currency} is not an ISO 4217 currency code.`);

  const lines = readLines(body.lines, problems);

  if (problems.details.length > 0 || lines === null) return { ok: false, details: problems.details };
  return {
    ok: true,
    value: {
      organizationId: body.organizationId,
      number,
      issueDate: body.issueDate ?? null,
      dueDate: body.dueDate ?? null,
      currency,
      digits: minorUnitDigits(currency),
      pricesIncludeTax: body.pricesIncludeTax ?? false,
      buyerReference: text(body.buyerReference),
      purchaseOrderReference: text(body.purchaseOrderReference),
      note: text(body.note),
      lines,
    },
  };
}

/**
 * The dates an invoice is issued with: its issue date, or today; its due date, or the issue date
 * plus 30 days; the due date never before the issue date.
 */
export function datesAtIssue(
  content: Pick<InvoiceContent, 'issueDate' | 'dueDate'>,
  now: Date,
): { ok: true; issueDate: string; dueDate: string } | { ok: false; details: ErrorDetail[] } {
  const problems = new Problems();
  const issueDate = content.issueDate ?? todayUtc(now);
  const issueDay = dayNumber(issueDate)!;
  let dueDate = content.dueDate;
  if (dueDate === null) {
    dueDate = dateOf(issueDay + DEFAULT_PAYMENT_DAYS);
    if (dayNumber(dueDate) === null) problems.add('issueDate', 'invalid_date', 'The default due date would fall after 9999-12-31.');
  } else if (dayNumber(dueDate)! < issueDay) {
    problems.add('dueDate', 'before_issue_date', `The due date must not be before the issue date (${issueDate}).`);
  }
  return problems.details.length > 0 ? { ok: false, details: problems.details } : { ok: true, issueDate, dueDate };
}

/** Reads a create body into an invoice to issue now (dates resolved), or every problem it has. */
export function readInvoiceInput(body: InvoiceContentInput, defaults: { currency: string; now: Date }): ReadInvoiceResult {
  const read = readInvoiceContent(body, defaults);
  if (!read.ok) return read;
  const dates = datesAtIssue(read.value, defaults.now);
  if (!dates.ok) return dates;
  return { ok: true, value: { ...read.value, issueDate: dates.issueDate, dueDate: dates.dueDate } };
}
