// A customer's balances, in centavos, as the ledger holds them.
import type { Sql, TxSql } from '../db/database.js';
import { CUSTOMER_KINDS } from './accounts.js';

export interface Balance {
  availableCents: number;
  reservedCents: number;
  retainedCents: number;
}

export async function readBalance(sql: Sql | TxSql, accountId: string): Promise<Balance> {
  const rows = await sql<{ kind: string; balance: bigint }[]>`
    select kind, balance from ledger_accounts where owner_id = ${accountId} and kind = any(${[...CUSTOMER_KINDS]}::text[])`;
  const of = (kind: string) => Number(rows.find((r) => r.kind === kind)?.balance ?? 0n);
  return { availableCents: of('available'), reservedCents: of('reserved'), retainedCents: of('retained') };
}
