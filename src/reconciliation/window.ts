// The window a scheduled run reconciles: the day before the schedule fired, 00:00 to 24:00 in
// America/Sao_Paulo (books.md), whatever offset that zone had on that day.
export const RECONCILE_TIME_ZONE = 'America/Sao_Paulo';

/** The zone's offset from UTC at `instant`, in ms (−3 h for São Paulo today). */
function offsetMs(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, Number(part.value)]),
  );
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return asUtc - Math.floor(instant / 1000) * 1000;
}

/** The instant the zone's local day (year, month, day) begins; `day` may overflow (0 is the day before the 1st). */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): Date {
  const midnightAsUtc = Date.UTC(year, month - 1, day);
  const guess = midnightAsUtc - offsetMs(midnightAsUtc, timeZone);
  // The offset at the guess itself, in case it changed between the two instants.
  return new Date(midnightAsUtc - offsetMs(guess, timeZone));
}

/** [00:00, 24:00) of the local day before the one `at` falls on, in `timeZone`. */
export function previousLocalDay(at: Date, timeZone = RECONCILE_TIME_ZONE): { from: Date; to: Date } {
  const local = new Date(at.getTime() + offsetMs(at.getTime(), timeZone));
  const [year, month, day] = [local.getUTCFullYear(), local.getUTCMonth() + 1, local.getUTCDate()];
  return { from: startOfLocalDay(year, month, day - 1, timeZone), to: startOfLocalDay(year, month, day, timeZone) };
}
