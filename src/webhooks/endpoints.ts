// Registered webhook endpoints of an account. The secret signs the deliveries; it is shown to the
// operator once, at registration, and stored in clear because signing needs it.
import { randomBytes } from 'node:crypto';
import type { Sql } from '../db/database.js';

export const MAX_ENDPOINTS_PER_ACCOUNT = 10;

export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  createdAt: Date;
  disabledAt: Date | null;
}

export type Registration =
  { outcome: 'created'; endpoint: WebhookEndpoint; secret: string } | { outcome: 'account_not_found' | 'duplicate' | 'too_many' };

const COLUMNS = 'id, account_id as "accountId", url, created_at as "createdAt", disabled_at as "disabledAt"';

/** Registers a URL (already checked) for an account; the account row lock keeps the count exact. */
export async function registerEndpoint(sql: Sql, accountId: string, url: string): Promise<Registration> {
  return sql.begin(async (tx): Promise<Registration> => {
    const [account] = await tx`select id from accounts where id = ${accountId} for update`;
    if (!account) return { outcome: 'account_not_found' };
    const active = await tx<{ url: string }[]>`select url from webhook_endpoints where account_id = ${accountId} and disabled_at is null`;
    if (active.some((e) => e.url === url)) return { outcome: 'duplicate' };
    if (active.length >= MAX_ENDPOINTS_PER_ACCOUNT) return { outcome: 'too_many' };
    const secret = `whsec_${randomBytes(32).toString('hex')}`;
    const [endpoint] = await tx<WebhookEndpoint[]>`
      insert into webhook_endpoints (id, account_id, url, secret)
      values (${`whe_${randomBytes(12).toString('hex')}`}, ${accountId}, ${url}, ${secret})
      returning ${tx.unsafe(COLUMNS)}`;
    return { outcome: 'created', endpoint: endpoint!, secret };
  });
}

export function listEndpoints(sql: Sql, accountId: string): Promise<WebhookEndpoint[]> {
  return sql<WebhookEndpoint[]>`
    select ${sql.unsafe(COLUMNS)} from webhook_endpoints where account_id = ${accountId} order by created_at, id`;
}

/** Stops deliveries to an endpoint (pending ones are cancelled at their next attempt); idempotent. */
export async function disableEndpoint(sql: Sql, id: string): Promise<WebhookEndpoint | null> {
  const [endpoint] = await sql<WebhookEndpoint[]>`
    update webhook_endpoints set disabled_at = coalesce(disabled_at, now()) where id = ${id}
    returning ${sql.unsafe(COLUMNS)}`;
  return endpoint ?? null;
}
