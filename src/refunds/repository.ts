// Reads of refunds.
import type { Sql, TxSql } from '../db/database.js';
import { toRefundRow, type RawRefundRow, type RefundRow } from './row.js';

/** The charge a refund of `transactionId` would return from: its id, account and route (createRefund refuses what is not a refundable charge). */
export async function findRefundedCharge(
  sql: Sql,
  transactionId: string,
): Promise<{ id: string; accountId: string; route: string } | null> {
  const [charge] = await sql<{ id: string; accountId: string; route: string }[]>`
    select id, account_id as "accountId", acquirer as route from transactions where id = ${transactionId}`;
  return charge ?? null;
}

export async function findRefund(sql: Sql | TxSql, refundId: string): Promise<RefundRow | null> {
  const [raw] = await sql<RawRefundRow[]>`select * from refunds where id = ${refundId}`;
  return raw ? toRefundRow(raw) : null;
}

/** The account's refund of that Idempotency-Key. */
export async function findRefundByKey(sql: Sql | TxSql, accountId: string, key: string): Promise<RefundRow | null> {
  const [raw] = await sql<RawRefundRow[]>`select * from refunds where account_id = ${accountId} and idempotency_key = ${key}`;
  return raw ? toRefundRow(raw) : null;
}

/** The refunds of a charge, oldest first. */
export async function listRefunds(sql: Sql, transactionId: string): Promise<RefundRow[]> {
  const raws = await sql<RawRefundRow[]>`select * from refunds where transaction_id = ${transactionId} order by created_at, id`;
  return raws.map(toRefundRow);
}
