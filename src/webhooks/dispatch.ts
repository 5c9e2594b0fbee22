// From a recorded event to running deliveries. The targets of an event are the account's active
// registered endpoints and the charge's own webhookUrl (once: a webhookUrl equal to a registered
// endpoint's URL is that endpoint's delivery). Each target gets one delivery row and one delivery
// workflow, both keyed by event and target, so dispatching an event twice starts nothing new.
import { createHash } from 'node:crypto';
import type { Sql } from '../db/database.js';
import type { Deps } from '../deps.js';
import { attemptDelivery } from './attempt.js';
import { startAutomaticDelivery, tellFirstAttempt, type DeliveryOwner } from './workflow-client.js';

interface Target {
  target: 'endpoint' | 'charge';
  targetKey: string;
  url: string;
  endpointId: string | null;
  signingKeyId: string | null;
}

interface EventRow {
  id: string;
  accountId: string;
  transactionId: string | null;
}

/** Stable for an event and target: the X-Service-Delivery header of every attempt, and (in the contract's form) the workflow id. */
function deliveryIdFor(eventId: string, targetKey: string): string {
  return `whd_${createHash('sha256').update(`${eventId}\n${targetKey}`).digest('hex').slice(0, 32)}`;
}

/** Registered endpoint URLs are stored normalized; a charge's webhookUrl is compared the same way. */
function sameUrl(a: string, b: string): boolean {
  return URL.canParse(a) && URL.canParse(b) ? new URL(a).href === new URL(b).href : a === b;
}

async function resolveTargets(sql: Sql, event: EventRow): Promise<Target[]> {
  const endpoints = await sql<{ id: string; url: string }[]>`
    select id, url from webhook_endpoints
    where account_id = ${event.accountId} and disabled_at is null
    order by created_at, id`;
  const targets: Target[] = endpoints.map((e) => ({ target: 'endpoint', targetKey: e.id, url: e.url, endpointId: e.id, signingKeyId: null }));
  if (event.transactionId === null) return targets;
  const [charge] = await sql<{ webhookUrl: string | null; apiKeyId: string | null }[]>`
    select webhook_url as "webhookUrl", api_key_id as "apiKeyId" from transactions where id = ${event.transactionId}`;
  if (!charge?.webhookUrl || endpoints.some((e) => sameUrl(e.url, charge.webhookUrl!))) return targets;
  // The signing key is the endpoint secret; only an account without any endpoint uses the legacy key.
  const signer = endpoints[0] ? { endpointId: endpoints[0].id, signingKeyId: null } : { endpointId: null, signingKeyId: charge.apiKeyId };
  if (signer.endpointId === null && signer.signingKeyId === null) return targets;
  return [...targets, { target: 'charge', targetKey: 'charge', url: charge.webhookUrl, ...signer }];
}

/**
 * Starts the delivery's workflow and, without waiting for its start, makes attempt 1 at once in this process
 * (three fewer server round trips before the POST); the run is told the outcome and makes the retries. If
 * this process dies first, the run makes attempt 1 itself after FIRST_ATTEMPT_WAIT_MS; a dispatch retried
 * after a failed start finds the delivery still pending unless attempt 1 succeeded.
 */
function startWithFirstAttemptNow(deps: Deps, deliveryId: string, owner: DeliveryOwner): Promise<void> {
  const started = startAutomaticDelivery(deps, deliveryId, owner, true);
  attemptDelivery(deps, { deliveryId, trigger: 'automatic', lastAttempt: false })
    .then(async (outcome) => {
      await started;
      await tellFirstAttempt(deps, deliveryId, outcome);
    })
    .catch((err: unknown) => deps.log.warn({ deliveryId, err }, 'webhook attempt 1 not made or not told: its delivery workflow makes it'));
  return started;
}

/**
 * Creates the deliveries of an event and starts those still pending; idempotent. Returns the delivery ids.
 * `firstAttemptNow`: attempt 1 of each is made at once by this process (startWithFirstAttemptNow).
 */
export async function dispatchEvent(deps: Deps, eventId: string, options: { firstAttemptNow?: boolean } = {}): Promise<string[]> {
  const [event] = await deps.sql<EventRow[]>`
    select id, account_id as "accountId", transaction_id as "transactionId" from events where id = ${eventId}`;
  if (!event) {
    deps.log.error({ eventId }, 'webhook dispatch: event not found');
    return [];
  }
  const targets = await resolveTargets(deps.sql, event);
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
  await deps.sql`insert into webhook_deliveries ${deps.sql(rows)} on conflict (event_id, target_key) do nothing`;
  const pending = await deps.sql<{ id: string }[]>`
    select id from webhook_deliveries where id in ${deps.sql(rows.map((r) => r.id))} and status = 'pending'`;
  const start = options.firstAttemptNow ? startWithFirstAttemptNow : startAutomaticDelivery;
  await Promise.all(pending.map(({ id }) => start(deps, id, event)));
  return rows.map((r) => r.id);
}
