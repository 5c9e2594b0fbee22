// From a recorded event to running deliveries. The targets of an event are the account's active
// registered endpoints and the charge's own webhookUrl (once: a webhookUrl equal to a registered
// endpoint's URL is that endpoint's delivery; a recurrence's events go to the recurrence's webhookUrl). Each target gets one delivery row and at most one
// delivery workflow, both keyed by event and target, so dispatching an event twice starts nothing new.
import { createHash } from 'node:crypto';
import type { Deps } from '../runtime/deps.js';
import { attemptDelivery } from './attempt.js';
import { startAfterFailedFirstAttempt, startAutomaticDelivery, type DeliveryOwner } from './workflow-client.js';

interface Target {
  target: 'endpoint' | 'charge';
  targetKey: string;
  url: string;
  endpointId: string | null;
  signingKeyId: string | null;
}

/** An event with what its targets are resolved from: the account's active endpoints and its charge's own URL. */
interface EventRow {
  id: string;
  accountId: string;
  transactionId: string | null;
  endpoints: { id: string; url: string }[];
  chargeWebhookUrl: string | null;
  chargeApiKeyId: string | null;
}

/** Stable for an event and target: the X-Service-Delivery header of every attempt, and (in the contract's form) the workflow id. */
function deliveryIdFor(eventId: string, targetKey: string): string {
  return `whd_${createHash('sha256').update(`${eventId}\n${targetKey}`).digest('hex').slice(0, 32)}`;
}

/** Registered endpoint URLs are stored normalized; a charge's webhookUrl is compared the same way. */
function sameUrl(a: string, b: string): boolean {
  return URL.canParse(a) && URL.canParse(b) ? new URL(a).href === new URL(b).href : a === b;
}

function resolveTargets(event: EventRow): Target[] {
  const { endpoints, chargeWebhookUrl } = event;
  const targets: Target[] = endpoints.map((e) => ({
    target: 'endpoint',
    targetKey: e.id,
    url: e.url,
    endpointId: e.id,
    signingKeyId: null,
  }));
  if (!chargeWebhookUrl || endpoints.some((e) => sameUrl(e.url, chargeWebhookUrl))) return targets;
  // The signing key is the endpoint secret; only an account without any endpoint uses the legacy key.
  const signer = endpoints[0]
    ? { endpointId: endpoints[0].id, signingKeyId: null }
    : { endpointId: null, signingKeyId: event.chargeApiKeyId };
  if (signer.endpointId === null && signer.signingKeyId === null) return targets;
  return [...targets, { target: 'charge', targetKey: 'charge', url: chargeWebhookUrl, ...signer }];
}

/**
 * Makes attempt 1 at once, in this process, and starts the delivery's workflow only when it failed: the
 * run starts told so (signal-with-start) and makes the retries. A delivered attempt 1 needs no workflow;
 * it is recorded like any other. The settlement activity calling this ends after the attempt, so if this
 * process dies first, the activity is retried and finds the delivery still pending: at least one POST.
 */
async function attemptFirstHere(deps: Deps, deliveryId: string, owner: DeliveryOwner): Promise<void> {
  const outcome = await attemptDelivery(deps, { deliveryId, trigger: 'automatic', lastAttempt: false });
  if (outcome === 'failed') await startAfterFailedFirstAttempt(deps, deliveryId, owner);
}

/**
 * Creates the deliveries of an event and starts those still pending; idempotent. Returns the delivery ids.
 * `firstAttemptNow`: attempt 1 of each is made at once by this process (attemptFirstHere).
 */
export async function dispatchEvent(deps: Deps, eventId: string, options: { firstAttemptNow?: boolean } = {}): Promise<string[]> {
  const [event] = await deps.sql<EventRow[]>`
    select e.id, e.account_id as "accountId", e.transaction_id as "transactionId",
           coalesce((select json_agg(json_build_object('id', w.id, 'url', w.url) order by w.created_at, w.id)
                       from webhook_endpoints w where w.account_id = e.account_id and w.disabled_at is null), '[]') as endpoints,
           coalesce(t.webhook_url, r.webhook_url) as "chargeWebhookUrl", coalesce(t.api_key_id, r.api_key_id) as "chargeApiKeyId"
    from events e left join transactions t on t.id = e.transaction_id left join recurrences r on r.id = e.recurrence_id
    where e.id = ${eventId}`;
  if (!event) {
    deps.log.error({ eventId }, 'webhook dispatch: event not found');
    return [];
  }
  const targets = resolveTargets(event);
  if (targets.length === 0) return [];
  const rows = targets.map((t) => ({
    id: deliveryIdFor(event.id, t.targetKey),
    event_id: event.id,
    account_id: event.accountId,
    transaction_id: event.transactionId,
    target: t.target,
    target_key: t.targetKey,
    url: t.url,
    endpoint_id: t.endpointId,
    signing_key_id: t.signingKeyId,
  }));
  // The deliveries inserted now and those of an earlier dispatch still pending (the statement's snapshot
  // does not see its own inserts, so they come from `returning`).
  const pending = await deps.sql<{ id: string }[]>`
    with inserted as (
      insert into webhook_deliveries ${deps.sql(rows)} on conflict (event_id, target_key) do nothing returning id
    )
    select id from inserted
    union
    select id from webhook_deliveries where id in ${deps.sql(rows.map((r) => r.id))} and status = 'pending'`;
  const start = options.firstAttemptNow ? attemptFirstHere : startAutomaticDelivery;
  await Promise.all(pending.map(({ id }) => start(deps, id, event)));
  return rows.map((r) => r.id);
}
