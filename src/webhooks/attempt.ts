// One attempt of a delivery, as the delivery workflow's activity runs it: read the event's stored
// body and the signing key, POST it signed, and record the attempt and the delivery's new status in
// one PostgreSQL transaction. The body is the payload stored with the event, so a delivery never
// carries a Transaction state older than its event.
import type { Deps } from '../runtime/deps.js';
import { SERVICE_VERSION } from '../http/edge.js';
import { countWebhookAttempt } from '../metrics/webhooks.js';
import { postWebhook, type AttemptResult } from './deliver.js';
import { signPayload } from './sign.js';
import type { AttemptOutcome, AttemptTrigger } from '../../contracts/webhook-delivery.contract.js';

export interface AttemptInput {
  deliveryId: string;
  trigger: AttemptTrigger;
  /** The last automatic attempt: a failure makes the delivery `failed`. */
  lastAttempt: boolean;
}

const USER_AGENT = `PixEngine-Webhooks/${SERVICE_VERSION}`;

export interface EventPayload {
  id: string;
  event: string;
  createdAt: string;
  data: unknown;
}

interface DeliveryToSend {
  url: string;
  status: string;
  eventType: string;
  payload: EventPayload;
  signingKey: string;
  endpointDisabled: boolean;
}

async function loadDelivery(deps: Deps, deliveryId: string): Promise<DeliveryToSend> {
  const [row] = await deps.sql<DeliveryToSend[]>`
    select d.url, d.status, e.type as "eventType", e.payload,
           coalesce(we.secret, k.key_hash) as "signingKey",
           (d.target = 'endpoint' and we.disabled_at is not null) as "endpointDisabled"
    from webhook_deliveries d
    join events e on e.id = d.event_id
    left join webhook_endpoints we on we.id = d.endpoint_id
    left join api_keys k on k.id = d.signing_key_id
    where d.id = ${deliveryId}`;
  if (!row) throw new Error(`webhook delivery ${deliveryId} not found`);
  return row;
}

/** The raw body: the stored envelope, its fields in the documented order. */
export function deliveryBody(payload: EventPayload): string {
  return JSON.stringify({ id: payload.id, event: payload.event, createdAt: payload.createdAt, data: payload.data });
}

/** The attempt and the delivery's new status, in one statement (so one transaction, one round trip). */
async function recordAttempt(deps: Deps, input: AttemptInput, startedAt: Date, result: AttemptResult): Promise<void> {
  await deps.sql`
    with delivery as (
      update webhook_deliveries set
        attempt_count = attempt_count + 1,
        status = case when ${result.ok} then 'succeeded'
                      when ${input.lastAttempt} and status = 'pending' then 'failed'
                      else status end,
        delivered_at = case when ${result.ok} then coalesce(delivered_at, now()) else delivered_at end,
        updated_at = now()
      where id = ${input.deliveryId}
      returning attempt_count
    )
    insert into webhook_attempts (delivery_id, number, trigger, success, status_code, error_code, error, duration_ms, started_at)
    select ${input.deliveryId}, attempt_count, ${input.trigger}, ${result.ok}, ${result.statusCode},
           ${result.errorCode}, ${result.error}, ${result.durationMs}, ${startedAt}
    from delivery`;
}

export async function attemptDelivery(deps: Deps, input: AttemptInput): Promise<AttemptOutcome> {
  const delivery = await loadDelivery(deps, input.deliveryId);
  // Already delivered (a manual redelivery got there, or this activity is retried after recording).
  if (input.trigger === 'automatic' && delivery.status === 'succeeded') return 'delivered';
  if (delivery.endpointDisabled) {
    await deps.sql`update webhook_deliveries set status = 'cancelled', updated_at = now() where id = ${input.deliveryId} and status = 'pending'`;
    return 'abandoned';
  }
  const body = deliveryBody(delivery.payload);
  const startedAt = new Date();
  const result = await postWebhook({
    url: delivery.url,
    body,
    allowInsecure: deps.config.webhookAllowInsecure,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': USER_AGENT,
      'X-Service-Event': delivery.eventType,
      'X-Service-Delivery': input.deliveryId,
      'X-Service-Signature': signPayload(delivery.signingKey, body, Math.floor(startedAt.getTime() / 1000)),
    },
  });
  await recordAttempt(deps, input, startedAt, result);
  countWebhookAttempt(result.ok, input.trigger === 'automatic', { type: delivery.eventType, recordedAt: delivery.payload.createdAt });
  if (!result.ok)
    deps.log.warn({ deliveryId: input.deliveryId, errorCode: result.errorCode, statusCode: result.statusCode }, 'webhook attempt failed');
  return result.ok ? 'delivered' : 'failed';
}
