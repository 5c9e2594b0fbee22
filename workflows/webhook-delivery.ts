// One workflow per webhook delivery (event × target), id `webhook-delivery:<delivery id>`; an
// operator's redelivery runs it again with one attempt. Each attempt is an activity that POSTs
// (8-second timeout) and records itself; failed attempts wait by the contract's retry schedule. A
// settlement makes attempt 1 itself at once and starts this run only if it failed (firstAttemptOutside).
import { condition, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.js';
import { HEARTBEAT_TIMEOUT } from '../contracts/heartbeat.contract.js';
import {
  FIRST_ATTEMPT_WAIT_MS,
  firstAttemptSignal,
  retryDelayMs,
  type AttemptOutcome,
  type WebhookDeliveryWorkflow,
} from '../contracts/webhook-delivery.contract.js';

// The activity's own retries cover infrastructure failures (database, worker crash), not the
// receiver's answer, which comes back as an outcome: without a limit, backing off to a minute.
const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '30 seconds',
  heartbeatTimeout: HEARTBEAT_TIMEOUT,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export const webhookDeliveryWorkflow: WebhookDeliveryWorkflow = async (input) => {
  let firstOutcome: AttemptOutcome | null = null;
  setHandler(firstAttemptSignal, (outcome) => {
    firstOutcome ??= outcome;
  });
  let attempt = 1;
  if (input.firstAttemptOutside && (await condition(() => firstOutcome !== null, FIRST_ATTEMPT_WAIT_MS))) {
    if (firstOutcome !== 'failed' || input.attempts <= 1) return { outcome: firstOutcome!, attempts: 1 };
    await sleep(retryDelayMs(1, input.schedule));
    attempt = 2;
  }
  for (; ; attempt++) {
    const lastAttempt = attempt >= input.attempts;
    const outcome = await attemptWebhookDelivery({ deliveryId: input.deliveryId, trigger: input.trigger, lastAttempt });
    if (outcome !== 'failed' || lastAttempt) return { outcome, attempts: attempt };
    await sleep(retryDelayMs(attempt, input.schedule));
  }
};
