// The engine's one calendar: days (`YYYY-MM-DD`) as São Paulo counts them (America/Sao_Paulo), whatever
// the server's own time zone, for src/ and for workflow code alike. Day arithmetic is done on UTC
// midnights, where every day has 24 hours. The day at an instant follows the zone's rules through Intl
// (−03:00 all year since 2019), which gives the same answers inside Temporal's workflow sandbox.

export const SAO_PAULO = 'America/Sao_Paulo';

const DAY_MS = 86_400_000;
const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The UTC midnight of `date`, or null when `date` is not a day of the calendar (`2025-02-29`, `2025-1-1`). */
function utcMidnight(date: string): number | null {
  const match = CALENDAR_DATE.exec(date);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // setUTCFullYear, not Date.UTC, which reads years 0 to 99 as 1900 to 1999.
  const back = new Date(0);
  back.setUTCFullYear(year, month - 1, day);
  if (year < 1 || back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return back.getTime();
}

const formatUtc = (time: number) => new Date(time).toISOString().slice(0, 10);

function mustParse(date: string): number {
  const time = utcMidnight(date);
  if (time === null) throw new RangeError(`not a calendar date: ${date}`);
  return time;
}

export function isCalendarDate(value: unknown): value is string {
  return typeof value === 'string' && utcMidnight(value) !== null;
}

export function addDays(date: string, days: number): string {
  return formatUtc(mustParse(date) + days * DAY_MS);
}

/** `to` − `from` in calendar days (negative when `to` comes first). */
export function daysBetween(from: string, to: string): number {
  return Math.round((mustParse(to) - mustParse(from)) / DAY_MS);
}

/** The same day `months` later, clamped to that month's last day (31 January + 1 month: 28 or 29 February). */
export function addMonths(date: string, months: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const target = new Date(0);
  target.setUTCFullYear(year, month - 1 + months, 1);
  const lastDay = new Date(target.getTime());
  lastDay.setUTCMonth(target.getUTCMonth() + 1, 0);
  target.setUTCDate(Math.min(day, lastDay.getUTCDate()));
  return formatUtc(target.getTime());
}

/** The same day `years` later; 29 February becomes 28 February in a year without it. */
export function addYears(date: string, years: number): string {
  return addMonths(date, 12 * years);
}

const saoPauloClock = new Intl.DateTimeFormat('en-US', {
  timeZone: SAO_PAULO,
  hourCycle: 'h23',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** São Paulo's offset from UTC at `time` (ms; −3 h since 2019). */
function offsetAt(time: number): number {
  const parts = Object.fromEntries(saoPauloClock.formatToParts(new Date(time)).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wall - Math.floor(time / 1000) * 1000;
}

/** The calendar day in São Paulo at `instant`. */
export function saoPauloDate(instant: Date): string {
  const time = instant.getTime();
  return formatUtc(time + offsetAt(time));
}

/**
 * The first instant of `date` in São Paulo (00:00, −03:00 since 2019). Should a daylight-saving change
 * come back, the offset of the evening before or of the day's noon is the right one: of the two
 * candidates, the earliest that already falls on `date`.
 */
export function startOfSaoPauloDay(date: string): Date {
  const midnight = mustParse(date);
  const candidates = [midnight - offsetAt(midnight - DAY_MS / 2), midnight - offsetAt(midnight + DAY_MS / 2)].sort((a, b) => a - b);
  const start = candidates.find((time) => saoPauloDate(new Date(time)) === date) ?? candidates[1]!;
  return new Date(start);
}
