// A recurrence's id, derived from (account, idempotency key) like a charge's, so that concurrent
// requests with one key name the same recurrence.
import { createHash } from 'node:crypto';

export function recurrenceIdOf(accountId: string, key: string): string {
  return `rec_${createHash('sha256').update(`recurrence\n${accountId}\n${key}`).digest('hex').slice(0, 24)}`;
}

/** The idempotency key of the engine's own charge of a cycle (a fixed-amount recurrence's). */
export const cycleChargeKey = (recurrenceId: string, dueDate: string) => `${recurrenceId}:cycle:${dueDate}`;

/** The idempotency key of a recurrence's first payment (journey 3). */
export const firstPaymentKey = (recurrenceId: string) => `${recurrenceId}:first-payment`;
