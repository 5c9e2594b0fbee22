// The charge behind a payer's page token, with its merchant's name: the only read the page makes.
import type { Sql } from '../../db/database.js';
import { toTransactionRow, type RawTransactionRow } from '../../transactions/row.js';
import { chargeView, type CheckoutView } from './view.js';

export async function findChargeView(sql: Sql, token: string, now = new Date()): Promise<CheckoutView | null> {
  const [raw] = await sql<(RawTransactionRow & { merchant_name: string })[]>`
    select t.*, a.name as merchant_name
      from transactions t join accounts a on a.id = t.account_id
     where t.checkout_token = ${token}`;
  return raw ? chargeView(toTransactionRow(raw), raw.merchant_name, now) : null;
}
