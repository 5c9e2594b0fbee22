// The reads of the payer's page: the charge or recurrence behind a token, with its merchant's name,
// and the live status of every token some open page watches (one query for all of them).
import type { Sql } from '../../db/database.js';
import type { RecurrenceStatus } from '../../recurrences/contract.js';
import { toRecurrenceRow, type RawRecurrenceRow } from '../../recurrences/row.js';
import { toTransactionRow, type RawTransactionRow, type TransactionStatus } from '../../transactions/row.js';
import { AUTHORIZATION_STATE_OF_STATUS, authorizationView } from './authorization-view.js';
import { chargeView, STATE_OF_STATUS, statusOf, type CheckoutStatus, type CheckoutView } from './view.js';

export async function findChargeView(sql: Sql, token: string, now = new Date()): Promise<CheckoutView | null> {
  const [raw] = await sql<(RawTransactionRow & { merchant_name: string })[]>`
    select t.*, a.name as merchant_name
      from transactions t join accounts a on a.id = t.account_id
     where t.checkout_token = ${token}`;
  return raw ? chargeView(toTransactionRow(raw), raw.merchant_name, now) : null;
}

export async function findAuthorizationView(sql: Sql, token: string): Promise<CheckoutView | null> {
  const [raw] = await sql<(RawRecurrenceRow & { merchant_name: string })[]>`
    select r.*, a.name as merchant_name
      from recurrences r join accounts a on a.id = r.account_id
     where r.checkout_token = ${token}`;
  return raw ? authorizationView(toRecurrenceRow(raw), raw.merchant_name) : null;
}

/** A token's page: a charge's, else a recurrence's authorization, else none. */
export const findCheckoutView = async (sql: Sql, token: string, now = new Date()): Promise<CheckoutView | null> =>
  (await findChargeView(sql, token, now)) ?? (await findAuthorizationView(sql, token));

type WatchedRow = { checkout_token: string; expires_at: Date; ready: boolean } & (
  { kind: 'charge'; status: TransactionStatus } | { kind: 'recurrence'; status: RecurrenceStatus }
);

/** The status of each of `tokens` that names a charge or a recurrence. */
export async function readStatuses(sql: Sql, tokens: string[], now = new Date()): Promise<[token: string, status: CheckoutStatus][]> {
  const rows = await sql<WatchedRow[]>`
    select checkout_token, 'charge' as kind, status, expires_at, pix_copy_paste is not null as ready
      from transactions where checkout_token = any(${tokens})
    union all
    select checkout_token, 'recurrence', status, authorization_expires_at, authorization_copy_paste is not null
      from recurrences where checkout_token = any(${tokens})`;
  return rows.map((row) => {
    const page =
      row.kind === 'charge'
        ? { kind: row.kind, state: STATE_OF_STATUS[row.status] }
        : { kind: row.kind, state: AUTHORIZATION_STATE_OF_STATUS[row.status] };
    return [row.checkout_token, statusOf({ ...page, expiresAt: row.expires_at, ready: row.ready }, now)];
  });
}
