// How long a due-date charge can be paid: through the day `validityAfterDue` days after its due date,
// in America/Sao_Paulo; at 00:00 of the next day it expires.
import type { DueDateTerms } from '../charges/contract.js';
import { addDays, daysBetween, startOfSaoPauloDay } from '../../contracts/calendar.js';

/** The last day the charge can be paid (`YYYY-MM-DD`). */
export function lastPayableDay({ dueDate, billing }: DueDateTerms): string {
  return addDays(dueDate, billing.validityAfterDue);
}

/** The instant an unpaid charge expires: 00:00 in São Paulo of the day after its last payable day. */
export function dueDateExpiresAt(terms: DueDateTerms): Date {
  return startOfSaoPauloDay(addDays(lastPayableDay(terms), 1));
}

/** Whether `day` is past the charge's validity. */
export function isPastValidity(terms: DueDateTerms, day: string): boolean {
  return daysBetween(lastPayableDay(terms), day) > 0;
}
