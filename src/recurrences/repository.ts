// Reads and writes of the `recurrences` read model: the API's always scoped to one account, the engine's and the simulated network's by id.
import type { Sql, TxSql } from '../db/database.js';
import type { RecurrenceStatus } from './contract.js';
import { toRecurrenceRow, type RawRecurrenceRow, type RecurrenceRow } from './row.js';

/** By recurrence id or by the client's externalId, only within `accountId`; an id match wins. */
export async function findRecurrence(sql: Sql | TxSql, accountId: string, idOrExternalId: string): Promise<RecurrenceRow | null> {
  const [raw] = await sql<RawRecurrenceRow[]>`
    select * from recurrences
    where account_id = ${accountId} and (id = ${idOrExternalId} or external_id = ${idOrExternalId})
    order by (id = ${idOrExternalId}) desc
    limit 1`;
  return raw ? toRecurrenceRow(raw) : null;
}

export async function loadRecurrence(sql: Sql | TxSql, recurrenceId: string): Promise<RecurrenceRow> {
  const [raw] = await sql<RawRecurrenceRow[]>`select * from recurrences where id = ${recurrenceId}`;
  if (!raw) throw new Error(`recurrence ${recurrenceId} not found`);
  return toRecurrenceRow(raw);
}

/** The recurrence `recurrenceId` when it is on `route`. */
export async function findRecurrenceOnRoute(sql: Sql, recurrenceId: string, route: string): Promise<RecurrenceRow | null> {
  const [raw] = await sql<RawRecurrenceRow[]>`select * from recurrences where id = ${recurrenceId} and route = ${route}`;
  return raw ? toRecurrenceRow(raw) : null;
}

/** The recurrence a cycle charge belongs to; null for any other transaction. */
export async function recurrenceIdOfCycle(sql: Sql, transactionId: string): Promise<string | null> {
  const [row] = await sql<{ recurrence_id: string | null }[]>`select recurrence_id from transactions where id = ${transactionId}`;
  return row?.recurrence_id ?? null;
}

/** The id of one cycle charge of the recurrence (the first made), null before any. */
export async function firstCycleChargeId(sql: Sql, recurrenceId: string): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`select id from transactions where recurrence_id = ${recurrenceId} limit 1`;
  return row?.id ?? null;
}

/** The recurrence whose first payment (journey 3) is this charge, when one is. */
export async function recurrenceOfFirstPayment(sql: Sql, transactionId: string): Promise<RecurrenceRow | null> {
  const [raw] = await sql<RawRecurrenceRow[]>`select * from recurrences where first_payment_transaction_id = ${transactionId}`;
  return raw ? toRecurrenceRow(raw) : null;
}

export interface RecurrenceListQuery {
  page: number;
  limit: number;
  status?: RecurrenceStatus;
}

/** One page of the account's recurrences, newest first, and how many match. */
export async function listRecurrences(
  sql: Sql,
  accountId: string,
  query: RecurrenceListQuery,
): Promise<{ rows: RecurrenceRow[]; total: number }> {
  const matching = sql`account_id = ${accountId} ${query.status ? sql`and status = ${query.status}` : sql``}`;
  const [rows, [count]] = await Promise.all([
    sql<RawRecurrenceRow[]>`
      select * from recurrences where ${matching}
      order by created_at desc, id desc
      limit ${query.limit} offset ${(query.page - 1) * query.limit}`,
    sql<{ total: bigint }[]>`select count(*)::bigint as total from recurrences where ${matching}`,
  ]);
  return { rows: rows.map(toRecurrenceRow), total: Number(count!.total) };
}
