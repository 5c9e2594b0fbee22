// The window a scheduled run reconciles: the day before the schedule fired, 00:00 to 24:00 in
// America/Sao_Paulo (books.md), whatever offset the zone had on that day.
import { addDays, saoPauloDate, startOfSaoPauloDay } from '../../contracts/calendar.js';

/** [00:00, 24:00) of the São Paulo day before the one `at` falls on. */
export function previousLocalDay(at: Date): { from: Date; to: Date } {
  const today = saoPauloDate(at);
  return { from: startOfSaoPauloDay(addDays(today, -1)), to: startOfSaoPauloDay(today) };
}
