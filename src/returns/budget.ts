// One return budget per Pix: what the payer paid for a charge can go back to the payer once, whatever
// returns it. Refunds (approved or pending), MEDs (what an open MED retains, what an accepted one
// returned) and the MED devoluções a PSP reports all draw on it, so together they never return more
// than was paid. Every feature that returns money of a charge reads its budget here, with the charge's
// row locked, in the same PostgreSQL transaction that reserves or records the return: two requests of
// any kinds are judged one after the other.
import type { Sql, TxSql } from '../db/database.js';
import { formatReais } from '../domain/money.js';

export interface ReturnBudget {
  accountId: string;
  /** The charge's Idempotency-Key. */
  externalId: string;
  route: string;
  endToEndId: string | null;
  type: string;
  status: string;
  /** Seconds since the charge was approved, by PostgreSQL's clock; null when it never was. */
  approvedAgeSeconds: number | null;
  /** What the payer paid (the charge's amount when no different payment was recorded). */
  paidCents: number;
  /** Refunds approved or pending, MED retentions of open MEDs and what accepted MEDs returned. */
  committedCents: number;
  /** paid − committed, never below zero. */
  leftCents: number;
}

interface RawBudget {
  accountId: string;
  externalId: string;
  route: string;
  endToEndId: string | null;
  type: string;
  status: string;
  approvedAgeSeconds: string | null;
  paid: bigint;
}

async function readBudget(sql: Sql | TxSql, transactionId: string, lock: boolean): Promise<ReturnBudget | null> {
  const [charge] = await sql<RawBudget[]>`
    select account_id as "accountId", external_id as "externalId", acquirer as route, end_to_end_id as "endToEndId", type, status, extract(epoch from now() - approved_at)::text as "approvedAgeSeconds",
           coalesce(paid_amount, amount) as paid
    from transactions where id = ${transactionId} ${lock ? sql`for update` : sql``}`;
  if (!charge) return null;
  // Read after the lock, so that what a concurrent transaction committed before it is counted.
  const [drawn] = await sql<{ refunds: bigint; meds: bigint }[]>`
    select
      (select coalesce(sum(amount), 0) from refunds where transaction_id = ${transactionId} and status in ('pending', 'approved'))::bigint as refunds,
      (select coalesce(sum(case status when 'open' then retained_amount when 'accepted' then returned_amount else 0 end), 0)
         from meds where transaction_id = ${transactionId})::bigint as meds`;
  const paidCents = Number(charge.paid);
  const committedCents = Number(drawn!.refunds + drawn!.meds);
  return {
    accountId: charge.accountId,
    externalId: charge.externalId,
    route: charge.route,
    endToEndId: charge.endToEndId,
    type: charge.type,
    status: charge.status,
    approvedAgeSeconds: charge.approvedAgeSeconds === null ? null : Number(charge.approvedAgeSeconds),
    paidCents,
    committedCents,
    leftCents: Math.max(0, paidCents - committedCents),
  };
}

/** The charge's budget with its row locked (`for update`) for the rest of the caller's transaction; null for an unknown id. */
export function lockReturnBudget(tx: TxSql, transactionId: string): Promise<ReturnBudget | null> {
  return readBudget(tx, transactionId, true);
}

/** The budget as it is now, without a lock: only for showing (a 202's preview), never for deciding. */
export function peekReturnBudget(sql: Sql, transactionId: string): Promise<ReturnBudget | null> {
  return readBudget(sql, transactionId, false);
}

/** How the refusals say what is left. */
export function describeLeft(budget: ReturnBudget): string {
  return `resta ${formatReais(budget.leftCents)} de ${formatReais(budget.paidCents)} pagos (devoluções aprovadas ou pendentes e MEDs já contam)`;
}
