// Balances, in centavos, as the ledger holds them: a ledger account's row plus its deltas (the view
// ledger_balances, migration 100_ledger_balance_deltas.sql).
import type { Sql, TxSql } from '../db/database.js';
import { CUSTOMER_KINDS } from './accounts.js';

export interface Balance {
  availableCents: number;
  reservedCents: number;
  retainedCents: number;
}

export async function readBalance(sql: Sql | TxSql, accountId: string): Promise<Balance> {
  const rows = await sql<{ kind: string; balance: bigint }[]>`
    select kind, balance from ledger_balances where owner_id = ${accountId} and kind = any(${[...CUSTOMER_KINDS]}::text[])`;
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0n);
  return { availableCents: of('available'), reservedCents: of('reserved'), retainedCents: of('retained') };
}

/**
 * Locks the rows of these ledger accounts for the caller's transaction (in id order, waiting for their
 * holders), moves their deltas into them, and returns their balances. An account without a row is absent.
 */
export async function lockedBalances(tx: TxSql, ids: string[]): Promise<Map<string, number>> {
  const rows = await tx<{ id: string; balance: bigint }[]>`
    with locked as (
      select id, balance from ledger_accounts where id = any(${ids}::text[]) order by id for no key update
    ), moved as (
      delete from ledger_balance_deltas where ledger_account_id = any(array(select id from locked))
      returning ledger_account_id as id, amount
    ), updated as (
      update ledger_accounts a set balance = a.balance + m.amount, updated_at = now()
      from (select id, sum(amount)::bigint as amount from moved group by id) m
      where a.id = any(array(select id from moved)) and a.id = m.id
      returning a.id, a.balance
    )
    select l.id, coalesce(u.balance, l.balance) as balance from locked l left join updated u on u.id = l.id`;
  return new Map(rows.map((r) => [r.id, Number(r.balance)]));
}
