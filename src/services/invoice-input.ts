import { creditorReference } from '../documents/payment-reference.js';
import { isIban } from '../documents/identifiers.js';
import type { ErrorDetail } from '../errors/app-error.js';
import { isKnownCurrency, minorUnitDigits } from '../money/currency.js';
import { largestDecimal, parseDecimal, type Decimal, type DecimalLimits } from '../money/decimal.js';
import { largestAmount, PERCENT, PRICE, QUANTITY } from '../money/limits.js';
import type { LineFigures, VatCategory } from '../money/invoice-calculation.js';
import type { CreateInvoiceInput, InvoiceLineInputType } from '../schemas/invoice.js';
import type { Static } from '@sinclair/typebox';
import type { AllowanceChargeInput } from '../schemas/invoice.js';

type AllowanceChargeInputType = Static<typeof AllowanceChargeInput>;

// The checks of an invoice body that a JSON schema cannot express: exact decimals and their
// ranges, real calendar dates and their order, the currency, and the VAT category rules of
// EN 16931. Every problem is reported, each naming its field (lines[3].unitPrice).

export interface DraftLine extends LineFigures {
  name: string;
  description: string | null;
  unitCode: string;
  exemptionReason: string | null;
}

/** A payment means as given (EN 16931 BG-16). */
export interface PaymentMeansValue {
  code: '58' | '30' | '59' | '49' | '48' | '10';
  iban: string | null;
  bic: string | null;
  accountName: string | null;
  mandateReference: string | null;
  payerIban: string | null;
  cardLastDigits: string | null;
  /** An ISO 11649 creditor reference (RF…) to quote instead of the number; absent in most. */
  creditorReference?: string | null;
}

/** A document allowance or charge as given, read exactly. */
export interface AllowanceChargeValue {
  amount: Decimal;
  reason: string | null;
  reasonCode: string | null;
  vatCategory: VatCategory;
  vatRate: Decimal;
}

/** What an invoice (and a credit note) carries for EN 16931 besides its lines. */
export interface DocumentExtras {
  /** As given; null for the company's default (decided when the invoice is issued). */
  paymentMeans: PaymentMeansValue | null;
  /** As given; null for the company's default. */
  paymentTerms: string | null;
  deliveryDate: string | null;
  invoicePeriod: { start: string; end: string } | null;
  allowances: AllowanceChargeValue[];
  charges: AllowanceChargeValue[];
}

/** An invoice's content as read from a body: dates as given (null when absent). */
export interface InvoiceContent extends DocumentExtras {
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
  if (year < 1900 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day)
    return null;
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
  /** Gives the field's too_large refusal, if it has one, the largest value it takes: in `maximum` and in its message. */
  nameMaximum(field: string, maximum: string, message: string): void {
    const detail = this.details.find((d) => d.field === field && d.code === 'too_large');
    if (detail) Object.assign(detail, { message, maximum });
  }
}

/** The rate rules of EN 16931's categories: 0 to 100; zero exactly for Z, E, AE, K, G, O; above zero for S. */
function checkRateOfCategory(problems: Problems, field: string, vatRate: Decimal, vatCategory: VatCategory): void {
  if (vatRate.isNegative() || vatRate.greaterThan(100))
    problems.add(field, 'out_of_range', 'The VAT rate must be between 0 and 100 percent.');
  if (ZERO_RATE_CATEGORIES.has(vatCategory) && !vatRate.isZero()) {
    problems.add(field, 'rate_category_mismatch', `VAT category ${vatCategory} requires a rate of 0.`);
  }
  if (vatCategory === 'S' && vatRate.isZero()) {
    problems.add(
      field,
      'rate_category_mismatch',
      'VAT category S requires a rate above 0; use Z for zero-rated lines.',
    );
  }
}

function readLine(line: InvoiceLineInputType, field: string, problems: Problems): DraftLine | null {
  const before = problems.details.length;
  const name = text(line.name);
  if (name === null) problems.add(`${field}.name`, 'required', 'The line name must not be blank.');
  const quantity = problems.decimal(`${field}.quantity`, line.quantity, QUANTITY);
  const [largestQuantity, largestPrice] = [largestDecimal(QUANTITY), largestDecimal(PRICE)];
  problems.nameMaximum(
    `${field}.quantity`,
    largestQuantity,
    `Must be between -${largestQuantity} and ${largestQuantity} (${QUANTITY.maxIntegerDigits} digits before the decimal point).`,
  );
  if (quantity?.isZero()) problems.add(`${field}.quantity`, 'zero', 'The quantity must not be zero.');
  const unitPrice = problems.decimal(`${field}.unitPrice`, line.unitPrice, PRICE);
  problems.nameMaximum(
    `${field}.unitPrice`,
    largestPrice,
    `Must be at most ${largestPrice} (${PRICE.maxIntegerDigits} digits before the decimal point).`,
  );
  if (unitPrice?.isNegative() && !unitPrice.isZero())
    problems.add(`${field}.unitPrice`, 'negative', 'The unit price must not be negative.');
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
    vatCategory = line.vatCategory ?? (vatRate.isZero() ? 'Z' : 'S');
    checkRateOfCategory(problems, `${field}.vatRate`, vatRate, vatCategory);
  }
  const exemptionReason = text(line.exemptionReason);
  if (REASON_REQUIRED.has(vatCategory) && exemptionReason === null) {
    problems.add(
      `${field}.exemptionReason`,
      'required',
      `An exemption reason is required for VAT category ${vatCategory}.`,
    );
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

export type InvoiceContentInput = Omit<CreateInvoiceInput, 'status' | 'validateFor'>;

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
  const knownCurrency = isKnownCurrency(currency);
  if (!knownCurrency) problems.add('currency', 'unknown_currency', `${currency} is not an ISO 4217 currency code.`);

  const lines = readLines(body.lines, problems);
  const extras = readDocumentExtras(body, problems, knownCurrency ? minorUnitDigits(currency) : 2);

  if (problems.details.length > 0 || lines === null || extras === null) return { ok: false, details: problems.details };
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
      ...extras,
    },
  };
}

/** An IBAN with a valid checksum, spaces removed and upper-cased; null when it is not one. */
export function normalizeIban(raw: string): string | null {
  return isIban(raw) ? raw.replace(/\s+/g, '').toUpperCase() : null;
}

export const BIC = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?$/;

/** An allowance or charge; `digits`, the currency's, for the largest amount a refusal names. */
function readAllowanceCharge(
  item: AllowanceChargeInputType,
  field: string,
  problems: Problems,
  digits: number,
): AllowanceChargeValue | null {
  const before = problems.details.length;
  const amount = problems.decimal(`${field}.amount`, item.amount, PRICE);
  // Rounded to the currency, it is held to the largest amount there is (with the totals it adds to).
  const largest = largestAmount(digits);
  problems.nameMaximum(`${field}.amount`, largest, `Must be at most ${largest}, the largest amount there is.`);
  if (amount && !amount.greaterThan(0))
    problems.add(`${field}.amount`, 'not_positive', 'The amount must be above zero.');
  const vatRate = problems.decimal(`${field}.vatRate`, item.vatRate, PERCENT);
  const category = item.vatCategory;
  if (vatRate) checkRateOfCategory(problems, `${field}.vatRate`, vatRate, category);
  const reason = text(item.reason);
  const reasonCode = item.reasonCode ?? null;
  if (reason === null && reasonCode === null)
    problems.add(`${field}.reason`, 'required', 'Give a reason or a reasonCode (EN 16931 BR-33 / BR-38).');
  if (problems.details.length > before || !amount || !vatRate) return null;
  return { amount, reason, reasonCode, vatCategory: category, vatRate };
}

function readDocumentExtras(body: InvoiceContentInput, problems: Problems, digits: number): DocumentExtras | null {
  const before = problems.details.length;
  let paymentMeans: PaymentMeansValue | null = null;
  if (body.paymentMeans) {
    const given = body.paymentMeans;
    const iban = text(given.iban);
    const payerIban = text(given.payerIban);
    const bic = text(given.bic)?.toUpperCase() ?? null;
    if (iban !== null && normalizeIban(iban) === null)
      problems.add('paymentMeans.iban', 'invalid_iban', 'Must be an IBAN with a valid checksum.');
    if (payerIban !== null && normalizeIban(payerIban) === null)
      problems.add('paymentMeans.payerIban', 'invalid_iban', 'Must be an IBAN with a valid checksum.');
    if (bic !== null && !BIC.test(bic))
      problems.add('paymentMeans.bic', 'invalid_bic', 'Must be a BIC of 8 or 11 characters.');
    const givenReference = text(given.creditorReference);
    const reference = givenReference === null ? null : creditorReference(givenReference);
    if (givenReference !== null && reference === null) {
      problems.add(
        'paymentMeans.creditorReference',
        'invalid_creditor_reference',
        'Must be an ISO 11649 creditor reference: RF, two check digits and up to 21 letters or digits.',
      );
    }
    paymentMeans = {
      ...(reference ? { creditorReference: reference } : {}),
      code: given.code,
      iban: iban === null ? null : normalizeIban(iban),
      bic,
      accountName: text(given.accountName),
      mandateReference: text(given.mandateReference),
      payerIban: payerIban === null ? null : normalizeIban(payerIban),
      cardLastDigits: given.cardLastDigits ?? null,
    };
  }
  const deliveryDate = body.deliveryDate ?? null;
  if (deliveryDate !== null && dayNumber(deliveryDate) === null)
    problems.add('deliveryDate', 'invalid_date', 'Must be a calendar date YYYY-MM-DD from 1900 to 9999.');
  let invoicePeriod: DocumentExtras['invoicePeriod'] = null;
  if (body.invoicePeriod) {
    const start = dayNumber(body.invoicePeriod.start);
    const end = dayNumber(body.invoicePeriod.end);
    if (start === null)
      problems.add('invoicePeriod.start', 'invalid_date', 'Must be a calendar date YYYY-MM-DD from 1900 to 9999.');
    if (end === null)
      problems.add('invoicePeriod.end', 'invalid_date', 'Must be a calendar date YYYY-MM-DD from 1900 to 9999.');
    else if (start !== null && end < start)
      problems.add('invoicePeriod.end', 'before_start', 'The period must not end before it starts.');
    invoicePeriod = { start: body.invoicePeriod.start, end: body.invoicePeriod.end };
  }
  const allowances = (body.allowances ?? []).map((item, i) =>
    readAllowanceCharge(item, `allowances[${i}]`, problems, digits),
  );
  const charges = (body.charges ?? []).map((item, i) => readAllowanceCharge(item, `charges[${i}]`, problems, digits));
  if (problems.details.length > before) return null;
  return {
    paymentMeans,
    paymentTerms: text(body.paymentTerms),
    deliveryDate,
    invoicePeriod,
    allowances: allowances as AllowanceChargeValue[],
    charges: charges as AllowanceChargeValue[],
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
    if (dayNumber(dueDate) === null)
      problems.add('issueDate', 'invalid_date', 'The default due date would fall after 9999-12-31.');
  } else if (dayNumber(dueDate)! < issueDay) {
    problems.add('dueDate', 'before_issue_date', `The due date must not be before the issue date (${issueDate}).`);
  }
  return problems.details.length > 0 ? { ok: false, details: problems.details } : { ok: true, issueDate, dueDate };
}

/** Reads a create body into an invoice to issue now (dates resolved), or every problem it has. */
export function readInvoiceInput(
  body: InvoiceContentInput,
  defaults: { currency: string; now: Date },
): ReadInvoiceResult {
  const read = readInvoiceContent(body, defaults);
  if (!read.ok) return read;
  const dates = datesAtIssue(read.value, defaults.now);
  if (!dates.ok) return dates;
  return { ok: true, value: { ...read.value, issueDate: dates.issueDate, dueDate: dates.dueDate } };
}
