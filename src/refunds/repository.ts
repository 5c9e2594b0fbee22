// Reads of refunds.
import type { Sql, TxSql } from '../db/database.js';
import { toRefundRow, type RawRefundRow, type RefundRow } from './row.js';

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
