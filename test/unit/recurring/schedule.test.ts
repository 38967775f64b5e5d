import { describe, expect, it } from 'vitest';
import {
  isTimeZone,
  localDate,
  occurrence,
  periodOf,
  startOfLocalDay,
  withinLimits,
} from '../../../src/recurring/schedule.js';

// The schedule's calendar: occurrences from the anchor (month ends as people expect), invoice
// periods, limits, and local days across daylight-saving changes.

const monthly = { interval: 'month' as const, every: 1, anchorDate: '2027-01-31' };

describe('recurring schedule', () => {
  it('runs a 31 January anchor on the last day of shorter months and back on the 31st after', () => {
    expect([0, 1, 2, 3, 4].map((i) => occurrence(monthly, i))).toEqual([
      '2027-01-31',
      '2027-02-28',
      '2027-03-31',
      '2027-04-30',
      '2027-05-31',
    ]);
    expect(occurrence({ ...monthly, anchorDate: '2028-01-31' }, 1)).toBe('2028-02-29');
  });

  it('counts quarters, years, every N and weeks from the anchor', () => {
    expect(occurrence({ interval: 'quarter', every: 1, anchorDate: '2027-11-30' }, 1)).toBe('2028-02-29');
    expect(occurrence({ interval: 'year', every: 1, anchorDate: '2028-02-29' }, 1)).toBe('2029-02-28');
    expect(occurrence({ interval: 'year', every: 1, anchorDate: '2028-02-29' }, 4)).toBe('2032-02-29');
    expect(occurrence({ interval: 'month', every: 2, anchorDate: '2027-12-31' }, 1)).toBe('2028-02-29');
    expect(occurrence({ interval: 'week', every: 2, anchorDate: '2027-03-22' }, 1)).toBe('2027-04-05');
    expect(occurrence(monthly, -1)).toBe('2026-12-31');
  });

  it('gives each run the period it starts, or the one it ends', () => {
    expect(periodOf(monthly, 1, 'current')).toEqual({ start: '2027-02-28', end: '2027-03-30' });
    expect(periodOf(monthly, 1, 'previous')).toEqual({ start: '2027-01-31', end: '2027-02-27' });
  });

  it('ends at the count or the end date, whichever comes first', () => {
    expect(withinLimits(monthly, { count: 3, endDate: null }, 2)).toBe(true);
    expect(withinLimits(monthly, { count: 3, endDate: null }, 3)).toBe(false);
    expect(withinLimits(monthly, { count: null, endDate: '2027-04-29' }, 2)).toBe(true);
    expect(withinLimits(monthly, { count: null, endDate: '2027-04-29' }, 3)).toBe(false);
  });

  it('starts each local day at its first instant across the daylight-saving changes of Europe/Berlin', () => {
    // Last Sunday of March 2027: clocks go 02:00 → 03:00; of October: 03:00 → 02:00.
    expect(startOfLocalDay('2027-03-27', 'Europe/Berlin').toISOString()).toBe('2027-03-26T23:00:00.000Z');
    expect(startOfLocalDay('2027-03-28', 'Europe/Berlin').toISOString()).toBe('2027-03-27T23:00:00.000Z');
    expect(startOfLocalDay('2027-03-29', 'Europe/Berlin').toISOString()).toBe('2027-03-28T22:00:00.000Z');
    expect(startOfLocalDay('2027-10-31', 'Europe/Berlin').toISOString()).toBe('2027-10-30T22:00:00.000Z');
    expect(startOfLocalDay('2027-11-01', 'Europe/Berlin').toISOString()).toBe('2027-10-31T23:00:00.000Z');
  });

  it('starts a day whose midnight a clock change skips at the first minute it has', () => {
    // Chile moves its clocks at midnight: 2027-09-05 begins at 01:00 local (04:00 UTC).
    const start = startOfLocalDay('2027-09-05', 'America/Santiago');
    expect(localDate(start, 'America/Santiago')).toBe('2027-09-05');
    expect(localDate(start.getTime() - 60_000, 'America/Santiago')).toBe('2027-09-04');
  });

  it('knows the IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
