import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInstant } from '../../src/domain/instant.js';

describe('parseInstant', () => {
  it.each([
    ['2025-01-31T03:00:00.000Z', '2025-01-31T03:00:00.000Z'],
    ['2025-01-31T00:00:00-03:00', '2025-01-31T03:00:00.000Z'],
    ['2025-01-31T05:30:00+05:30', '2025-01-31T00:00:00.000Z'],
    ['2024-02-29T23:59:59Z', '2024-02-29T23:59:59.000Z'],
    ['2025-01-01t00:00:00.5z', '2025-01-01T00:00:00.500Z'],
    // A fraction is read to the millisecond.
    ['2025-01-01T00:00:00.123999Z', '2025-01-01T00:00:00.123Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-12-31T23:00:00-01:00', '0100-01-01T00:00:00.000Z'],
    // Before year 1 once the offset applies: the first instant of year 1 (PostgreSQL has no year 0).
    ['0001-01-01T00:30:00+01:00', '0001-01-01T00:00:00.000Z'],
    ['0001-01-01T10:02:16+19:42', '0001-01-01T00:00:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each([
    ['a date alone', '2025-01-31'],
    ['no offset', '2025-01-31T03:00:00'],
    ['no seconds', '2025-01-31T03:00Z'],
    ['a day the month does not have', '2025-02-29T00:00:00Z'],
    ['day 31 of a 30-day month', '2025-04-31T00:00:00Z'],
    ['month 13', '2025-13-01T00:00:00Z'],
    ['hour 24', '2025-01-01T24:00:00Z'],
    ['a leap second', '2016-12-31T23:59:60Z'],
    ['offset hour 24', '2025-01-01T00:00:00+24:00'],
    ['year 0', '0000-06-01T00:00:00Z'],
    ['text around it', ' 2025-01-01T00:00:00Z'],
  ])('refuses %s', (_, text) => {
    expect(parseInstant(text)).toBeNull();
  });

  it('reads back what Date writes, for any instant from year 1 to 9999', () => {
    const range = { min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true };
    fc.assert(fc.property(fc.date(range), (date) => parseInstant(date.toISOString())?.getTime() === date.getTime()));
  });
});
