// Webhook activities. `dispatchEvent` is called by the MED workflow, and by charge and transfer runs
// started before SETTLE_DISPATCHES_EVENTS, after an event was recorded (events
// table): it creates the event's deliveries and starts their workflows (idempotent, so a Temporal
// retry is harmless). `attemptWebhookDelivery` is one signed POST of a delivery. `settlement` is how the
// charge and transfer settlement activities dispatch their own events.
import type { Deps } from '../src/runtime/deps.js';
import { attemptDelivery, type AttemptInput } from '../src/webhooks/attempt.js';
import { dispatchEvent } from '../src/webhooks/dispatch.js';
import type { SettleOptions, Settled, TransactionState } from '../contracts/transaction.contract.js';
import type { AttemptOutcome } from '../contracts/webhook-delivery.contract.js';

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

/**
 * What a settlement activity answers: the settled transaction, as its workflow knows it, and the events
 * recorded with it. Runs patched with SETTLE_DISPATCHES_EVENTS ask the activity to dispatch those events
 * itself (one activity instead of one per event); a retry dispatches the same events again, which starts
 * nothing new. Runs started before the patch call without options and dispatch each event themselves.
 */
export async function settlement<S extends TransactionState>(
  deps: Deps,
  settling: Promise<Settled<S>>,
  options?: SettleOptions,
): Promise<Settled<S>> {
  const settled = await settling;
  if (options?.dispatch)
    for (const eventId of settled.eventIds) await dispatchEvent(deps, eventId, { firstAttemptNow: options.firstAttemptNow === true });
  return settled;
}
