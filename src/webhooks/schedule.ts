// The automatic retry schedule of a webhook delivery (pure: the delivery workflow imports it).
// At most 8 attempts; after failed attempt n the next one waits initial · 2^(n-1), capped at max.
// With the defaults (WEBHOOK_RETRY_INITIAL_MS=5000, WEBHOOK_RETRY_MAX_MS=3600000) the waits are
// 5 s, 10 s, 20 s, 40 s, 80 s, 160 s and 320 s: the 8th attempt starts about 10 min 35 s after the first.

export const MAX_AUTOMATIC_ATTEMPTS = 8;

export interface RetrySchedule {
  initialMs: number;
  maxMs: number;
}

export function retryDelayMs(failedAttempt: number, schedule: RetrySchedule): number {
  return Math.min(schedule.initialMs * 2 ** (failedAttempt - 1), schedule.maxMs);
}
