// Webhook activities. `dispatchEvent` is called by every workflow after it recorded an event
// (events table): it hands the event to the delivery machinery.
import type { Deps } from '../src/deps.js';

export function webhookActivities(_deps: Deps) {
  return {
    // TODO(webhooks helper): start the delivery of the event to every endpoint.
    async dispatchEvent(_eventId: string): Promise<void> {},
  };
}
