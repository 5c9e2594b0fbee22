// Instants as the edges take them: RFC 3339 date-times (ISO 8601 with a date, a time to the second and
// an offset, `Z` or ±hh:mm) on a date that exists; a fraction of a second is read to the millisecond,
// the precision of the engine's dates.

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:Z|([+-])(\d{2}):(\d{2}))$/i;

const YEAR_ONE = Date.parse('0001-01-01T00:00:00.000Z');

const leap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysIn = (year: number, month: number) => (month === 2 ? (leap(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31);

/** The instant `text` names, or null when it is not one (`2025-02-30T00:00:00Z`, `2025-01-01`, no offset). */
export function parseInstant(text: string): Date | null {
  const match = INSTANT.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const [offsetHours, offsetMinutes] = [Number(match[9] ?? 0), Number(match[10] ?? 0)];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const milliseconds = Number((match[7] ?? '.').slice(1).padEnd(3, '0').slice(0, 3));
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute, second, milliseconds);
  const sign = match[8] === '-' ? -1 : 1;
  instant.setTime(instant.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000);
  // An offset can carry the first hours of year 1 into year 0, which PostgreSQL does not have: such an
  // instant is read as the first instant of year 1 (a valid RFC 3339 text is never refused for it).
  return instant.getUTCFullYear() >= 1 ? instant : new Date(YEAR_ONE);
}
