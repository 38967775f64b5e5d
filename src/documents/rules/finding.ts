import { Decimal } from '../../money/decimal.js';

// What a rule reports, and the small value helpers the rules share. The helpers follow the XPath
// the official rules are written in: an absent value makes a comparison false, round() rounds
// half up (towards +∞), text is compared after trimming.

export type Severity = 'fatal' | 'warning';
export type Syntax = 'ubl' | 'cii';

export interface Finding {
  /** The official rule id: BR-CO-10, PEPPOL-EN16931-R010, BR-DE-15 … */
  rule: string;
  severity: Severity;
  /** The business term or group the rule is about (BT-106, BG-23). */
  term: string;
  /** Where in the model: totals.lineNetTotal, lines[2].vatRate. */
  field: string;
  /** Where in the source document (an XPath), or the field for a document not read from XML. */
  location: string;
  message: string;
}

export type Add = (rule: string, term: string, field: string, message: string, severity?: Severity) => void;

export const blank = (value: string | null | undefined): boolean =>
  value === null || value === undefined || value.trim() === '';
export const present = (value: string | null | undefined): value is string => value !== null && value !== undefined;

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** The decimal a text holds, or null for none or for text that is no decimal. */
export function dec(text: string | null | undefined): Decimal | null {
  if (text === null || text === undefined) return null;
  let value = parsed.get(text);
  if (value === undefined) {
    const trimmed = text.trim();
    value = DECIMAL.test(trimmed) ? new Decimal(trimmed) : null;
    if (text.length > PARSED_LENGTH_MAX) return value;
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(text, value);
  }
  return value;
}

// The rules read each amount of a document several times; a Decimal never changes, so the texts
// read lately share theirs. Bounded: emptied when full, and a text longer than any amount (a
// received document may hold anything) is not kept.
const parsed = new Map<string, Decimal | null>();
const PARSED_MAX = 4096;
const PARSED_LENGTH_MAX = 48;

/** XPath round(x × 100) div 100: half up towards +∞, exactly. */
export function round2(value: Decimal): Decimal {
  return value.times(100).plus(new Decimal('0.5')).floor().dividedBy(100);
}

/** XPath round(x): half up towards +∞. */
export function round0(value: Decimal): Decimal {
  return value.plus(new Decimal('0.5')).floor();
}

export function sum(values: (Decimal | null)[]): Decimal {
  return values.reduce<Decimal>((total, v) => (v ? total.plus(v) : total), new Decimal(0));
}

/** Digits after the decimal point as written ("12.500" has 3). */
export function decimalsOf(text: string | null | undefined): number {
  if (!text) return 0;
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.trim().length - point - 1;
}

/** The category code as the rules compare it (trimmed). */
export const code = (value: string | null | undefined): string | null =>
  value === null || value === undefined ? null : value.trim();

/** The category is a VAT category: its tax scheme is VAT, or not stated (our own documents). */
export const isVatScheme = (item: { taxScheme?: string | null }): boolean =>
  item.taxScheme === undefined || (item.taxScheme ?? '').trim().toUpperCase() === 'VAT';
