// The recurrence workflow's contract (Pix Automático, design/pix-automatico.md): one workflow per
// recurrence, id `recurrence:<accountId>:<idempotency key>`. It waits for the payer's authorization,
// creates each cycle's charge RECURRENCE_LEAD_DAYS before its due date (a fixed amount), cancels the
// cycles not yet due when either side cancels, completes past the end date, and continues as new so
// that a recurrence of years keeps a small history. Also the calendar of its cycles (on the engine's
// calendar, ./calendar.ts), which the workflow and the read model share.
import { defineSignal, defineUpdate } from '@temporalio/workflow';
import { addDays, addMonths } from '../../contracts/calendar.js';

export const RECURRENCE_FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'semiannual', 'annual'] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

export const RECURRENCE_STATUSES = ['pending_authorization', 'active', 'rejected', 'expired', 'cancelled', 'completed'] as const;
export type RecurrenceStatus = (typeof RECURRENCE_STATUSES)[number];

export const RETRY_POLICIES = ['none', 'three_in_seven_days'] as const;
export type RetryPolicy = (typeof RETRY_POLICIES)[number];

export type CancelledBy = 'merchant' | 'payer' | 'route';

/** What the payer authorizes: the parties' contract, its calendar, the amounts and the retry policy (the read model's row and a route's request both hold them). */
export interface RecurrenceTerms {
  payer: { name: string; document: string };
  contract: string;
  description: string;
  frequency: RecurrenceFrequency;
  firstDueDate: string;
  endDate: string | null;
  amountCents: number | null;
  minimumAmountCents: number | null;
  retryPolicy: RetryPolicy;
}

/** A cycle charge's tie to its recurrence, as the charge's draft carries it (ChargeAsked.cycle). */
export interface CycleTerms {
  recurrenceId: string;
  retryPolicy: RetryPolicy;
}

export interface RecurrenceWorkflowInput {
  recurrenceId: string;
  accountId: string;
  frequency: RecurrenceFrequency;
  firstDueDate: string;
  endDate: string | null;
  /** A fixed amount: the engine creates each cycle; a variable one: the business does. */
  fixedAmount: boolean;
  /** RECURRENCE_LEAD_DAYS when it started. */
  leadDays: number;
  authorizationExpiresAtMs: number;
  /** A run continued as new: the recurrence is active and its cycles before this index were handled. */
  continued?: { nextCycle: number };
  /** On a remote route (a PSP): the payer's answer is the route's (RECURRENCE_AT_ROUTE). Absent in runs before it. */
  remote?: boolean;
}

/** A change one side asks of the recurrence; the update answers the status after it. */
export type RecurrenceChange =
  { change: 'authorize'; maximumAmountCents?: number } | { change: 'reject' } | { change: 'cancel'; by: CancelledBy };

/** What the workflow's activities persist (each records recurrence.updated and dispatches it). */
export type RecurrenceTransition = RecurrenceChange | { change: 'expire' } | { change: 'complete' };

export const changeUpdate = defineUpdate<RecurrenceStatus, [RecurrenceChange]>('change');

/**
 * From this patch on, a recurrence on a remote route (input `remote`) learns the payer's answer from the
 * route: it asks the route when a PSP webhook names it (recurrenceNotifiedSignal) and on a schedule
 * (routePollDelayMs), and takes the answer the route gives (authorized, rejected, expired, cancelled by the
 * payer); the merchant's cancellation and the expiry are asked of the route first (its answer prevails).
 * Only remote recurrences reach it: no run recorded before it takes the branch.
 */
export const RECURRENCE_AT_ROUTE = 'recurrence-at-route';

/** A PSP webhook named the recurrence: the workflow asks the route (the webhook's body is never trusted). */
export const recurrenceNotifiedSignal = defineSignal<[]>('recurrenceNotified');

/**
 * Polling a remote route, the fallback of its webhooks: while the payer has not answered, 5 s doubling to
 * every 6 hours (a week of it is about 30 polls); once active, daily (a payer's cancellation).
 */
export function routePollDelayMs(status: RecurrenceStatus, poll: number): number {
  return status === 'active' ? 86_400_000 : Math.min(5000 * 2 ** poll, 6 * 3_600_000);
}

export const RECURRENCE_WORKFLOW = 'recurrenceWorkflow';
export const recurrenceWorkflowId = (accountId: string, key: string): string => `recurrence:${accountId}:${key}`;

/** Cycles per run before the workflow continues as new: a year of monthly cycles, about 150 history events. */
export const CYCLES_PER_RUN = 12;
/** The Central Bank's window: a cycle's charge reaches the payer's bank 2 to 10 days before its due date. */
export const MIN_LEAD_DAYS = 2;
export const MAX_LEAD_DAYS = 10;
/** Days after the due date a cycle with `three_in_seven_days` is retried on (the 1st, 3rd and 6th). */
export const RETRY_DAYS = [1, 3, 6] as const;
/** After the last due date, how long the workflow gives the last cycle (its retries) before it completes. */
export const COMPLETION_GRACE_DAYS = 7;

const MONTHS: Record<Exclude<RecurrenceFrequency, 'weekly'>, number> = { monthly: 1, quarterly: 3, semiannual: 6, annual: 12 };

/** The due date of cycle `index` (0 is `firstDueDate`): weekly adds 7 days; longer frequencies keep the day of the month. */
export function cycleDueDate(firstDueDate: string, frequency: RecurrenceFrequency, index: number): string {
  return frequency === 'weekly' ? addDays(firstDueDate, 7 * index) : addMonths(firstDueDate, MONTHS[frequency] * index);
}

/** The first cycle due on `today` or later (within `endDate`); null when none is left. */
export function nextCycleDueDate(
  firstDueDate: string,
  frequency: RecurrenceFrequency,
  endDate: string | null,
  today: string,
): string | null {
  for (let index = 0; ; index += 1) {
    const due = cycleDueDate(firstDueDate, frequency, index);
    if (endDate !== null && due > endDate) return null;
    if (due >= today) return due;
  }
}

/**
 * The day a declined cycle is attempted again after `declined` failed attempts: the first of due date
 * + 1, + 3, + 6 days still ahead of `today`, at most three retries; null when the cycle fails.
 */
export function retryDay(dueDate: string, declined: number, today: string): string | null {
  for (let retry = declined - 1; retry < RETRY_DAYS.length; retry += 1) {
    const day = addDays(dueDate, RETRY_DAYS[retry]!);
    if (day > today) return day;
  }
  return null;
}
