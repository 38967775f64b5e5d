import { describe, expect, it } from 'vitest';
import { checkPolicy, decideLevel, DEFAULT_POLICY, figuresOf } from '../../src/delivery/reminder-policy.js';
import { chargesText } from '../../src/delivery/reminder-templates.js';

// The reminder policy's rules without a database: which level a pass sends, what it states, and
// what a policy may say.

const DUE = '2026-01-31';
const ISSUED = '2026-01-02';

describe('which level a pass sends', () => {
  it('sends nothing before the first level comes due', () => {
    expect(decideLevel(DEFAULT_POLICY, DUE, ISSUED, '2026-01-27', [])).toEqual({ kind: 'none' });
  });

  it('sends the level come due on its day', () => {
    const decision = decideLevel(DEFAULT_POLICY, DUE, ISSUED, '2026-01-28', []);
    expect(decision).toMatchObject({ kind: 'send', position: 1, level: { days: -3 }, skipped: [] });
  });

  it('sends only the latest of several levels come due and skips the earlier ones', () => {
    const decision = decideLevel(DEFAULT_POLICY, DUE, ISSUED, '2026-02-10', [-3]);
    expect(decision).toMatchObject({ kind: 'send', position: 3, level: { days: 7 } });
    expect(decision.kind === 'send' && decision.skipped.map((s) => [s.level.days, s.reason])).toEqual([
      [0, 'superseded'],
    ]);
  });

  it('skips a level that fell before the invoice was issued', () => {
    const decision = decideLevel(DEFAULT_POLICY, '2026-01-03', ISSUED, '2026-01-03', []);
    expect(decision).toMatchObject({ kind: 'send', level: { days: 0 } });
    expect(decision.kind === 'send' && decision.skipped.map((s) => [s.level.days, s.reason])).toEqual([
      [-3, 'before_issue'],
    ]);
  });

  it('never sends a level earlier than one already sent (a policy changed in between)', () => {
    const decision = decideLevel(DEFAULT_POLICY, DUE, ISSUED, '2026-02-10', [14]);
    expect(decision.kind).toBe('skip');
  });
});

describe('what a reminder states', () => {
  it('states the open balance as it is and the fee and interest apart', () => {
    const figures = figuresOf({ days: 14, fee: '40', interestRatePercent: '11.27' }, '1190', 'EUR', DUE, '2026-03-02');
    // 1190 × 11.27 % × 30 / 365 = 11.0229… → 11.02
    expect(figures).toEqual({
      openBalance: '1190.00',
      fee: '40.00',
      interestRatePercent: '11.27',
      interest: '11.02',
      total: '1241.02',
    });
    expect(chargesText(figures, 'EUR', 'en', 30)).toBe(
      'Reminder fee (not part of the invoice): 40.00 EUR\nDefault interest, 11.27 % a year for 30 days (not part of the invoice): 11.02 EUR\nTotal now due: 1241.02 EUR\n',
    );
  });

  it('rounds to the currency’s minor units and states no charges without a fee or interest', () => {
    const figures = figuresOf({ days: 0, fee: null, interestRatePercent: null }, '1000', 'JPY', DUE, DUE);
    expect(figures).toEqual({
      openBalance: '1000',
      fee: null,
      interestRatePercent: null,
      interest: null,
      total: '1000',
    });
    expect(chargesText(figures, 'JPY', 'de', 0)).toBe('');
  });
});

describe('what a policy may say', () => {
  it('orders the levels by days and drops zero fees', () => {
    const checked = checkPolicy({ enabled: true, levels: [{ days: 14, fee: '0.00' }, { days: -3 }] });
    expect(checked).toEqual({
      ok: true,
      value: {
        enabled: true,
        levels: [
          { days: -3, fee: null, interestRatePercent: null },
          { days: 14, fee: null, interestRatePercent: null },
        ],
      },
    });
  });

  it('refuses fees and interest before the due date, above the caps, and two levels on one day', () => {
    const checked = checkPolicy({
      enabled: true,
      levels: [
        { days: -1, interestRatePercent: '5' },
        { days: 7, fee: '25', interestRatePercent: '20.5' },
        { days: 7, fee: '20' },
      ],
    });
    expect(checked.ok === false && checked.details.map((d) => `${d.field}:${d.code}`)).toEqual([
      'levels[0].interestRatePercent:not_overdue',
      'levels[1].interestRatePercent:too_large',
      'levels[2].days:duplicate',
      'levels:too_large',
    ]);
  });
});
