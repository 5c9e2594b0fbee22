// Reads of the transactions read model, scoped to one account (the simulated network, which knows no account, reads by id).
import type { Sql, TxSql } from '../db/database.js';
import {
  toTransactionRow,
  type RawTransactionRow,
  type StoredPayer,
  type TransactionRow,
  type TransactionStatus,
  type TransactionType,
} from './row.js';

/** By transaction id or by the client's externalId, only within `accountId`; an id match wins over an externalId match. */
export async function findTransaction(sql: Sql | TxSql, accountId: string, idOrExternalId: string): Promise<TransactionRow | null> {
  const [raw] = await sql<RawTransactionRow[]>`
    select * from transactions
    where account_id = ${accountId} and (id = ${idOrExternalId} or external_id = ${idOrExternalId})
    order by (id = ${idOrExternalId}) desc
    limit 1`;
  return raw ? toTransactionRow(raw) : null;
}

/** The transfer of that id, whatever its account (the simulated network's view); null when no transfer has it. */
export async function findTransfer(sql: Sql, transferId: string): Promise<TransactionRow | null> {
  const [raw] = await sql<RawTransactionRow[]>`select * from transactions where id = ${transferId} and type = 'withdrawal'`;
  return raw ? toTransactionRow(raw) : null;
}

/** The payer the transaction names, by its id; null when it names none (or there is no such transaction). */
export async function findTransactionPayer(sql: Sql, transactionId: string): Promise<StoredPayer | null> {
  const [row] = await sql<{ payer: StoredPayer | null }[]>`select payer from transactions where id = ${transactionId}`;
  return row?.payer ?? null;
}

/** The account's operation of that Idempotency-Key (its externalId), a charge or a transfer. */
export async function findTransactionByKey(sql: Sql | TxSql, accountId: string, externalId: string): Promise<TransactionRow | null> {
  const [raw] = await sql<RawTransactionRow[]>`
    select * from transactions where account_id = ${accountId} and external_id = ${externalId}`;
  return raw ? toTransactionRow(raw) : null;
}

export interface ListQuery {
  page: number;
  limit: number;
  status?: TransactionStatus;
  type?: TransactionType;
  /** Created at or after. */
  createdFrom?: Date;
  /** Created before. */
  createdTo?: Date;
  /** The cycle charges of one recurrence. */
  recurrenceId?: string;
}

/**
 * One page of the account's transactions, newest first, and how many match in all. The page's ids are
 * found first, so that the rows the offset skips are read by an index-only scan (an index in the list's
 * order per filter, migration 110), and only the page's rows from the table. Without a date range the
 * total is exact without counting rows: it sums the counters migration 110 keeps per (account, status,
 * type), which key every other filter; a date range is counted (bounded by the range, on the same index).
 */
export async function listTransactions(sql: Sql, accountId: string, query: ListQuery): Promise<{ rows: TransactionRow[]; total: number }> {
  // The same conditions select the rows of `transactions` and the counters of `transaction_counts`.
  const filters = sql`
    account_id = ${accountId}
    ${query.status ? sql`and status = ${query.status}` : sql``}
    ${query.type ? sql`and type = ${query.type}` : sql``}`;
  // The counters do not key recurrences: a recurrence's cycles are counted (on their own index).
  const dated = query.createdFrom !== undefined || query.createdTo !== undefined || query.recurrenceId !== undefined;
  const matching = sql`${filters}
    ${query.recurrenceId ? sql`and recurrence_id = ${query.recurrenceId}` : sql``}
    ${query.createdFrom ? sql`and created_at >= ${query.createdFrom}` : sql``}
    ${query.createdTo ? sql`and created_at < ${query.createdTo}` : sql``}`;
  const [rows, [count]] = await Promise.all([
    sql<RawTransactionRow[]>`
      select t.* from transactions t
      join (select id from transactions where ${matching}
            order by created_at desc, id desc
            limit ${query.limit} offset ${(query.page - 1) * query.limit}) page using (id)
      order by t.created_at desc, t.id desc`,
    dated
      ? sql<{ total: bigint }[]>`select count(*)::bigint as total from transactions where ${matching}`
      : sql<{ total: bigint }[]>`select coalesce(sum(transactions), 0)::bigint as total from transaction_counts where ${filters}`,
  ]);
  return { rows: rows.map(toTransactionRow), total: Number(count!.total) };
}
