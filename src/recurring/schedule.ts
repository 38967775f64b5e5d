import type { RecurringInterval } from '../db/schema.js';

// When a recurring invoice runs, computed from its anchor and never from the run before, so
// month ends come out as people expect: an anchor on 31 January gives 28 (or 29) February, 31
// March, 30 April, 31 May. A run is due on a calendar date in the template's time zone, from the
// first instant of that local day; a daylight-saving change moves that instant, never the date,
// so no run is skipped or doubled. Time zones are read with Intl, which Node ships with the full
// IANA database; no library is needed for dates alone.

export interface Cadence {
  interval: RecurringInterval;
  every: number;
  anchorDate: string;
}

export interface Limits {
  endDate: string | null;
  count: number | null;
}

const DAY_MS = 86_400_000;
const MONTHS: Record<Exclude<RecurringInterval, 'week'>, number> = { month: 1, quarter: 3, year: 12 };

function parts(date: string): [number, number, number] {
  const [y, m, d] = date.split('-').map(Number);
  return [y!, m!, d!];
}

function format(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** `date` plus `days` days. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  const at = new Date(Date.UTC(y, m - 1, d) + days * DAY_MS);
  return format(at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate());
}

/**
 * The occurrence `index` (0 the anchor; negative before it): weeks are counted in days, months,
 * quarters and years in months from the anchor, on the anchor's day or the month's last day
 * when the month is shorter.
 */
export function occurrence(cadence: Cadence, index: number): string {
  if (cadence.interval === 'week') return addDays(cadence.anchorDate, 7 * cadence.every * index);
  const [y, m, d] = parts(cadence.anchorDate);
  const months = m - 1 + MONTHS[cadence.interval] * cadence.every * index;
  const year = y + Math.floor(months / 12);
  const month = (((months % 12) + 12) % 12) + 1;
  return format(year, month, Math.min(d, daysInMonth(year, month)));
}

/** The invoice period (BG-14) of the run `index`: the period it starts (current) or the one it ends (previous). */
export function periodOf(
  cadence: Cadence,
  index: number,
  which: 'current' | 'previous',
): { start: string; end: string } {
  const first = which === 'current' ? index : index - 1;
  return { start: occurrence(cadence, first), end: addDays(occurrence(cadence, first + 1), -1) };
}

/** Whether the occurrence `index` is still within the schedule's end date and count. */
export function withinLimits(cadence: Cadence, limits: Limits, index: number): boolean {
  if (limits.count !== null && index >= limits.count) return false;
  return limits.endDate === null || occurrence(cadence, index) <= limits.endDate;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Whether `timeZone` is an IANA time zone this Node knows (Europe/Berlin, UTC). */
export function isTimeZone(timeZone: string): boolean {
  if (timeZone.length === 0 || timeZone.length > 64) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The calendar date (YYYY-MM-DD) at `instant` in `timeZone`. */
export function localDate(instant: Date | number, timeZone: string): string {
  const values = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return `${values.year}-${values.month}-${values.day}`;
}

/**
 * The first instant of `date`'s local day in `timeZone`: midnight, or when a daylight-saving
 * change skips midnight, the first minute there is. Found by bisection over the day's possible
 * offsets (UTC−14 to UTC+14), since local dates only move forward with time.
 */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const [y, m, d] = parts(date);
  const utcMidnight = Date.UTC(y, m - 1, d);
  let before = utcMidnight - 15 * 3_600_000; // still the day before everywhere
  let after = utcMidnight + 15 * 3_600_000; // the day itself (or later) everywhere
  while (after - before > 60_000) {
    const middle = before + Math.floor((after - before) / 120_000) * 60_000;
    if (localDate(middle, timeZone) >= date) after = middle;
    else before = middle;
  }
  return new Date(after);
}
