// The platform's totals, from the counters migration 110 keeps (16 shards per counter that triggers update
// with every write of transactions and accounts): a read sums the shards instead of counting rows.
import type { Sql } from '../db/database.js';

export interface PlatformCounts {
  approvedTransactions: number;
  approvedVolumeCents: bigint;
  accounts: number;
}

/** The platform's approved transactions (charges paid and transfers sent), their amounts' sum and the accounts created. */
export async function readPlatformCounts(sql: Sql): Promise<PlatformCounts> {
  const [row] = await sql<{ approved: bigint; accounts: bigint; volume: bigint }[]>`
    select coalesce(sum(approved_transactions), 0)::bigint as approved,
           coalesce(sum(approved_volume), 0)::bigint as volume,
           coalesce(sum(accounts), 0)::bigint as accounts
      from platform_counts`;
  return { approvedTransactions: Number(row!.approved), approvedVolumeCents: row!.volume, accounts: Number(row!.accounts) };
}
