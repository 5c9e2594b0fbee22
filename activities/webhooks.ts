// Webhook activities. `dispatchEvent` is called by the MED workflow, and by charge and transfer runs
// started before their settlements dispatched their own events, after an event was recorded (events
// table): it creates the event's deliveries and starts their workflows (idempotent, so a Temporal
// retry is harmless). `attemptWebhookDelivery` is one signed POST of a delivery.
import type { Deps } from '../src/deps.js';
import { attemptDelivery, type AttemptInput, type AttemptOutcome } from '../src/webhooks/attempt.js';
import { dispatchEvent } from '../src/webhooks/dispatch.js';

export function webhookActivities(deps: Deps) {
  return {
    async dispatchEvent(eventId: string): Promise<void> {
      await dispatchEvent(deps, eventId);
    },
    async attemptWebhookDelivery(input: AttemptInput): Promise<AttemptOutcome> {
      return attemptDelivery(deps, input);
    },
  };
}

export type WebhookActivities = ReturnType<typeof webhookActivities>;
