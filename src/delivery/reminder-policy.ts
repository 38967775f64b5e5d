import type { ErrorDetail } from '../errors/app-error.js';
import { minorUnitDigits } from '../money/currency.js';
import { Decimal } from '../money/decimal.js';
import type { ReminderPolicyInput } from '../schemas/reminder.js';

// A company's reminder policy as the scheduler reads it, its default, the one check of a change,
// and the figures a reminder states. What the law allows is kept simple (docs/decisions.md): a
// fee or interest only on a level after the due date, the fees of all levels together at most
// 40.00 (the fixed compensation of the EU late-payment directive 2011/7/EU: §288(5) BGB,
// art. L441-10 Code de commerce), interest at most 20 % a year (DE B2B: base rate + 9 points).

export interface PolicyLevel {
  days: number;
  fee: string | null;
  interestRatePercent: string | null;
}

export interface Policy {
  enabled: boolean;
  /** Ordered by days; a level's position (1-based) names its template (reminder-<n>). */
  levels: PolicyLevel[];
}

export const MAX_TOTAL_FEE = '40';
export const MAX_INTEREST_RATE_PERCENT = '20';

/** 3 days before the due date, on it, 7 and 14 days after it; no fee, no interest. */
export const DEFAULT_POLICY: Policy = {
  enabled: true,
  levels: [
    { days: -3, fee: null, interestRatePercent: null },
    { days: 0, fee: null, interestRatePercent: null },
    { days: 7, fee: null, interestRatePercent: null },
    { days: 14, fee: null, interestRatePercent: null },
  ],
};

/** A policy as asked for, checked: the levels ordered by days, or what is wrong with it. */
export function checkPolicy(
  input: ReminderPolicyInput,
): { ok: true; value: Policy } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const seen = new Set<number>();
  let fees = new Decimal(0);
  input.levels.forEach((level, index) => {
    if (seen.has(level.days))
      details.push({
        field: `levels[${index}].days`,
        code: 'duplicate',
        message: `Two levels on day ${level.days}: each level has its own day.`,
      });
    seen.add(level.days);
    const fee = level.fee ?? null;
    const rate = level.interestRatePercent ?? null;
    if (level.days <= 0 && fee !== null && !new Decimal(fee).isZero())
      details.push({
        field: `levels[${index}].fee`,
        code: 'not_overdue',
        message: 'A fee applies only to a level after the due date (days above 0).',
      });
    if (level.days <= 0 && rate !== null && !new Decimal(rate).isZero())
      details.push({
        field: `levels[${index}].interestRatePercent`,
        code: 'not_overdue',
        message: 'Interest applies only to a level after the due date (days above 0).',
      });
    if (rate !== null && new Decimal(rate).greaterThan(MAX_INTEREST_RATE_PERCENT))
      details.push({
        field: `levels[${index}].interestRatePercent`,
        code: 'too_large',
        message: `Interest is at most ${MAX_INTEREST_RATE_PERCENT} % a year.`,
      });
    if (fee !== null) fees = fees.plus(fee);
  });
  if (fees.greaterThan(MAX_TOTAL_FEE))
    details.push({
      field: 'levels',
      code: 'too_large',
      message: `The fees of all levels together are at most ${MAX_TOTAL_FEE}.00 (the fixed compensation for late payment is due once per debt).`,
    });
  if (details.length > 0) return { ok: false, details };
  const normal = (text: string | null | undefined) =>
    text === null || text === undefined || new Decimal(text).isZero() ? null : new Decimal(text).toFixed();
  return {
    ok: true,
    value: {
      enabled: input.enabled,
      levels: [...input.levels]
        .sort((a, b) => a.days - b.days)
        .map((level) => ({
          days: level.days,
          fee: normal(level.fee),
          interestRatePercent: normal(level.interestRatePercent),
        })),
    },
  };
}

/** YYYY-MM-DD plus whole days (negative: before). */
export function addDays(date: string, days: number): string {
  const at = new Date(`${date}T00:00:00.000Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** Whole days from one YYYY-MM-DD to another. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export interface ReminderFigures {
  openBalance: string;
  fee: string | null;
  interestRatePercent: string | null;
  /** Simple interest on the open balance from the due date to the day of the reminder (act/365). */
  interest: string | null;
  /** Open balance + fee + interest. */
  total: string;
}

/** What a reminder of a level states on `asOf`, in the currency's minor units; the balance as it is. */
export function figuresOf(
  level: PolicyLevel,
  openBalance: string,
  currency: string,
  dueDate: string,
  asOf: string,
): ReminderFigures {
  const digits = minorUnitDigits(currency);
  const balance = new Decimal(openBalance);
  const fee = level.days > 0 && level.fee ? new Decimal(level.fee).toDecimalPlaces(digits) : null;
  const days = Math.max(0, daysBetween(dueDate, asOf));
  const interest =
    level.days > 0 && level.interestRatePercent
      ? balance.times(level.interestRatePercent).div(100).times(days).div(365).toDecimalPlaces(digits)
      : null;
  const total = balance.plus(fee ?? 0).plus(interest ?? 0);
  return {
    openBalance: balance.toFixed(digits),
    fee: fee ? fee.toFixed(digits) : null,
    interestRatePercent: level.days > 0 ? level.interestRatePercent : null,
    interest: interest ? interest.toFixed(digits) : null,
    total: total.toFixed(digits),
  };
}

export type LevelDecision =
  | {
      kind: 'send';
      level: PolicyLevel;
      position: number;
      skipped: { level: PolicyLevel; position: number; reason: 'superseded' | 'before_issue' }[];
    }
  | { kind: 'skip'; skipped: { level: PolicyLevel; position: number; reason: 'superseded' | 'before_issue' }[] }
  | { kind: 'none' };

/**
 * Which level an invoice is reminded of on `asOf`: of the levels come due and not yet reminded
 * or skipped, the latest is sent and the earlier ones recorded as skipped (after downtime, one
 * message, the latest, not a burst); a level that fell before the issue date, or that is earlier
 * than one already reminded (the policy changed), is skipped too.
 */
export function decideLevel(
  policy: Policy,
  dueDate: string,
  issueDate: string,
  asOf: string,
  claimedDays: readonly number[],
): LevelDecision {
  const latestClaimed = claimedDays.length > 0 ? Math.max(...claimedDays) : -Infinity;
  const open = policy.levels
    .map((level, index) => ({ level, position: index + 1 }))
    .filter(({ level }) => addDays(dueDate, level.days) <= asOf && !claimedDays.includes(level.days));
  if (open.length === 0) return { kind: 'none' };
  const eligible = open.filter(({ level }) => addDays(dueDate, level.days) >= issueDate && level.days > latestClaimed);
  const chosen = eligible.at(-1);
  const skipped = open
    .filter((entry) => entry !== chosen)
    .map((entry) => ({
      ...entry,
      reason: addDays(dueDate, entry.level.days) < issueDate ? ('before_issue' as const) : ('superseded' as const),
    }));
  return chosen ? { kind: 'send', level: chosen.level, position: chosen.position, skipped } : { kind: 'skip', skipped };
}
