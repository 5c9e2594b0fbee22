// Every call the engine makes to the webhook delivery workflows (workflows/webhook-delivery.contract.ts):
// the automatic delivery of an event to a target, and an operator's redelivery (one attempt, waited for).
import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { TIMED_OUT, within } from '../async/within.js';
import type { Deps } from '../deps.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from '../temporal/search-attributes.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import type { AttemptOutcome } from './attempt.js';
import {
  firstAttemptSignal,
  MAX_AUTOMATIC_ATTEMPTS,
  redeliveryWorkflowId,
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryWorkflowId,
  type RetrySchedule,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  type WebhookDeliveryWorkflow,
} from '../../workflows/webhook-delivery.contract.js';

/** How long an operator's redelivery request waits for its attempt (8 s at most, plus scheduling). */
const REDELIVERY_WAIT_MS = 20_000;

/** Whose delivery it is: delivery workflows carry the account and transaction search attributes, so operators find them in the Web UI. */
export interface DeliveryOwner {
  accountId: string;
  transactionId: string | null;
}

function startDelivery(deps: Deps, workflowId: string, input: WebhookDeliveryInput, owner: DeliveryOwner) {
  return deps.temporal.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
    taskQueue: deps.config.temporalTaskQueue,
    workflowId,
    args: [input],
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    typedSearchAttributes: [
      { key: ACCOUNT_ID_ATTRIBUTE, value: owner.accountId },
      ...(owner.transactionId === null ? [] : [{ key: TRANSACTION_ID_ATTRIBUTE, value: owner.transactionId }]),
    ],
  });
}

const scheduleOf = (deps: Deps): RetrySchedule => ({ initialMs: deps.config.webhookRetryInitialMs, maxMs: deps.config.webhookRetryMaxMs });

/**
 * Starts the automatic delivery of `deliveryId`; a delivery whose workflow already ran or runs starts nothing.
 * `firstAttemptOutside`: the caller makes attempt 1 itself and tells the run with tellFirstAttempt.
 */
export async function startAutomaticDelivery(deps: Deps, deliveryId: string, owner: DeliveryOwner, firstAttemptOutside = false): Promise<void> {
  try {
    const input: WebhookDeliveryInput = {
      deliveryId,
      trigger: 'automatic',
      attempts: MAX_AUTOMATIC_ATTEMPTS,
      schedule: scheduleOf(deps),
      ...(firstAttemptOutside ? { firstAttemptOutside } : {}),
    };
    await startDelivery(deps, webhookDeliveryWorkflowId(deliveryId), input, owner);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Tells a delivery's run the outcome of the attempt 1 made outside it; a run that no longer waits ignores it. */
export async function tellFirstAttempt(deps: Deps, deliveryId: string, outcome: AttemptOutcome): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(webhookDeliveryWorkflowId(deliveryId)).signal(firstAttemptSignal, outcome);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/**
 * An operator's redelivery: one immediate attempt, whatever the delivery's status. Waits for its
 * outcome; null when it has not finished within REDELIVERY_WAIT_MS (it still runs).
 */
export async function redeliver(deps: Deps, delivery: DeliveryOwner & { id: string }): Promise<WebhookDeliveryResult | null> {
  const workflowId = redeliveryWorkflowId(delivery.id, randomBytes(6).toString('hex'));
  const handle = await startDelivery(deps, workflowId, { deliveryId: delivery.id, trigger: 'manual', attempts: 1, schedule: scheduleOf(deps) }, delivery);
  const result = await within(handle.result(), REDELIVERY_WAIT_MS);
  return result === TIMED_OUT ? null : result;
}
