// Webhook attempts, counted after the attempt was recorded (webhooks/attempt.ts).
import { webhookAttempts, webhookDeliveryLatency } from './registry.js';

/**
 * `recordedAt`: when the event was recorded, in the same PostgreSQL transaction as the status change
 * it describes; an automatic attempt that succeeded observes the change → webhook answered latency
 * (a manual redelivery says nothing about it).
 */
export function countWebhookAttempt(ok: boolean, automatic: boolean, event: { type: string; recordedAt: string }): void {
  webhookAttempts.inc({ outcome: ok ? 'success' : 'failure' });
  if (ok && automatic)
    webhookDeliveryLatency.observe({ event: event.type }, Math.max(0, (Date.now() - Date.parse(event.recordedAt)) / 1000));
}
