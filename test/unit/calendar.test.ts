import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonths, addYears, daysBetween, isCalendarDate, saoPauloDate, startOfSaoPauloDay } from '../../contracts/calendar.js';

describe('calendar days', () => {
  it.each(['2025-01-31', '2024-02-29', '0001-01-01', '2099-12-31'])('%s is a day', (date) => {
    expect(isCalendarDate(date)).toBe(true);
  });

  it.each(['2025-02-29', '2025-04-31', '2025-13-01', '2025-1-1', '2025-01-01T00:00:00Z', '0000-01-01', ' 2025-01-01', 20250101])(
    '%s is not',
    (value) => {
      expect(isCalendarDate(value)).toBe(false);
    },
  );

  it('adds days across months, years and 29 February', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2026-03-10', -40)).toBe('2026-01-29');
  });

  it('counts days between two dates, whatever lies between (checked by stepping one day at a time)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: -800, max: 800 }), (start, span) => {
        const from = addDays('1990-01-01', start);
        let day = from;
        for (let i = 0; i < Math.abs(span); i += 1) day = addDays(day, Math.sign(span));
        expect(daysBetween(from, day)).toBe(span);
      }),
    );
  });

  it('adds months, keeping the day of the month or clamping it to the last day of the month', () => {
    expect(addMonths('2026-01-15', 1)).toBe('2026-02-15');
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-08-31', 3)).toBe('2026-11-30');
    expect(addMonths('2026-11-30', 14)).toBe('2028-01-30');
    expect(addMonths('2026-03-31', -1)).toBe('2026-02-28');
  });

  it('adds years, 29 February becoming 28 February in a common year', () => {
    expect(addYears('2026-03-10', 5)).toBe('2031-03-10');
    expect(addYears('2028-02-29', 5)).toBe('2033-02-28');
    expect(addYears('2028-02-29', 4)).toBe('2032-02-29');
  });
});

describe('São Paulo days', () => {
  it('names the day in São Paulo, three hours behind UTC since 2019', () => {
    expect(saoPauloDate(new Date('2026-03-11T02:59:59.999Z'))).toBe('2026-03-10');
    expect(saoPauloDate(new Date('2026-03-11T03:00:00.000Z'))).toBe('2026-03-11');
  });

  it('starts a day at 00:00 −03:00', () => {
    expect(startOfSaoPauloDay('2026-03-11').toISOString()).toBe('2026-03-11T03:00:00.000Z');
    expect(startOfSaoPauloDay('2031-01-01').toISOString()).toBe('2031-01-01T03:00:00.000Z');
  });

  it('starts a day on which daylight saving began at midnight at its first instant (2018-11-04 began at 01:00 −02:00)', () => {
    expect(startOfSaoPauloDay('2018-11-04').toISOString()).toBe('2018-11-04T03:00:00.000Z');
    // and the day it ended, when 00:00 came twice, at the second (−03:00): the day before ends at 23:59 of the first
    expect(startOfSaoPauloDay('2019-02-17').toISOString()).toBe('2019-02-17T03:00:00.000Z');
    expect(startOfSaoPauloDay('2018-12-01').toISOString()).toBe('2018-12-01T02:00:00.000Z');
  });

  it('the start of a day is its first instant: a millisecond before is the day before', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30_000 }), (offset) => {
        const day = addDays('2000-01-01', offset);
        const start = startOfSaoPauloDay(day);
        expect(saoPauloDate(start)).toBe(day);
        expect(saoPauloDate(new Date(start.getTime() - 1))).toBe(addDays(day, -1));
      }),
      { numRuns: 300 },
    );
  });
});
