// Every call the engine makes to the webhook delivery workflows (contracts/webhook-delivery.contract.ts):
// the automatic delivery of an event to a target, and an operator's redelivery (one attempt, waited for).
import { randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { TIMED_OUT, within } from '../async/within.js';
import type { Deps } from '../runtime/deps.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from '../temporal/search-attributes.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';
import {
  firstAttemptSignal,
  MAX_AUTOMATIC_ATTEMPTS,
  redeliveryWorkflowId,
  WEBHOOK_DELIVERY_WORKFLOW,
  webhookDeliveryWorkflowId,
  type AttemptOutcome,
  type RetrySchedule,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  type WebhookDeliveryWorkflow,
} from '../../contracts/webhook-delivery.contract.js';

/** How long an operator's redelivery request waits for its attempt (8 s at most, plus scheduling). */
const REDELIVERY_WAIT_MS = 20_000;

/** Whose delivery it is: delivery workflows carry the account and transaction search attributes, so operators find them in the Web UI. */
export interface DeliveryOwner {
  accountId: string;
  transactionId: string | null;
}

/** Where a delivery workflow runs, under which id, and what it carries for operators. */
function deliveryOptions(deps: Deps, workflowId: string, owner: DeliveryOwner) {
  return {
    taskQueue: deps.config.temporalTaskQueue,
    workflowId,
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    workflowTaskTimeout: WORKFLOW_TASK_TIMEOUT,
    typedSearchAttributes: [
      { key: ACCOUNT_ID_ATTRIBUTE, value: owner.accountId },
      ...(owner.transactionId === null ? [] : [{ key: TRANSACTION_ID_ATTRIBUTE, value: owner.transactionId }]),
    ],
  };
}

function startDelivery(deps: Deps, workflowId: string, input: WebhookDeliveryInput, owner: DeliveryOwner) {
  return deps.temporal.workflow.start<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
    ...deliveryOptions(deps, workflowId, owner),
    args: [input],
  });
}

const scheduleOf = (deps: Deps): RetrySchedule => ({ initialMs: deps.config.webhookRetryInitialMs, maxMs: deps.config.webhookRetryMaxMs });

function automaticInput(deps: Deps, deliveryId: string, firstAttemptOutside: boolean): WebhookDeliveryInput {
  return {
    deliveryId,
    trigger: 'automatic',
    attempts: MAX_AUTOMATIC_ATTEMPTS,
    schedule: scheduleOf(deps),
    ...(firstAttemptOutside ? { firstAttemptOutside } : {}),
  };
}

/** Starts the automatic delivery of `deliveryId`; a delivery whose workflow already ran or runs starts nothing. */
export async function startAutomaticDelivery(deps: Deps, deliveryId: string, owner: DeliveryOwner): Promise<void> {
  try {
    await startDelivery(deps, webhookDeliveryWorkflowId(deliveryId), automaticInput(deps, deliveryId, false), owner);
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * Starts the automatic delivery of `deliveryId` whose attempt 1, made outside its run, failed: the run
 * starts with the `firstAttempt` signal saying so and makes the retries. A run already there (a retried
 * dispatch) gets the signal, and ignores it if it no longer waits for one; a run that has ended is left so.
 */
export async function startAfterFailedFirstAttempt(deps: Deps, deliveryId: string, owner: DeliveryOwner): Promise<void> {
  try {
    await deps.temporal.workflow.signalWithStart<WebhookDeliveryWorkflow, [AttemptOutcome]>(WEBHOOK_DELIVERY_WORKFLOW, {
      ...deliveryOptions(deps, webhookDeliveryWorkflowId(deliveryId), owner),
      args: [automaticInput(deps, deliveryId, true)],
      signal: firstAttemptSignal,
      signalArgs: ['failed'],
    });
  } catch (err) {
    // Its run has ended already: it made the retries.
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * An operator's redelivery: one immediate attempt, whatever the delivery's status. Waits for its
 * outcome; null when it has not finished within REDELIVERY_WAIT_MS (it still runs).
 */
export async function redeliver(deps: Deps, delivery: DeliveryOwner & { id: string }): Promise<WebhookDeliveryResult | null> {
  const workflowId = redeliveryWorkflowId(delivery.id, randomBytes(6).toString('hex'));
  const handle = await startDelivery(
    deps,
    workflowId,
    { deliveryId: delivery.id, trigger: 'manual', attempts: 1, schedule: scheduleOf(deps) },
    delivery,
  );
  const result = await within(handle.result(), REDELIVERY_WAIT_MS);
  return result === TIMED_OUT ? null : result;
}
