// The delivery log as operators read it: deliveries of an event or of a transaction, each with its attempts.
import type { Sql } from '../db/database.js';

export interface AttemptView {
  number: number;
  trigger: 'automatic' | 'manual';
  success: boolean;
  statusCode: number | null;
  errorCode: string | null;
  error: string | null;
  durationMs: number;
  startedAt: string;
  finishedAt: string;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  event: string;
  accountId: string;
  transactionId: string | null;
  target: 'endpoint' | 'charge';
  url: string;
  endpointId: string | null;
  signedWith: 'endpoint_secret' | 'api_key_hash';
  status: 'pending' | 'succeeded' | 'failed' | 'cancelled';
  attemptCount: number;
  deliveredAt: string | null;
  createdAt: string;
  updatedAt: string;
  attempts: AttemptView[];
}

export type DeliveryFilter = { transactionId?: string; eventId?: string; deliveryId?: string };

interface DeliveryRow extends Omit<DeliveryView, 'signedWith' | 'deliveredAt' | 'createdAt' | 'updatedAt' | 'attempts'> {
  deliveredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface AttemptRow extends Omit<AttemptView, 'startedAt' | 'finishedAt'> {
  deliveryId: string;
  startedAt: Date;
  finishedAt: Date;
}

export async function findDeliveries(sql: Sql, filter: DeliveryFilter): Promise<DeliveryView[]> {
  const deliveries = await sql<DeliveryRow[]>`
    select d.id, d.event_id as "eventId", e.type as event, d.account_id as "accountId", d.transaction_id as "transactionId",
           d.target, d.url, d.endpoint_id as "endpointId", d.status, d.attempt_count as "attemptCount",
           d.delivered_at as "deliveredAt", d.created_at as "createdAt", d.updated_at as "updatedAt"
    from webhook_deliveries d join events e on e.id = d.event_id
    where true
      ${filter.transactionId === undefined ? sql`` : sql`and d.transaction_id = ${filter.transactionId}`}
      ${filter.eventId === undefined ? sql`` : sql`and d.event_id = ${filter.eventId}`}
      ${filter.deliveryId === undefined ? sql`` : sql`and d.id = ${filter.deliveryId}`}
    order by d.created_at, d.id`;
  if (deliveries.length === 0) return [];
  const attempts = await sql<AttemptRow[]>`
    select delivery_id as "deliveryId", number, trigger, success, status_code as "statusCode", error_code as "errorCode",
           error, duration_ms as "durationMs", started_at as "startedAt", finished_at as "finishedAt"
    from webhook_attempts where delivery_id in ${sql(deliveries.map((d) => d.id))}
    order by delivery_id, number`;
  return deliveries.map((d) => ({
    ...d,
    signedWith: d.endpointId === null ? 'api_key_hash' : 'endpoint_secret',
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map(({ deliveryId: _, startedAt, finishedAt, ...attempt }) => ({
        ...attempt,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
      })),
  }));
}

export async function findDelivery(sql: Sql, deliveryId: string): Promise<DeliveryView | null> {
  const [delivery] = await findDeliveries(sql, { deliveryId });
  return delivery ?? null;
}
