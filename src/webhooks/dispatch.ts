// From a recorded event to running deliveries. The targets of an event are the account's active
// registered endpoints and the charge's own webhookUrl (once: a webhookUrl equal to a registered
// endpoint's URL is that endpoint's delivery). Each target gets one delivery row and one delivery
// workflow, both keyed by event and target, so dispatching an event twice starts nothing new.
import { createHash, randomBytes } from 'node:crypto';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { WebhookDeliveryInput, WebhookDeliveryResult, webhookDeliveryWorkflow } from '../../workflows/webhook-delivery.js';
import { ACCOUNT_ID_ATTRIBUTE, TRANSACTION_ID_ATTRIBUTE } from '../temporal/search-attributes.js';
import { TIMED_OUT, within } from '../async/within.js';
import type { Sql } from '../db/database.js';
import type { Deps } from '../deps.js';
import type { DeliveryView } from './deliveries.js';
import { MAX_AUTOMATIC_ATTEMPTS, type RetrySchedule } from './schedule.js';
import { WORKFLOW_TASK_TIMEOUT } from '../temporal/timeouts.js';

/** How long an operator's redelivery request waits for its attempt (8 s at most, plus scheduling). */
const REDELIVERY_WAIT_MS = 20_000;

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

/** Stable for an event and target: the X-Service-Delivery header of every attempt, and the workflow id. */
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

interface Owner {
  accountId: string;
  transactionId: string | null;
}

/** Delivery workflows carry the account and transaction search attributes, so operators find them in the Web UI. */
function startDelivery(deps: Deps, workflowId: string, input: WebhookDeliveryInput, owner: Owner) {
  return deps.temporal.workflow.start<typeof webhookDeliveryWorkflow>('webhookDeliveryWorkflow', {
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

/** Creates the deliveries of an event and starts those still pending; idempotent. Returns the delivery ids. */
export async function dispatchEvent(deps: Deps, eventId: string): Promise<string[]> {
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
  await Promise.all(
    pending.map(async ({ id }) => {
      try {
        const input = { deliveryId: id, trigger: 'automatic', attempts: MAX_AUTOMATIC_ATTEMPTS, schedule: scheduleOf(deps) } as const;
        await startDelivery(deps, `webhook-delivery:${id}`, input, event);
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
    }),
  );
  return rows.map((r) => r.id);
}

/**
 * An operator's redelivery: one immediate attempt, whatever the delivery's status. Waits for its
 * outcome; null when it has not finished within REDELIVERY_WAIT_MS (it still runs).
 */
export async function redeliver(deps: Deps, delivery: DeliveryView): Promise<WebhookDeliveryResult | null> {
  const workflowId = `webhook-delivery:${delivery.id}:manual:${randomBytes(6).toString('hex')}`;
  const handle = await startDelivery(deps, workflowId, { deliveryId: delivery.id, trigger: 'manual', attempts: 1, schedule: scheduleOf(deps) }, delivery);
  const result = await within(handle.result(), REDELIVERY_WAIT_MS);
  return result === TIMED_OUT ? null : result;
}
