// The webhook delivery workflow's contract: one workflow per delivery (event × target), id
// `webhook-delivery:<delivery id>`; an operator's redelivery runs it again with one attempt under
// its own id. Each attempt is an activity; failed attempts wait by the retry schedule below.
import { defineSignal } from '@temporalio/workflow';

export type AttemptTrigger = 'automatic' | 'manual';

/** `abandoned`: nothing was sent because the target endpoint was disabled (the delivery is cancelled). */
export type AttemptOutcome = 'delivered' | 'failed' | 'abandoned';

/**
 * The automatic retry schedule: at most 8 attempts; after failed attempt n the next one waits
 * initial · 2^(n-1), capped at max. With the defaults (WEBHOOK_RETRY_INITIAL_MS=5000,
 * WEBHOOK_RETRY_MAX_MS=3600000) the waits are 5 s, 10 s, 20 s, 40 s, 80 s, 160 s and 320 s: the
 * 8th attempt starts about 10 min 35 s after the first.
 */
export const MAX_AUTOMATIC_ATTEMPTS = 8;

export interface RetrySchedule {
  initialMs: number;
  maxMs: number;
}

export function retryDelayMs(failedAttempt: number, schedule: RetrySchedule): number {
  return Math.min(schedule.initialMs * 2 ** (failedAttempt - 1), schedule.maxMs);
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  trigger: AttemptTrigger;
  /** How many attempts at most: 8 for the automatic delivery, 1 for a manual redelivery. */
  attempts: number;
  schedule: RetrySchedule;
  /**
   * The dispatcher made attempt 1 itself, at once, and tells its outcome (firstAttemptSignal): the run
   * waits for it, then retries by the schedule. The dispatcher now starts a run only after a failed
   * attempt 1, with the signal (signal-with-start); earlier ones started the run beside the attempt
   * and signalled either outcome. Absent in runs started before it existed.
   */
  firstAttemptOutside?: boolean;
}

export interface WebhookDeliveryResult {
  outcome: AttemptOutcome;
  attempts: number;
}

/** The outcome of attempt 1 when the dispatcher made it (WebhookDeliveryInput.firstAttemptOutside). */
export const firstAttemptSignal = defineSignal<[AttemptOutcome]>('firstAttempt');

/**
 * How long a run waits for the outcome of an attempt 1 made outside it (an 8-second POST, then the
 * signal) before making attempt 1 itself: the dispatching process died before it could tell.
 */
export const FIRST_ATTEMPT_WAIT_MS = 20_000;

export type WebhookDeliveryWorkflow = (input: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>;
export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

/** The automatic delivery's workflow: one per delivery, so dispatching an event twice starts nothing new. */
export const webhookDeliveryWorkflowId = (deliveryId: string): string => `webhook-delivery:${deliveryId}`;

/** An operator's redelivery: a workflow of its own beside the delivery's (`nonce` makes each one new). */
export const redeliveryWorkflowId = (deliveryId: string, nonce: string): string => `webhook-delivery:${deliveryId}:manual:${nonce}`;
